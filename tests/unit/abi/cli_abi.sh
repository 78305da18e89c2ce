#!/usr/bin/env bash
# CLI behaviour of `ptxcheck abi` (issues 7, 37): the text line format, JSON, exit codes 0/1/2/3,
# several configurations, and the chapter 1-3 calling-convention errors. Usage: cli_abi.sh PTXCHECK SOURCE_DIR
set -u
ptxcheck=$1; src=$2; ex=$src/examples/abi
passed=0; failed=0
check() { local name=$1; shift; if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: $name"; fi; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

"$ptxcheck" abi "$ex/atomics_table.cu" >"$tmp/out" 2>&1; rc=$?
check "table example exits 0" test $rc -eq 0
check "seq_cst load line format" grep -qE '^.*atomics_table.cu:21:12  atomic_load\(seq_cst, device\)  ->  fence.sc.gpu; ld.acquire.gpu.b32  OK$' "$tmp/out"
check "summary line" grep -q '^32 operations' "$tmp/out"

"$ptxcheck" abi "$ex/wrong_mapping.ptx" --source "$ex/wrong_mapping.cu" --json >"$tmp/json" 2>&1; rc=$?
check "wrong mapping exits 1" test $rc -eq 1
check "JSON names the verdict" grep -q '"verdict": "WRONG"' "$tmp/json"
check "JSON carries the table text" grep -q '"table": "fence.sc.gpu; ld.acquire.gpu | fence.sc.gpu; ld.relaxed.gpu; fence.acquire.gpu"' "$tmp/json"

"$ptxcheck" abi "$ex/wrong_mapping.ptx" >/dev/null 2>"$tmp/err"; rc=$?
check ".ptx without --source exits 2" test $rc -eq 2
"$ptxcheck" abi "$tmp/none.cu" >/dev/null 2>&1; rc=$?
check "missing file exits 2" test $rc -eq 2

"$ptxcheck" abi "$ex/atomics_table.cu" -O 0,3 --archs sm_80,sm_90 >"$tmp/multi" 2>&1; rc=$?
check "-O0 is unknown (exit 3)" test $rc -eq 3
check "four configurations" test "$(grep -c '^# nvcc' "$tmp/multi")" -eq 4

"$ptxcheck" abi "$ex/calling_violations.ptx" --source "$ex/calling_violations.cu" >"$tmp/calls" 2>&1; rc=$?
check "calling violations exit 1" test $rc -eq 1
check "five file:line:col errors" test "$(grep -cE '^.*calling_violations.ptx:[0-9]+:[0-9]+: error: ' "$tmp/calls")" -eq 5
check "small integer at its line" grep -qE 'calling_violations.ptx:12:13: error: parameter 0 of _Z1fc5Small is `.param .u8 c`.*\[ptx-interoperability 2.3, small-integer\]$' "$tmp/calls"
check "vprintf prototype cites chapter 3" grep -qE 'calling_violations.ptx:8:14: error: format of vprintf .*\[ptx-interoperability 3, syscall-prototype\]$' "$tmp/calls"
check "calling summary line" grep -q '^5 calling-convention violations (ptx-interoperability chapters 1-3) in 2 function prototypes and 2 calls$' "$tmp/calls"
"$ptxcheck" abi "$ex/calling_violations.ptx" --source "$ex/calling_violations.cu" --json >"$tmp/calls.json" 2>&1
check "JSON lists the calling findings" grep -q '"rule": "call-arg-mismatch"' "$tmp/calls.json"
"$ptxcheck" abi "$ex/calling_convention.cu" --nvcc-flag=-rdc=true >"$tmp/clean" 2>&1; rc=$?
check "nvcc's calls and prototypes are clean (exit 0)" test $rc -eq 0
check "clean summary line" grep -qE '^0 calling-convention violations .* in [0-9]+ function prototypes and [0-9]+ calls$' "$tmp/clean"

echo "$passed passed, $failed failed"
test $failed -eq 0
