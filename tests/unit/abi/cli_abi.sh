#!/usr/bin/env bash
# CLI behaviour of `ptxcheck abi` (issue 7): the text line format, JSON, exit codes 0/1/2/3 and
# several configurations. Usage: cli_abi.sh PTXCHECK SOURCE_DIR
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

echo "$passed passed, $failed failed"
test $failed -eq 0
