#!/usr/bin/env bash
# The scalability families (scripts/gen_litmus_families.py; verdicts in docs/litmus-families.md) under
# `ptxcheck litmus` with ptx.cat: per test the merged symbolic engine's time and verdict (the default: one Z3
# problem per test, verdict only) and, as the baseline measured in the same run, the per-combination engine
# (`--engine per-trace`, the engine before) under a wall-clock cap. Times are the tests' own time_ms (no
# process start-up). Prints a markdown table. Usage:
#   litmus_families.sh PTXCHECK [CAP_MS] ["SIZES"] ["IRIW_READERS"] ["DAT3M_IRIW_THREADS"]
#   (defaults 10000, "8 16 24 32 40", "4 8 12 16", "8 16 24 32"; variant dat3m: Dat3M's own shapes, whose IRIW-n
#   has n/2 writers and n/2 readers; docs/litmus-families.md)
set -u
ptxcheck=$1; cap=${2:-10000}; sizes=${3:-8 16 24 32 40}; readers=${4:-4 8 12 16}; dat3m_iriw=${5:-8 16 24 32}
here=$(cd "$(dirname "$0")" && pwd); gen=$here/../scripts/gen_litmus_families.py
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
field() { grep -o "\"$1\":\"\?[^,\"]*" "$2" | head -1 | sed 's/.*://; s/"//g'; }
run() {  # run FILE ARGS... -> "time_ms verdict"
  local f=$1; shift
  "$ptxcheck" litmus --json "$@" "$f" >"$tmp/o.json" 2>/dev/null
  local r t; r=$(field result "$tmp/o.json"); t=$(field time_ms "$tmp/o.json")
  [ -n "$t" ] && t=$(printf '%.0f' "$t")
  [ "$r" = unknown ] && t=">$cap"
  printf '%s %s' "${t:-?}" "${r:-error}"
}
echo "| family | n | threads | merged ms | verdict | per-trace ms (cap $cap) | verdict | expected |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
for fam in LB MP SB IRIW; do
  for var in rlx sync dat3m; do
    ns=$sizes; [ "$fam" = IRIW ] && ns=$readers; [ "$fam-$var" = IRIW-dat3m ] && ns=$dat3m_iriw
    for n in $ns; do
      line=$(python3 "$gen" "$tmp" "$fam" "$var" "$n"); f=${line%%$'\t'*}; expected=${line##*$'\t'}
      threads=$(grep -m1 '@cta' "$f" | grep -o 'P[0-9]*@' | wc -l)
      read -r tm vm <<<"$(run "$f" --timeout-ms 60000)"
      read -r to vo <<<"$(run "$f" --engine per-trace --timeout-ms "$cap")"
      printf '| %s-%s | %s | %s | %s | %s | %s | %s | %s |\n' "$fam" "$var" "$n" "$threads" "$tm" "$vm" "$to" "$vo" "$expected"
    done
  done
done
