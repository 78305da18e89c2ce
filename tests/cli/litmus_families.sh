#!/usr/bin/env bash
# The scalability families (scripts/gen_litmus_families.py: LB-n, MP-n, SB-n, IRIW with k readers, a relaxed and
# a synchronising variant each) under memmodel/models/ptx.cat: the verdicts derived by hand in
# docs/litmus-families.md (every generated condition holds; relaxed outcomes are observed, Sometimes; the
# synchronising variants' outcomes never are, Never), at sizes the per-combination engine could not decide
# (n = 24: 2^24 trace combinations; IRIW with 8 and 16 readers), and Dat3M's own shapes of the four families
# (variant dat3m, verdicts derived in the same page; IRIW-32: 16 readers of 16 locations, one compact trace each
# where listing them would take 2^16). At n = 3 (IRIW-dat3m: 6, whose readers' traces are compact) the merged
# engine's full state lists (--states) equal those of
# the per-combination engine (--engine per-trace). Usage: litmus_families.sh PTXCHECK SOURCE_DIR
set -u
ptxcheck=$1; src=$2
. "$(dirname "$0")/lib.sh"  # check, passed/failed, $tmp, summary
gen=$src/scripts/gen_litmus_families.py

for fam in LB MP SB IRIW; do
  for var in rlx sync dat3m; do
    sizes="8 24"; [ "$fam" = IRIW ] && sizes="8 16"  # IRIW: readers (dat3m: threads, half of them readers)
    [ "$fam-$var" = IRIW-dat3m ] && sizes="8 16 24 32"
    python3 "$gen" "$tmp/big" "$fam" "$var" $sizes >"$tmp/list" || { check "$fam-$var: generator" false; continue; }
    while IFS=$'\t' read -r file expected; do
      # rlx: the outcome is allowed; sync: forbidden; dat3m: `exists`, so allowed exactly when it holds.
      obs=Sometimes; [ "$var" = sync ] || [ "$expected" = fails ] && obs=Never
      name=$(basename "$file" .litmus)
      "$ptxcheck" litmus --json --timeout-ms 60000 "$file" >"$tmp/out.json" 2>&1; rc=$?
      want=0; [ "$expected" = fails ] && want=1  # the command's exit: 0 every condition holds, 1 one fails
      check "$name: exit $want (the condition $expected)" test $rc -eq $want
      check "$name: result $expected" grep -q "\"result\":\"$expected\"" "$tmp/out.json"
      check "$name: observation $obs" grep -q "\"observation\":\"$obs\"" "$tmp/out.json"
      echo "$name $(grep -o '"time_ms":[0-9.]*' "$tmp/out.json")"
    done <"$tmp/list"
    # The two symbolic engines list the same final states and give the same verdict (small n).
    small=3; [ "$fam-$var" = IRIW-dat3m ] && small=6  # n/2 writers and n/2 readers
    python3 "$gen" "$tmp/small" "$fam" "$var" $small >/dev/null
    f=$tmp/small/$fam-$var-$small.litmus
    "$ptxcheck" litmus --json --states "$f" | grep -o '"result":"[a-z]*"\|"states":\[[^]]*\]' >"$tmp/merged"
    "$ptxcheck" litmus --json --states --engine per-trace "$f" | grep -o '"result":"[a-z]*"\|"states":\[[^]]*\]' >"$tmp/split"
    check "$fam-$var-$small: same states as the per-trace engine" cmp -s "$tmp/merged" "$tmp/split"
    check "$fam-$var-$small: some states listed" grep -q '"values"' "$tmp/merged"
  done
done
summary
