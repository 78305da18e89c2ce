#!/usr/bin/env bash
# Dat3M's own shapes of the scalability families (scripts/gen_litmus_families.py variant dat3m; verdicts in
# docs/litmus-families.md) under `ptxcheck litmus --json FILE` (defaults: 60 s, 4096 MB), one binary against a
# baseline binary in the same run, alternating. Per test: verdict, user CPU seconds (the worker process
# included) and peak resident MB from /usr/bin/time. Prints a markdown table. Usage:
#   litmus_dat3m.sh PTXCHECK BASELINE_PTXCHECK ["SIZES"] ["IRIW_THREADS"]   (defaults "8 16 24 32 40", "8 16 24 32")
set -u
new=$1; old=$2; sizes=${3:-8 16 24 32 40}; iriw=${4:-8 16 24 32}
here=$(cd "$(dirname "$0")" && pwd); gen=$here/../scripts/gen_litmus_families.py
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
run() {  # run PTXCHECK FILE -> "verdict user_s peak_mb"
  /usr/bin/time -f '%U %M' -o "$tmp/time" "$1" litmus --json "$2" >"$tmp/o.json" 2>/dev/null
  local r; r=$(grep -o '"result":"[a-z]*"' "$tmp/o.json" | head -1 | sed 's/.*:"//; s/"//')
  read -r user kb < <(tail -1 "$tmp/time")  # (time prints "Command exited with ..." first on a non-zero exit)
  printf '%s %s %s' "${r:-error}" "$user" "$((kb / 1024))"
}
echo "| test | expected | verdict | user s | MB | baseline verdict | baseline user s | baseline MB |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
for fam in LB MP SB IRIW; do
  ns=$sizes; [ "$fam" = IRIW ] && ns=$iriw
  for n in $ns; do
    line=$(python3 "$gen" "$tmp" "$fam" dat3m "$n"); f=${line%%$'\t'*}; expected=${line##*$'\t'}
    read -r v u m <<<"$(run "$new" "$f")"
    read -r bv bu bm <<<"$(run "$old" "$f")"
    printf '| %s-dat3m-%s | %s | %s | %s | %s | %s | %s | %s |\n' "$fam" "$n" "$expected" "$v" "$u" "$m" "$bv" "$bu" "$bm"
  done
done
