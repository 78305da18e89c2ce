#!/bin/sh
# CLI test of `ptxcheck race` through the real executable: exit codes (0 race-free, 1 race or barrier divergence,
# 2 bad input / no kernel, 3 unknown), the JSON and SARIF shapes, a located error on malformed PTX, and objects named
# as the CUDA source names them (block_sum::s[16], argument 2 (out)[7]) with the PTX name beside.
# Usage: cli_race.sh PTXCHECK SOURCE_DIR
set -u
exe=$1
src=$2
k=$src/tests/unit/race/kernels
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
expect_rc() {  # expected-rc description command...
  want=$1; what=$2; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL: $what: exit $got, expected $want"; sed 's/^/  | /' "$tmp/out" "$tmp/err" | head -20; fail=1
  else
    echo "ok: $what (exit $got)"
  fi
}

expect_rc 0 "race-free kernel" "$exe" race "$k/shared_barrier.cu" --blockDim=128 --gridDim=2
expect_rc 1 "racy kernel" "$exe" race "$k/shared_no_barrier.cu" --blockDim=128 --gridDim=2
expect_rc 1 "barrier divergence" "$exe" race "$k/divergent_barrier.cu" --blockDim=64 --gridDim=1
grep -q "barrier divergence at .*divergent_barrier.cu:6:.*diverging condition: @%p[0-9]* bra at .*divergent_barrier.cu:6:" "$tmp/out" || { echo "FAIL: divergence report names no barrier line and condition"; fail=1; }
grep -q "kernel k(int\*) (PTX _Z1kPi): barrier-divergence \[" "$tmp/out" || { echo "FAIL: divergence-only kernel not headed barrier-divergence"; fail=1; }

# --block-level (Faial's default): only threads of one CTA are paired, so a race between CTAs is not reported.
expect_rc 1 "race between CTAs" "$exe" race "$k/single_writer_per_block.cu" --blockDim=64 --gridDim=4
expect_rc 0 "race between CTAs, --block-level" "$exe" race "$k/single_writer_per_block.cu" --blockDim=64 --gridDim=4 --block-level
expect_rc 1 "race within a CTA, --block-level" "$exe" race "$k/shared_no_barrier.cu" --blockDim=128 --gridDim=2 --block-level

# Text report: both accesses with their CUDA file:line:col, the mode, one report per race.
expect_rc 1 "text report" "$exe" race "$k/ww_same_index.cu" --blockDim=64 --gridDim=2
grep -q "nvcc default optimisation" "$tmp/out" || { echo "FAIL: mode not named"; fail=1; }
[ "$(grep -c 'ww_same_index.cu:3:' "$tmp/out")" = 2 ] || { echo "FAIL: expected both accesses at ww_same_index.cu:3"; cat "$tmp/out"; fail=1; }
[ "$(grep -c '^  race[: ]' "$tmp/out")" = 1 ] || { echo "FAIL: expected exactly one race report"; fail=1; }

# JSON shape.
expect_rc 1 "--json" "$exe" race "$k/ww_same_index.cu" --blockDim=64 --gridDim=2 --json
python3 - "$tmp/out" <<'PY' || fail=1
import json, sys
j = json.load(open(sys.argv[1]))
assert j["exit_code"] == 1, j
k = j["kernels"][0]
assert k["verdict"] == "race", k
r = k["races"][0]
for side in ("first", "second"):
    a = r[side]
    assert a["kind"] == "write" and a["strength"] == "weak" and a["location"]["line"] == 3, a
for t in ("thread1", "thread2"):
    assert len(r[t]["ctaid"]) == 3 and len(r[t]["tid"]) == 3, r
assert (r["thread1"]["ctaid"], r["thread1"]["tid"]) != (r["thread2"]["ctaid"], r["thread2"]["tid"])
print("ok: JSON shape")
PY

# SARIF 2.1.0 shape.
expect_rc 1 "--sarif" "$exe" race "$k/ww_same_index.cu" --blockDim=64 --gridDim=2 --sarif
python3 - "$tmp/out" <<'PY' || fail=1
import json, sys
s = json.load(open(sys.argv[1]))
assert s["version"] == "2.1.0"
run = s["runs"][0]
assert run["tool"]["driver"]["name"] == "ptxcheck race"
res = [r for r in run["results"] if r["ruleId"] == "ptxcheck.race.data-race"]
assert len(res) == 1, res
loc = res[0]["locations"][0]["physicalLocation"]
assert loc["artifactLocation"]["uri"].endswith("ww_same_index.cu") and loc["region"]["startLine"] == 3, loc
print("ok: SARIF shape")
PY

