#!/usr/bin/env bash
# Runs on a GPU machine (the `device` tool) what tests/hardware/build.sh built into BUILD_DIR, writing the outputs
# that tests/hardware/<gpu>/ keeps as reference data: device.txt (nvidia-smi, driver), probes.txt, cute.txt (each CuTe
# tutorial's output, and the GEMM harness's HARNESS_INEXACT run), exec.txt (each tests/exec program's exit code,
# stdout and stderr), litmus.txt (the litmus runner's histograms), sanitizer.txt (compute-sanitizer racecheck on
# the tutorials). Usage: run.sh BUILD_DIR OUT_DIR [LITMUS_ITERATIONS]
set -uo pipefail
build=$1; out=$2; iterations=${3:-500}
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64
{ date -u; nvidia-smi; nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.max.sm --format=csv; nvcc --version | tail -2; } >"$out/device.txt" 2>&1
section() { echo "=== $1"; }
{
  for bin in "$build"/cute/*; do
    [ -x "$bin" ] && [ ! -d "$bin" ] || continue
    name=$(basename "$bin")
    section "$name"; timeout 60 "$bin"; echo "exit $?"
    if grep -q "HARNESS_INEXACT" "$bin"; then section "$name inexact"; HARNESS_INEXACT=1 timeout 60 "$bin"; echo "exit $?"; fi
  done
} >"$out/cute.txt" 2>&1
{
  for bin in "$build"/exec/*; do
    [ -x "$bin" ] && [ ! -d "$bin" ] || continue
    name=$(basename "$bin")
    args=$(cat "$build/exec/$name.args" 2>/dev/null)
    section "$name"
    # shellcheck disable=SC2086
    timeout 60 "$bin" $args >"$out/stdout" 2>"$out/stderr"; echo "exit $?"
    sed 's/^/stdout: /' "$out/stdout"; sed 's/^/stderr: /' "$out/stderr"
  done
  rm -f "$out/stdout" "$out/stderr"
} >"$out/exec.txt" 2>&1
{
  for bin in "$build"/probes/*; do
    [ -x "$bin" ] && [ ! -d "$bin" ] || continue
    section "$(basename "$bin")"; timeout 60 "$bin"; echo "exit $?"
  done
} >"$out/probes.txt" 2>&1
echo "cute, exec and probes: ${SECONDS}s" >>"$out/device.txt"
[ -x "$build/litmus" ] || { echo "no litmus runner built" >"$out/litmus.txt"; }
[ -x "$build/litmus" ] && { timeout 300 "$build/litmus" "$iterations" >"$out/litmus.txt" 2>&1; echo "litmus exit $?" >>"$out/litmus.txt"; }
echo "litmus done: ${SECONDS}s" >>"$out/device.txt"
# compute-sanitizer last, and only while the lease has time (a few minutes of device time per session).
{
  for bin in "$build"/cute/*; do
    [ -x "$bin" ] && [ ! -d "$bin" ] || continue
    [ "$SECONDS" -lt "${SANITIZER_UNTIL:-360}" ] || { echo "=== stopped: time"; break; }
    section "$(basename "$bin") racecheck"
    timeout 40 compute-sanitizer --tool racecheck --racecheck-report all "$bin" 2>&1 | tail -15; echo "exit $?"
  done
} >"$out/sanitizer.txt" 2>&1
echo "all done: ${SECONDS}s" >>"$out/device.txt"
