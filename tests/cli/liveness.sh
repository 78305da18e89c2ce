#!/usr/bin/env bash
# Liveness of litmus tests (issue 36, docs/litmus-liveness.md): every file of tests/cli/liveness states its
# hand-derived liveness in its doc string ("Liveness: ok / hang / unknown"), which the JSON must give, and where it
# states one, its verdict ("Verdict: Ok / No / Unknown"), which the report must give; the report's
# Test / verdict / Liveness lines equal tests/cli/liveness.golden — after an engine change, rerun with --update
# and review the diff. The JSON carries the same fields. Usage: liveness.sh PTXCHECK SOURCE_DIR [--update]
set -u
ptxcheck=$1; src=$2; update=${3:-}
here=$(dirname "$0"); golden=$here/liveness.golden; dir=$here/liveness
. "$(dirname "$0")/lib.sh"  # check, passed/failed, $tmp, summary

: >"$tmp/report.txt"
for f in "$dir"/*.litmus; do
  "$ptxcheck" litmus "$f" >"$tmp/one.txt" 2>&1
  grep -E '^(Test |Ok$|No$|Unknown$|Liveness)' "$tmp/one.txt" >>"$tmp/report.txt"
  "$ptxcheck" litmus --json "$f" >"$tmp/one.json" 2>&1
  want=$(grep -o 'Liveness: [a-z]*' "$f" | head -1 | cut -d' ' -f2)
  check "$(basename "$f"): liveness $want (from the file's doc string)" grep -q "\"liveness\":\"$want\"" "$tmp/one.json"
  verdict=$(grep -o 'Verdict: [A-Za-z]*' "$f" | head -1 | cut -d' ' -f2)
  if [ -n "$verdict" ]; then
    check "$(basename "$f"): verdict $verdict (from the file's doc string)" grep -qx "$verdict" "$tmp/one.txt"
  fi
done
if [ "$update" = "--update" ]; then
  cp "$tmp/report.txt" "$golden"; echo "updated $golden"
else
  check "report equals tests/cli/liveness.golden (liveness.sh ... --update rewrites it)" diff -u "$golden" "$tmp/report.txt"
fi
summary liveness.sh
