#!/usr/bin/env bash
# The scalability families (scripts/gen_litmus_families.py: LB-n, MP-n, SB-n, IRIW with k readers, a relaxed and
# a synchronising variant each) under memmodel/models/ptx.cat: the verdicts derived by hand in
# docs/litmus-families.md (every generated condition holds; relaxed outcomes are observed, Sometimes; the
# synchronising variants' outcomes never are, Never), at sizes the per-combination engine could not decide
# (n = 24: 2^24 trace combinations; IRIW with 8 and 16 readers). At n = 3 the merged engine's full state lists (--states) equal those of
# the per-combination engine (--engine per-trace). Usage: litmus_families.sh PTXCHECK SOURCE_DIR
set -u
ptxcheck=$1; src=$2
. "$(dirname "$0")/lib.sh"  # check, passed/failed, $tmp, summary
gen=$src/scripts/gen_litmus_families.py

for fam in LB MP SB IRIW; do
  for var in rlx sync; do
    sizes="8 24"; [ "$fam" = IRIW ] && sizes="8 16"  # IRIW: readers
    python3 "$gen" "$tmp/big" "$fam" "$var" $sizes >"$tmp/list" || { check "$fam-$var: generator" false; continue; }
    obs=Sometimes; [ "$var" = sync ] && obs=Never
    while IFS=$'\t' read -r file expected; do
      name=$(basename "$file" .litmus)
      "$ptxcheck" litmus --json --timeout-ms 60000 "$file" >"$tmp/out.json" 2>&1; rc=$?
      check "$name: exit 0 (the condition $expected)" test $rc -eq 0
      check "$name: result $expected" grep -q "\"result\":\"$expected\"" "$tmp/out.json"
      check "$name: observation $obs" grep -q "\"observation\":\"$obs\"" "$tmp/out.json"
      echo "$name $(grep -o '"time_ms":[0-9.]*' "$tmp/out.json")"
    done <"$tmp/list"
    # The two symbolic engines list the same final states and give the same verdict (small n).
    python3 "$gen" "$tmp/small" "$fam" "$var" 3 >/dev/null
    f=$tmp/small/$fam-$var-3.litmus
    "$ptxcheck" litmus --json --states "$f" | grep -o '"result":"[a-z]*"\|"states":\[[^]]*\]' >"$tmp/merged"
    "$ptxcheck" litmus --json --states --engine per-trace "$f" | grep -o '"result":"[a-z]*"\|"states":\[[^]]*\]' >"$tmp/split"
    check "$fam-$var-3: same states as the per-trace engine" cmp -s "$tmp/merged" "$tmp/split"
    check "$fam-$var-3: some states listed" grep -q '"values"' "$tmp/merged"
  done
done
summary