# Bad input: a located error (file:line:col: error:), exit 2; a PTX file without a kernel, exit 2; bad shape, exit 2.
printf '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n  add.u32 %%r1 %%r2;\n}\n' > "$tmp/bad.ptx"
expect_rc 2 "malformed PTX" "$exe" race "$tmp/bad.ptx"
grep -Eq "bad.ptx:[0-9]+:[0-9]+: error:" "$tmp/out" "$tmp/err" || { echo "FAIL: no file:line:col: error: on malformed PTX"; cat "$tmp/err"; fail=1; }
printf '.version 8.0\n.target sm_90\n.address_size 64\n.func f()\n{\n  ret;\n}\n' > "$tmp/nokernel.ptx"
expect_rc 2 "no kernel" "$exe" race "$tmp/nokernel.ptx"
grep -q "nokernel.ptx: error: no kernel" "$tmp/err" || { echo "FAIL: 'FILE: error: no kernel' not said"; cat "$tmp/err"; fail=1; }
# --kernel takes the C++ name (with or without parameter types) or the PTX name; an unknown name lists the kernels.
printf '__global__ void a(int* p) { p[0] = threadIdx.x; }\n__global__ void b(int* p) { p[threadIdx.x] = 1; }\n' > "$tmp/two.cu"
expect_rc 0 "--kernel by C++ name" "$exe" race "$tmp/two.cu" --kernel b --blockDim=64 --gridDim=1
grep -q "kernel b(int\*) (PTX _Z1bPi): race-free" "$tmp/out" && ! grep -q "_Z1aPi" "$tmp/out" || { echo "FAIL: --kernel b checked other kernels"; fail=1; }
expect_rc 1 "--kernel by C++ signature" "$exe" race "$tmp/two.cu" --kernel 'a(int*)' --blockDim=64 --gridDim=1
expect_rc 1 "--kernel by PTX name" "$exe" race "$tmp/two.cu" --kernel _Z1aPi --blockDim=64 --gridDim=1
expect_rc 2 "--kernel naming nothing" "$exe" race "$tmp/two.cu" --kernel c --blockDim=64 --gridDim=1
grep -q "error: no kernel named c; the module's kernels: a(int\*) (PTX _Z1aPi), b(int\*) (PTX _Z1bPi)" "$tmp/err" || { echo "FAIL: unknown --kernel does not list the kernels"; cat "$tmp/err"; fail=1; }
# A template kernel is named without its mangled `void` return type: k<int>, k<int>(int*); k alone means both instances.
printf 'template <typename T> __global__ void k(T* p) { p[0] = (T)threadIdx.x; }\ntemplate __global__ void k<int>(int*);\ntemplate __global__ void k<char>(char*);\n' > "$tmp/tpl.cu"
expect_rc 1 "--kernel by template instance" "$exe" race "$tmp/tpl.cu" --kernel 'k<int>' --blockDim=64 --gridDim=1
grep -q "kernel k<int>(int\*) (PTX _Z1kIiEvPT_): race" "$tmp/out" && ! grep -q "k<char>" "$tmp/out" || { echo "FAIL: --kernel k<int>"; cat "$tmp/out"; fail=1; }
# A kernel parameter is named as the C++ argument it is, too.
grep -q "of argument 1 (p)\[0\] (_Z1kIiEvPT__param_0+0, int\*) \[4 bytes\]" "$tmp/out" || { echo "FAIL: parameter not named as argument 1 (p)"; cat "$tmp/out"; fail=1; }
expect_rc 1 "--kernel by template instance signature" "$exe" race "$tmp/tpl.cu" --kernel 'k<char>(char*)' --blockDim=64 --gridDim=1
# A confirmed race shows the replayed execution's threads and location: with zero buffers every warp's count is 0,
# so every lane writes out[0] (the solver's model may have named other threads, at another offset).
expect_rc 1 "ballot compaction writing unkept lanes" "$exe" race "$k/ballot_compaction_unkept_lanes.cu" --blockDim=128 --gridDim=4
[ "$(grep -c "thread [12] .*: write (weak, global) of argument 2 (out)\[0\] (_Z1kPKiPiS1__param_1+0, int\*) \[4 bytes\]" "$tmp/out")" = 2 ] &&
  grep -q "buffers zero) and this execution races between these threads" "$tmp/out" || { echo "FAIL: confirmed race not shown as executed"; cat "$tmp/out"; fail=1; }
