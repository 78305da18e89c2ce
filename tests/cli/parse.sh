#!/usr/bin/env bash
# CLI behaviour of `ptxcheck parse` (ISSUE: foundation): exit codes, located errors, .cu input through nvcc,
# --print idempotence and --json. Usage: parse.sh PTXCHECK SOURCE_DIR
set -u
ptxcheck=$1; src=$2; data=$src/tests/data
. "$(dirname "$0")/lib.sh"  # check, passed/failed, $tmp, summary

"$ptxcheck" parse "$src"/examples/ptx/*.ptx >"$tmp/out" 2>&1; rc=$?
check "valid examples exit 0" test $rc -eq 0

"$ptxcheck" parse "$data/bad_operand.ptx" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "syntax error exits 2" test $rc -eq 2
check "syntax error is located at the missing comma" grep -q "bad_operand.ptx:7:19: error: expected ';' here" "$tmp/err"
check "syntax error shows a caret" grep -qE '^[[:space:]]*\^$' "$tmp/err"

"$ptxcheck" parse "$data/undeclared.ptx" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "check errors exit 2" test $rc -eq 2
check "undeclared register named" grep -q "undeclared.ptx:7:.*undeclared name '%r9'" "$tmp/err"
check "undefined label named" grep -q "undefined label 'missing_label'" "$tmp/err"
check "unknown instruction named" grep -q "unknown instruction 'frobnicate'" "$tmp/err"
check "qualifier that add does not take" grep -q "unknown qualifier '.exch' for 'add'" "$tmp/err"
check "add without a type" grep -q "undeclared.ptx:11:.*'add' takes 1 type qualifier, not 0" "$tmp/err"
check "cvt with one type" grep -q "undeclared.ptx:12:.*'cvt' takes 2 type qualifiers, not 1" "$tmp/err"

# Video selectors and vmad's `-` (ISA 9.7.18): only where each instruction's syntax puts them, located at the operand.
"$ptxcheck" parse "$data/video_selector.ptx" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "video selector errors exit 2" test $rc -eq 2
check "selector on a non-video instruction, at its operand" grep -q "video_selector.ptx:7:15: error: video selector '.b0' on an operand of 'add': only video instructions take selectors" "$tmp/err"
check "no half-word .h2 of a 32-bit operand" grep -q "video_selector.ptx:8:24: error: video selector '.h2' is not allowed on operand 1 of 'vadd'" "$tmp/err"
check "destination selector and secondary operation" grep -q "video_selector.ptx:9:2: error: a video instruction takes a destination selector or a secondary operation, not both" "$tmp/err"
check "a SIMD mask's digits descend" grep -q "video_selector.ptx:10:20: error: video selector '.b01' is not allowed on operand 0 of 'vadd4'" "$tmp/err"
check "negation outside vmad" grep -q "video_selector.ptx:11:15: error: operand negation '-' is not allowed here" "$tmp/err"
check "negation with vmad.po" grep -q "video_selector.ptx:12:27: error: vmad.po does not allow operand negation" "$tmp/err"
check "the valid selector line is not reported" bash -c "! grep -q 'video_selector.ptx:13:' '$tmp/err'"
check "vshr without .clamp or .wrap" grep -q "video_selector.ptx:14:2: error: 'vshr' needs one mode, .clamp or .wrap" "$tmp/err"
printf '.version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 %%r<6>;\nvmad.s32.s32.s32 %%r1, -%%r2.b1, %%r3.h1, %%r4;\nvsub4.s32.s32.s32.sat %%r1.b0, %%r2.b3210, %%r3.b7654, %%r1;\nret;\n}\n' >"$tmp/video.ptx"
"$ptxcheck" parse --print "$tmp/video.ptx" >"$tmp/video_printed.ptx" 2>"$tmp/err"; rc=$?
check "video selectors parse and print (exit $rc)" grep -q -- "-%r2.b1, %r3.h1" "$tmp/video_printed.ptx"
check "SIMD mask and lane selectors print" grep -q "%r1.b0, %r2.b3210, %r3.b7654" "$tmp/video_printed.ptx"

# ISA 11.1.1: a module begins with .version, immediately followed by .target; an empty file is no module.
header_error() {  # header_error NAME CONTENT EXPECTED-MESSAGE: exit 2 and the located message
  printf "$2" >"$tmp/$1.ptx"
  "$ptxcheck" parse "$tmp/$1.ptx" >/dev/null 2>"$tmp/err"; rc=$?
  check "$1: exit 2" test $rc -eq 2
  check "$1: located" grep -q "$1.ptx:$3" "$tmp/err"
}
header_error empty '' "1:1: error: a PTX module must begin with a .version directive"
header_error noversion '// no version\n.target sm_80\n.address_size 64\n' "2:1: error: a PTX module must begin with a .version"
header_error notarget '.version 8.0\n.address_size 64\n.target sm_80\n' "2:1: error: the .version directive must be immediately followed by a .target"
header_error twice '.version 8.0\n.target sm_80\n.version 8.0\n' "3:1: error: a second .version directive"

"$ptxcheck" parse "$tmp/does-not-exist.ptx" >/dev/null 2>"$tmp/err"; rc=$?
check "missing file exits 2" test $rc -eq 2

"$ptxcheck" parse --frobnicate >/dev/null 2>&1; rc=$?
check "bad usage exits 2" test $rc -eq 2

if command -v nvcc >/dev/null; then
  "$ptxcheck" parse --json "$data/saxpy.cu" >"$tmp/json" 2>"$tmp/err"; rc=$?
  check ".cu compiles through nvcc" test $rc -eq 0
  check ".cu summary names the kernel" grep -q '"_Z5saxpyifPKfPf"' "$tmp/json"
  "$ptxcheck" parse "$data/broken.cu" >/dev/null 2>"$tmp/err"; rc=$?
  check "nvcc error exits 2" test $rc -eq 2
  check "nvcc's message is reported" grep -q "undefined_name" "$tmp/err"
  "$ptxcheck" parse -D N=4 --nvcc-flag=-O3 "$data/saxpy.cu" >/dev/null 2>&1; rc=$?
  check "nvcc pass-through flags" test $rc -eq 0
  # nvcc's own spellings (issue 38), pasted from a build line: the kernel needs the macro of the -include'd header,
  # and -arch=sm_90a (then -gencode's sm_90a, the last one given) must reach nvcc, which defines
  # __CUDA_ARCH_FEAT_SM90_ALL only for sm_90a (ptxcheck's default is sm_90).
  printf '#define SCALE 3\n' >"$tmp/scale.h"
  printf '#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)\n#error not sm_90a\n#endif\n__global__ void k(int* o) { o[threadIdx.x] = SCALE * threadIdx.x; }\n' >"$tmp/k.cu"
  "$ptxcheck" parse "$tmp/k.cu" -include "$tmp/scale.h" -std=c++17 -arch=sm_90a --expt-relaxed-constexpr -Xcompiler -Wall \
    -G -lineinfo -O3 -gencode arch=compute_90a,code=sm_90a >/dev/null 2>"$tmp/err"; rc=$?
  check "nvcc spellings: -include, -std=, -arch=, -Xcompiler X, -G, -gencode ($(head -1 "$tmp/err"))" test $rc -eq 0
  "$ptxcheck" parse "$tmp/k.cu" -include "$tmp/scale.h" -arch=sm_80 >/dev/null 2>&1; rc=$?
  check "nvcc spellings: -arch=sm_80 reaches nvcc (not sm_90a: exit 2)" test $rc -eq 2
else
  echo "unsupported: nvcc not on PATH, 7 .cu checks not run"
fi

"$ptxcheck" parse --print "$src/examples/ptx/shared_reduce.ptx" >"$tmp/p1.ptx"
"$ptxcheck" parse --print "$tmp/p1.ptx" >"$tmp/p2.ptx"; rc=$?
check "printed PTX parses" test $rc -eq 0
check "printing is idempotent" cmp -s "$tmp/p1.ptx" "$tmp/p2.ptx"

summary "cli parse"
