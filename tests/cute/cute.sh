#!/usr/bin/env bash
# The CuTe tutorials (NVIDIA CUTLASS, ../shared/corpus/cutlass/examples/cute/tutorial) built for their architecture
# and run under `ptxcheck exec`: the GEMM tutorials through gemm_harness.cu (their kernels and launch code, checked
# exactly against a host GEMM at 256x128x256), the copy tutorials and the Blackwell ones through their own main()
# (with the arguments tutorials.txt gives: the Blackwell GEMMs at K = 128), which checks its result. Built with
# PTX_ONLY (tutorial_build.sh): the PTX ptxcheck runs, no SASS. Every run is under --racecheck (the dynamic race
# engine, ISA 8.7.1), whose verdict must be the one tutorials.txt gives: `free`, `race` (wgmma_sm90 and 01_mma_sm100
# read operands written through the generic proxy without fence.proxy.async, 9.7.15.5.2), or `unknown` with a reason
# printed (03-05 rely on async-proxy accesses of two CTAs being ordered, which 8.9.5 does not say);
# docs/race/async-proxy.md argues each. The entries of `how` program:NAME are not tutorials but the CUTLASS 3 GEMMs
# of tests/cute/programs, checked the same way.
# Each is passed (ran, matched, expected race verdict), failed, or unsupported: nvcc cannot build it, or ptxcheck
# says which instruction or runtime call it does not implement.
# Prints one line per tutorial and "N passed, N failed, N unsupported"; exits 1 when any failed, or when fewer
# pass than the floor (tests/cute/floor.txt).
set -uo pipefail
ptxcheck="$1"; here="$2"; corpus="$3"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
export CORPUS="$corpus" CUTE_DIR="$here" PTX_ONLY=1
# shellcheck source=tests/cute/tutorial_build.sh
. "$here/tutorial_build.sh"
grep -v '^#' "$here/tutorials.txt" >"$work/list"

# against_hardware NAME HOW OUT: the GEMM harness's HARNESS_INEXACT run (inputs that round, so accumulation order
# shows) under the interpreter, against the record of the same run on an H200 (tests/hardware/h200/cute.txt,
# docs/hardware.md). f32 tutorials (FMA chains in PTX order) must be bit-identical; f16 accumulation is open in the
# spec (9.7.14.5, 9.7.15.5.2), so there the harness's own check (within the bound any order meets) must hold.
against_hardware() {
  local name=$1 how=$2 out=$3 record="$here/../hardware/h200/cute.txt"
  local want; want=$(awk -v s="=== $name inexact" '$0 == s {on = 1; next} /^=== / {on = 0} on && /inexact/' "$record")
  [ -z "$want" ] && { echo "no hardware record"; return; }
  HARNESS_INEXACT=1 timeout 600 "$ptxcheck" exec "$out.bin" >"$out.inexact" 2>&1
  local rc=$? got; got=$(grep "inexact" "$out.inexact")
  if [ "$got" = "$want" ]; then echo "bit-identical to an H200"
  elif [ $rc != 0 ] || [ -z "$got" ]; then echo "differs: inexact run exit $rc: $(tail -c 200 "$out.inexact" | tr '\n' ' ')"
  elif [[ $how == gemm:float ]]; then echo "differs from an H200 (f32): $(echo "$got" | head -1) vs $(echo "$want" | head -1)"
  else echo "within the accumulation bound, not bit-identical to an H200 ($(echo "$got" | grep -o "max error / bound [0-9.e-]*" | sort | tail -1))"
  fi
}
export -f against_hardware

# one NAME SOURCE ARCH HOW RACE [ARG...]: builds and runs one tutorial (its main() given ARGs); writes
# "passed|failed|unsupported NAME: why" to NAME.result.
one() {
  local name=$1 source=$2 arch=$3 how=$4 want_race=$5 out="$work/$1" build
  shift 5; local args=("$@")
  tutorial_build_command "$name" "$source" "$arch" "$how" "$out.bin" -cudart shared
  local start=$SECONDS
  if ! "${build[@]}" >"$out.nvcc" 2>&1; then
    local why; why=$(grep -m1 -iE "error|not defined|unsupported" "$out.nvcc" | cut -c1-160)
    if grep -qiE "Unsupported gpu architecture|not a supported|arch" "$out.nvcc"; then echo "unsupported $name: nvcc: $why" >"$out.result"
    else echo "failed $name: nvcc: $why" >"$out.result"; fi
    return
  fi
  local props=()
  [[ $arch == sm_100a ]] && props=(--device-props "$here/sm100.props.json")
  timeout 600 "$ptxcheck" exec --racecheck "${props[@]}" "$out.bin" "${args[@]}" >"$out.out" 2>"$out.err"
  local rc=$? secs=$((SECONDS - start))
  # ptxcheck's own words: the unsupported instruction or runtime call if it names one, else its first message.
  local said; said=$(grep -m1 -oE "unsupported instruction '[^']*'( at line [0-9]+)?|the CUDA runtime call .* is not implemented|driver function [^ ]* \(asked" "$out.err")
  [ -z "$said" ] && said=$(grep -m1 "^ptxcheck exec: " "$out.err" | cut -c1-220)
  # The racecheck summary: races or divergences found, else launches not wholly checked (unknown), else free.
  local races got=free; races=$(grep -m1 -oE "racecheck: [0-9]+ launches, .*" "$out.err")
  [[ $races != *" 0 distinct races, 0 barrier divergences"* ]] && got=race
  [[ $got == free && $races == *"not (wholly) checked"* ]] && got=unknown
  [ -z "$races" ] && got=none
  [ "$got" = unknown ] && ! grep -qE "racecheck: kernel .*(: unknown: | not checked: )" "$out.err" && got="unknown without a reason"
  local versus=""
  [[ $how == gemm:* ]] && [ $rc = 0 ] && versus=$(against_hardware "$name" "$how" "$out")
  if [[ $versus == differs* ]]; then
    echo "failed $name: $versus" >"$out.result"
  elif [ $rc = 0 ] && grep -qE "PASS|^Success\.|Execution is successful" "$out.out" && ! grep -q "FAIL" "$out.out" &&
     [ "$got" = "$want_race" ]; then
    echo "passed $name (${secs}s build+run; $races${versus:+; $versus})" >"$out.result"
  elif [ $rc = 0 ] && [ "$got" != "$want_race" ]; then
    echo "failed $name: racecheck $got, expected $want_race ($races); $(grep -m1 -E "race|unknown" "$out.err" | cut -c1-200)" >"$out.result"
  elif grep -qE "unsupported|not implemented|NotSupported" "$out.err" "$out.out"; then
    echo "unsupported $name: ${said:-$(grep -m1 -E "unsupported|NotSupported" "$out.out")}" >"$out.result"
  else
    echo "failed $name: exit $rc; $(tail -c 300 "$out.out" | tr '\n' ' ') ${said}" >"$out.result"
  fi
}
export -f one tutorial_build_command
export ptxcheck here work
xargs -P "${JOBS:-2}" -L 1 bash -c 'one "$@"' _ <"$work/list"

passed=0; failed=0; unsupported=0
while read -r name _; do
  line=$(cat "$work/$name.result" 2>/dev/null || echo "failed $name: no result")
  echo "$line"
  case $line in passed*) passed=$((passed + 1));; unsupported*) unsupported=$((unsupported + 1));; *) failed=$((failed + 1));; esac
done <"$work/list"
echo "$passed passed, $failed failed, $unsupported unsupported"
floor=$(sed -n 's/^passed //p' "$here/floor.txt")
[ "$failed" = 0 ] && [ "$passed" -ge "${floor:-0}" ]