# Objects are named as the CUDA source names them, the PTX name beside (issue 38): a kernel's __shared__ array by
# kernel::name and element (byte 64 of ints is [16]), an argument by its position and source name; the JSON keeps
# "object" (PTX) and adds "cuda_name".
expect_rc 1 "CUDA names: block_sum" "$exe" race "$src/examples/race/block_sum_missing_barrier.cu" --blockDim=256 --gridDim=4
grep -Eq "of block_sum::s\[[0-9]+\] \(_ZZ9block_sumPKiPiE1s\+[0-9]+\) \[4 bytes\]" "$tmp/out" || { echo "FAIL: block_sum::s not named with its PTX name"; cat "$tmp/out"; fail=1; }
grep -q "kernel block_sum(int const\*, int\*) (PTX _Z9block_sumPKiPi): race" "$tmp/out" || { echo "FAIL: kernel not demangled"; cat "$tmp/out"; fail=1; }
printf '__global__ void shift(const float* in, float* out) {\n  out[threadIdx.x / 2 + 7] = in[threadIdx.x];\n}\n' > "$tmp/shift.cu"
expect_rc 1 "CUDA names: argument" "$exe" race "$tmp/shift.cu" --blockDim=64 --gridDim=1
grep -Eq "write \(weak, global\) of argument 2 \(out\)\[[0-9]+\] \(_Z5shiftPKfPf_param_1\+[0-9]+, float\*\)" "$tmp/out" || { echo "FAIL: argument 2 (out) not named"; cat "$tmp/out"; fail=1; }
expect_rc 1 "CUDA names: --json" "$exe" race "$src/examples/race/block_sum_missing_barrier.cu" --blockDim=256 --gridDim=4 --json
python3 - "$tmp/out" <<'PY' || fail=1
import json, re, sys
a = json.load(open(sys.argv[1]))["kernels"][0]["races"][0]["first"]
assert a["object"] == "_ZZ9block_sumPKiPiE1s", a
assert a["cuda_name"] == "block_sum::s[%d]" % (a["offset"] // 4), a
print("ok: JSON cuda_name")
PY
cp "$tmp/shift.cu" "$tmp/shift_copy.cu" && nvcc -ptx -lineinfo -arch=sm_90 -o "$tmp/shift.ptx" "$tmp/shift_copy.cu" 2>/dev/null && rm "$tmp/shift_copy.cu" && {
  # The .loc map names a source that is gone: the argument keeps its position only.
  expect_rc 1 "CUDA names: argument without its source" "$exe" race "$tmp/shift.ptx" --blockDim=64 --gridDim=1
  grep -Eq "of argument 2\[[0-9]+\] \(_Z5shiftPKfPf_param_1\+[0-9]+, float\*\)" "$tmp/out" || { echo "FAIL: argument 2 without source name"; cat "$tmp/out"; fail=1; }
}
# A PTX input has no .loc: an access is located by the PTX file's own line.
printf '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n  .reg .u64 %%a;\n  .reg .u32 %%t;\n  ld.param.u64 %%a, [p];\n  mov.u32 %%t, %%tid.x;\n  st.global.u32 [%%a], %%t;\n  ret;\n}\n' > "$tmp/ww.ptx"
expect_rc 1 "racy PTX" "$exe" race "$tmp/ww.ptx" --blockDim=32 --gridDim=1
grep -q "by st.global.u32 at $tmp/ww.ptx:10\$" "$tmp/out" || { echo "FAIL: PTX access not located at ww.ptx:10"; cat "$tmp/out"; fail=1; }
# A shape no GPU launches (above the %ntid / %nctaid limits of ISA 10.2 / 10.7, more than 1024 threads per CTA, or
# against the kernel's .reqntid (11.4.3) or __launch_bounds__ (.maxntid, 11.4.2)) is checked as given, as GPUVerify
# does, with a note; a symbolic shape respects them.
expect_rc 1 "--blockDim=2048" "$exe" race "$k/neighbour_read.cu" --blockDim=2048 --gridDim=1
grep -q "note: no GPU launches this shape (block 2048,1,1: %ntid.x is 1 to 1024 (ISA 10.2)): checked as given" "$tmp/out" || { echo "FAIL: --blockDim=2048 not noted"; cat "$tmp/out"; fail=1; }
expect_rc 1 "block above __launch_bounds__, checked as given" "$exe" race "$k/launch_bounds_wraparound.cu" --blockDim=512 --gridDim=1
grep -q "allows at most 256 threads per CTA (.maxntid 256,1,1" "$tmp/out" || { echo "FAIL: .maxntid violation not noted"; cat "$tmp/out"; fail=1; }
printf '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p) .reqntid 64\n{\n  .reg .u64 %%a, %%o;\n  .reg .u32 %%t, %%m;\n  ld.param.u64 %%a, [p];\n  mov.u32 %%t, %%tid.x;\n  and.b32 %%m, %%t, 63;\n  mul.wide.u32 %%o, %%m, 4;\n  add.u64 %%a, %%a, %%o;\n  st.global.u32 [%%a], %%t;\n  ret;\n}\n' > "$tmp/req.ptx"
expect_rc 1 "a block other than .reqntid 64, checked as given" "$exe" race "$tmp/req.ptx" --blockDim=128 --gridDim=1
grep -q "requires .reqntid 64,1,1" "$tmp/out" || { echo "FAIL: .reqntid violation not noted"; cat "$tmp/out"; fail=1; }
expect_rc 0 "symbolic block under .reqntid 64 (tid % 64 is one slot per thread)" "$exe" race "$tmp/req.ptx" --gridDim=1
expect_rc 2 "bad --blockDim" "$exe" race "$k/shared_barrier.cu" --blockDim=0
expect_rc 2 "missing file" "$exe" race "$tmp/missing.cu"

# Preconditions (--assume, as GPUVerify's __requires): the double-buffered scan races for n below the block size and
# is race free when n == blockDim.x; the witness names the argument values; a malformed or inapplicable assumption
# is bad input, and a contradictory one is no verdict.
s=$k/scan_double_buffer.cu
expect_rc 1 "scan, any n" "$exe" race "$s" --blockDim=64 --gridDim=1
grep -q "witness: block (64,1,1), grid (1,1,1), arg3 = " "$tmp/out" || { echo "FAIL: no witness line with the argument"; cat "$tmp/out"; fail=1; }
expect_rc 0 "scan, --assume n == blockDim.x" "$exe" race "$s" --blockDim=64 --gridDim=1 --assume 'arg3 == blockDim.x'
grep -q "note: assumed (--assume): arg3 == blockDim.x" "$tmp/out" || { echo "FAIL: the assumption is not noted"; cat "$tmp/out"; fail=1; }
expect_rc 1 "scan, --assume n == 32 with 64 threads" "$exe" race "$s" --blockDim=64 --gridDim=1 --assume 'arg3 == 32'
grep -q "witness: block (64,1,1), grid (1,1,1), arg3 = 32\$" "$tmp/out" || { echo "FAIL: the witness breaks the assumption"; cat "$tmp/out"; fail=1; }
expect_rc 2 "--assume, malformed" "$exe" race "$s" --assume 'arg3 == '
grep -q "error: --assume 'arg3 == ': column 9 (the end): expected" "$tmp/err" || { echo "FAIL: malformed assumption not located"; cat "$tmp/err"; fail=1; }
expect_rc 2 "--assume, no such argument" "$exe" race "$s" --assume 'arg4 > 0'
grep -q "arg4: the kernel k(float\*, float const\*, int) has 3 argument(s), arg1 to arg3" "$tmp/err" || { echo "FAIL: argument range not named"; cat "$tmp/err"; fail=1; }
expect_rc 2 "--assume, a pointer argument" "$exe" race "$s" --assume 'arg1 != 0'
grep -q "arg1 is float\*, not an integer" "$tmp/err" || { echo "FAIL: pointer argument not refused"; cat "$tmp/err"; fail=1; }
expect_rc 2 "--assume, no such variable" "$exe" race "$s" --assume 'retired == 0'
grep -q "retired: no argument or .global variable of the module has this name" "$tmp/err" || { echo "FAIL: unknown variable not refused"; cat "$tmp/err"; fail=1; }
# A module variable's content at launch: the last-block ticket counts from it (tickets.hpp).
expect_rc 0 "ticket, --assume retired == 0" "$exe" race "$k/atomic_ticket_last_block.cu" --blockDim=64 --gridDim=4 --assume 'retired == 0'
grep -q "note: the last-block ticket at .*atomic_ticket_last_block.cu:[0-9]*:[0-9]* (ptx line [0-9]*): accesses before" "$tmp/out" || { echo "FAIL: the ticket is not noted"; cat "$tmp/out"; fail=1; }
expect_rc 3 "--assume, contradictory" "$exe" race "$s" --blockDim=64 --gridDim=1 --assume 'arg3 > 4 && arg3 < 2'
grep -q "admit no launch" "$tmp/out" || { echo "FAIL: contradiction not reported"; cat "$tmp/out"; fail=1; }
expect_rc 2 "--assume with --launch" "$exe" race "$src/tests/unit/race/dynamic/mp_fences.cu" --launch "$src/tests/unit/race/dynamic/mp_fences.json" --assume 'arg1 == 1'

# Unknown: a per-query solver budget of 1 ms cannot decide a kernel with loops and barriers (exit 3), or the
# kernel is decided anyway; never race-free by default of an answer.
"$exe" race "$k/tree_reduction.cu" --blockDim=256 --gridDim=4 --timeout-ms 1 >"$tmp/out" 2>&1
rc=$?
if [ "$rc" = 3 ]; then grep -q "unknown:" "$tmp/out" || { echo "FAIL: exit 3 without a reason"; fail=1; }
elif [ "$rc" != 0 ]; then echo "FAIL: --timeout-ms 1 gave exit $rc"; fail=1; fi
echo "ok: 1 ms budget (exit $rc)"

# Reproducible budgets: under --rlimit the solver stops after a count of Z3 resource units, not after a time, so two
# runs with time limits 1000 times apart give the same answer, word for word (here unknown: the kernel's queries
# need more than 10000 units).
"$exe" race "$k/tree_reduction.cu" --blockDim=256 --gridDim=4 --rlimit 10000 --timeout-ms 60000 >"$tmp/rlimit1" 2>&1
rc=$?
"$exe" race "$k/tree_reduction.cu" --blockDim=256 --gridDim=4 --rlimit 10000 --timeout-ms 0 >"$tmp/rlimit2" 2>&1
[ "$rc" = 3 ] || { echo "FAIL: --rlimit 10000 gave exit $rc, expected 3"; fail=1; }
grep -q "budget of 10000 Z3 resource units per query reached" "$tmp/rlimit1" || { echo "FAIL: the resource budget is not named"; cat "$tmp/rlimit1"; fail=1; }
cmp -s "$tmp/rlimit1" "$tmp/rlimit2" || { echo "FAIL: two runs under one --rlimit differ"; diff "$tmp/rlimit1" "$tmp/rlimit2"; fail=1; }
echo "ok: --rlimit answers are reproducible"

# Memory: Z3 under a 32 MB cap (the least accepted) either decides the kernel or says unknown with the reason
# (exit 3); never a crash. Below 32 MB is a usage error.
"$exe" race "$k/tree_reduction.cu" --blockDim=256 --gridDim=4 --memory-mb 32 >"$tmp/out" 2>&1
rc=$?
if [ "$rc" = 3 ]; then grep -qE "out of memory|memory budget of 32 MB reached" "$tmp/out" || { echo "FAIL: exit 3 without the memory reason"; fail=1; }
elif [ "$rc" != 0 ]; then echo "FAIL: --memory-mb 32 gave exit $rc"; fail=1; fi
echo "ok: 32 MB cap (exit $rc)"
expect_rc 2 "--memory-mb below 32" "$exe" race "$k/tree_reduction.cu" --memory-mb 8

# The dynamic engine (--launch): one execution's races, a note that race-free holds for that execution only,
# and bad launch files as bad input.
d=$src/tests/unit/race/dynamic
expect_rc 1 "--launch, racy execution" "$exe" race "$d/mp_relaxed.cu" --launch "$d/mp_relaxed.json"
grep -q "race (confirmed on the interpreter):" "$tmp/out" || { echo "FAIL: dynamic race not marked confirmed"; fail=1; }
grep -q "mp_relaxed.cu:6:" "$tmp/out" && grep -q "mp_relaxed.cu:10:" "$tmp/out" || { echo "FAIL: dynamic race without both source lines"; fail=1; }
expect_rc 0 "--launch, race-free execution" "$exe" race "$d/mp_release_acquire.cu" --launch "$d/mp_release_acquire.json" --seed 7
grep -q "no race in this execution" "$tmp/out" || { echo "FAIL: race-free dynamic verdict does not say it covers one execution"; fail=1; }
expect_rc 0 "--launch --json" "$exe" race "$d/mp_fences.cu" --launch "$d/mp_fences.json" --json
grep -q '"verdict": "race-free"' "$tmp/out" || { echo "FAIL: dynamic --json verdict"; fail=1; }
echo '{"grid": [2,1,1], "block": [32' > "$tmp/bad.json"
expect_rc 2 "--launch with malformed JSON" "$exe" race "$d/mp_fences.cu" --launch "$tmp/bad.json"
grep -q "bad.json: error: invalid JSON" "$tmp/err" || { echo "FAIL: malformed launch file not named"; fail=1; }
expect_rc 2 "--launch with a missing file" "$exe" race "$d/mp_fences.cu" --launch "$tmp/none.json"
grep -q "^$tmp/none.json: error: cannot read the file" "$tmp/err" || { echo "FAIL: missing launch file not named once"; cat "$tmp/err"; fail=1; }
# Without --launch, a kernel with instructions only the dynamic engine models (a bulk copy): unknown, and the
# note points to --launch; with it, the same kernel's verdict is definite.
expect_rc 3 "bulk copy without --launch" "$exe" race "$d/bulk_load_wait.cu"
grep -q "unsupported instructions: cp.async.bulk" "$tmp/out" || { echo "FAIL: the unsupported bulk copy not named"; fail=1; }
grep -q "the dynamic engine runs the unsupported instructions: .ptxcheck race FILE --launch" "$tmp/out" || { echo "FAIL: no --launch hint"; fail=1; }
expect_rc 0 "bulk copy with --launch" "$exe" race "$d/bulk_load_wait.cu" --launch "$d/bulk_load_wait.json"

# Without the models (an empty data directory): the flag's ordering cannot be asked of ptx-race.cat, so the
# verdict may only get worse, and a note says why (docs/race/message-passing.md).
mkdir "$tmp/nodata"
expect_rc 3 "flag without the models" env PTXCHECK_DATA_DIR="$tmp/nodata" "$exe" race "$k/flag_message_passing_assumed.cu" --blockDim=32 --gridDim=2 --assume='arg2[*] == 0'
grep -q "the memory model did not answer whether it orders some accesses (proofs/models/ptx-race.cat could not be loaded" "$tmp/out" || { echo "FAIL: no note on the unanswered flag"; fail=1; }
expect_rc 0 "flag with the models" "$exe" race "$k/flag_message_passing_assumed.cu" --blockDim=32 --gridDim=2 --assume='arg2[*] == 0'
# A spin lock likewise (docs/race/locks.md): its critical sections are not taken as ordered without the model.
expect_rc 3 "lock without the models" env PTXCHECK_DATA_DIR="$tmp/nodata" "$exe" race "$k/lock_critical_section.cu" --blockDim=64 --gridDim=8
grep -q "spin lock taken at .*: the memory model did not answer whether it orders some accesses (proofs/models/ptx-race.cat could not be loaded" "$tmp/out" || { echo "FAIL: no note on the unanswered lock"; fail=1; }
# A CTA barrier's ordering is ptx.cat's answer too (docs/race/model-rules.md): without it the race found between the
# barrier's intervals is no evidence, even confirmed by a replay that uses the same answers, so the verdict is unknown
# with the reason; with the models the kernel is race-free.
expect_rc 3 "barrier without the models" env PTXCHECK_DATA_DIR="$tmp/nodata" "$exe" race "$k/shared_barrier.cu" --blockDim=128 --gridDim=2
grep -q "unknown: the memory model could not be asked which operations release and acquire (memmodel/models/ptx.cat could not be loaded" "$tmp/out" || { echo "FAIL: no reason for the unknown barrier verdict"; sed 's/^/  | /' "$tmp/out" | head; fail=1; }
printf '{"grid": [2,1,1], "block": [128,1,1], "buffers": {"out": {"zero_bytes": 1024}}, "params": [{"buffer": "out"}]}\n' >"$tmp/shared_barrier.json"
expect_rc 3 "barrier without the models, dynamic engine" env PTXCHECK_DATA_DIR="$tmp/nodata" "$exe" race "$k/shared_barrier.cu" --launch "$tmp/shared_barrier.json"
expect_rc 0 "barrier with the models, dynamic engine" "$exe" race "$k/shared_barrier.cu" --launch "$tmp/shared_barrier.json"

exit $fail
