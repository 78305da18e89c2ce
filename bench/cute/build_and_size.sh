#!/usr/bin/env bash
# What tests/cute saves per Blackwell tutorial: the build with -arch=sm_100a (the baseline, SASS and both PTX) against
# the PTX-only build tests/cute/tutorial_build.sh makes with PTX_ONLY=1, and the racecheck run at the tutorial's
# default size (512x1024x256) against the size tests/cute/tutorials.txt gives. Wall seconds, one after the other.
# Usage (from the repository root, after a build): bench/cute/build_and_size.sh [PTXCHECK] [CORPUS_DIR] [TUTORIAL...]
set -uo pipefail
ptxcheck=${1:-build/bin/ptxcheck}; corpus=${2:-../shared/corpus}
names=(02_mma_tma_sm100 05_mma_tma_epi_sm100)
if [ $# -gt 2 ]; then shift 2; names=("$@"); fi
tutorial=$corpus/cutlass/examples/cute/tutorial/blackwell
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
common=(-cudart shared -lineinfo -std=c++17 --expt-relaxed-constexpr -I"$corpus/cutlass/include"
        -I"$corpus/cutlass/tools/util/include" -I"$tutorial")
props=(--device-props tests/cute/sm100.props.json)
for name in "${names[@]}"; do
  args=$(awk -v n="$name" '$1 == n { for (i = 6; i <= NF; ++i) printf "%s ", $i }' tests/cute/tutorials.txt)
  s=$SECONDS; nvcc "${common[@]}" -arch=sm_100a -o "$work/old" "$tutorial/$name.cu" || exit 1; old_build=$((SECONDS - s))
  s=$SECONDS; nvcc "${common[@]}" -gencode arch=compute_100a,code=compute_100a -o "$work/new" "$tutorial/$name.cu" || exit 1
  new_build=$((SECONDS - s))
  s=$SECONDS; "$ptxcheck" exec --racecheck "${props[@]}" "$work/old" >"$work/old.out" 2>"$work/old.err"; old_run=$((SECONDS - s))
  # shellcheck disable=SC2086
  s=$SECONDS; "$ptxcheck" exec --racecheck "${props[@]}" "$work/new" $args >"$work/new.out" 2>"$work/new.err"; new_run=$((SECONDS - s))
  echo "$name: build -arch=sm_100a ${old_build}s, PTX only ${new_build}s; racecheck at the default size ${old_run}s" \
       "($(tail -n 1 "$work/old.out")), at ${args:-the default size }${new_run}s ($(tail -n 1 "$work/new.out"))"
  grep -h "racecheck: [0-9]* launches" "$work/old.err" "$work/new.err" | sed 's/^/  /'
done
