#!/usr/bin/env bash
# Runs every CUDA program of this folder under `ptxcheck exec` and checks what its header comments expect:
#   // expect-exit: N            the program's exit code
#   // expect-stdout: TEXT       a line of its standard output contains TEXT
#   // expect-stderr: TEXT       a line of its standard error contains TEXT
#   // expect-stderr-not: TEXT   no line of its standard error contains TEXT
#   // nvcc: FLAGS               more nvcc flags
#   // args: ARGS                the program's arguments (after --)
#   // exec-flags: FLAGS         ptxcheck exec's own options (--racecheck, --seed N; $DIR is this folder)
# Then checks that a program linked with the static CUDA runtime (nvcc's default) is refused with the fix, and
# that a bad --devices count is refused, and that --report writes JSON and SARIF.
# Prints "N passed, N failed"; exits 1 on any failure.
set -uo pipefail
ptxcheck="$1"; dir="$2"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
passed=0; failed=0
fail() { echo "FAIL $1: $2"; failed=$((failed + 1)); }
for cu in "$dir"/*.cu; do
  name=$(basename "$cu" .cu)
  flags=$(sed -n 's|^// nvcc: ||p' "$cu")
  args=$(sed -n 's|^// args: ||p' "$cu")
  options=$(sed -n 's|^// exec-flags: ||p' "$cu")
  options=${options//\$DIR/$dir}
  # shellcheck disable=SC2086
  "$ptxcheck" exec $options "$cu" $flags -- $args >"$work/$name.out" 2>"$work/$name.err"
  rc=$?
  ok=1
  want=$(sed -n 's|^// expect-exit: ||p' "$cu")
  [ "$rc" = "${want:-0}" ] || { fail "$name" "exit $rc, expected ${want:-0}"; ok=0; }
  while IFS= read -r text; do
    grep -qF -- "$text" "$work/$name.out" || { fail "$name" "stdout lacks '$text'"; ok=0; }
  done < <(sed -n 's|^// expect-stdout: ||p' "$cu")
  while IFS= read -r text; do
    grep -qF -- "$text" "$work/$name.err" || { fail "$name" "stderr lacks '$text'"; ok=0; }
  done < <(sed -n 's|^// expect-stderr: ||p' "$cu")
  while IFS= read -r text; do
    ! grep -qF -- "$text" "$work/$name.err" || { fail "$name" "stderr has '$text'"; ok=0; }
  done < <(sed -n 's|^// expect-stderr-not: ||p' "$cu")
  if [ $ok = 1 ]; then passed=$((passed + 1)); echo "ok   $name"; else sed 's/^/  | /' "$work/$name.out" "$work/$name.err" | head -40; fi
done
# nvcc's default links the runtime statically: ptxcheck cannot stand in for it and says how to rebuild.
nvcc -o "$work/static" "$dir/unknown_call.cu" 2>"$work/static.nvcc"
"$ptxcheck" exec "$work/static" >"$work/static.out" 2>"$work/static.err"
rc=$?
if [ $rc = 2 ] && grep -qF -- "-cudart shared" "$work/static.err"; then passed=$((passed + 1)); echo "ok   static-runtime refusal"
else fail "static-runtime refusal" "exit $rc: $(cat "$work/static.err")"; fi
# --devices takes a count from 1 to 64: anything else is a usage error (exit 2), said before anything is built.
"$ptxcheck" exec --devices 0 "$dir/basics.cu" >"$work/devices.out" 2>&1
rc=$?
if [ $rc = 2 ] && grep -qF -- "--devices needs a count from 1 to 64" "$work/devices.out"; then passed=$((passed + 1)); echo "ok   --devices 0 refused"
else fail "--devices 0 refused" "exit $rc: $(cat "$work/devices.out")"; fi
# A program built elsewhere with -cudart shared runs as it is, with its arguments and exit code.
nvcc -cudart shared -arch=sm_90 -DSCALE=2 -o "$work/prebuilt" "$dir/arguments.cu" 2>"$work/prebuilt.nvcc"
"$ptxcheck" exec "$work/prebuilt" x y >"$work/prebuilt.out" 2>&1
rc=$?
if [ $rc = 5 ] && grep -qF "argv: x y" "$work/prebuilt.out" && grep -qF "scaled: 2 4 6" "$work/prebuilt.out"; then passed=$((passed + 1)); echo "ok   prebuilt binary"
else fail "prebuilt binary" "exit $rc: $(cat "$work/prebuilt.out")"; fi
# --report: the findings as JSON (a kernel fault at its CUDA line) and as SARIF (a race at its CUDA lines).
"$ptxcheck" exec --report "$work/fault.json" "$dir/kernel_fault.cu" >/dev/null 2>&1
if grep -q '"rule": "ptxcheck.exec.fault"' "$work/fault.json" && grep -q '"line": 12' "$work/fault.json"; then passed=$((passed + 1)); echo "ok   --report JSON"
else fail "--report JSON" "$(cat "$work/fault.json" 2>&1 | head -20)"; fi
"$ptxcheck" exec --racecheck --report "$work/race.sarif" "$dir/racecheck_missing_sync.cu" >/dev/null 2>&1
if grep -q '"ruleId": "ptxcheck.race.data-race"' "$work/race.sarif" && grep -q '"startLine": 17' "$work/race.sarif" && grep -q '"version": "2.1.0"' "$work/race.sarif"; then
  passed=$((passed + 1)); echo "ok   --report SARIF"
else fail "--report SARIF" "$(head -30 "$work/race.sarif" 2>&1)"; fi
echo "$passed passed, $failed failed"
[ $failed = 0 ]
