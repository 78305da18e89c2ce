#!/usr/bin/env bash
# corpus_mixedproxy: NVIDIA's mixed-proxy litmus tests (`.test`, ../shared/corpus/mixedproxy) under
# `ptxcheck litmus` (ptx.cat): every template instance FILE.test#k gets its own verdict, checked against
# MANIFEST.tsv (`expected` 1: the file's permit/assert claim holds). A row whose notes start with CONFLICT is
# disputed (mixedproxy/README.md: the claim contradicts PTX ISA 9.0): the spec's verdict is expected instead and
# the reason is printed. Unsupported and unknown instances are counted and printed. Fails on a wrong verdict,
# on a MANIFEST row without a result or a result without a row, when the explicit engine's verdict differs
# from the symbolic one's, or when fewer than FLOOR instances pass.
# Usage: mixedproxy.sh PTXCHECK CORPUS_DIR FLOOR
set -u
ptxcheck=$1; dir=$2/mixedproxy; floor=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if [ ! -f "$dir/MANIFEST.tsv" ]; then echo "no corpus at $dir"; exit 1; fi

# Expectations: key (FILE.test or FILE.test#k) -> holds | fails, and the disputed rows' reasons.
declare -A want note quant
rows=0
while IFS=$'\t' read -r path expected kind notes; do
  key=${path##*/}
  rows=$((rows + 1))
  # permit / check run as exists, assert as forall (docs/litmus-nvtest.md): a check that row k is instance k.
  if [ "$kind" = assert ]; then quant[$key]=forall; else quant[$key]=exists; fi
  if [ "$expected" = 1 ]; then want[$key]=holds; else want[$key]=fails; fi
  if [[ "$notes" == CONFLICT* ]]; then
    # The spec's verdict is the opposite of the stated claim.
    if [ "$expected" = 1 ]; then want[$key]=fails; else want[$key]=holds; fi
    note[$key]=$notes
    echo "disputed: $key ($kind): following PTX ISA 9.0 as mixedproxy/README.md says, expected ${want[$key]}; MANIFEST: $notes"
  fi
done < <(tail -n +2 "$dir/MANIFEST.tsv")

"$ptxcheck" litmus --json --jobs 2 --timeout-ms 30000 "$dir"/tests/*.test >"$tmp/out.jsonl" 2>"$tmp/err"
passed=0; failed=0; unsupported=0; unknown=0; results=0
declare -A seen
field() { sed -nE "s/.*\"$1\":\"(([^\"\\\\]|\\\\.)*)\".*/\1/p" <<<"$2"; }
while IFS= read -r line; do
  name=$(field name "$line"); result=$(field result "$line"); key=${name##*/}
  results=$((results + 1)); seen[$key]=1
  if [ -z "${want[$key]+x}" ]; then
    failed=$((failed + 1)); echo "FAILED: $key: no expectation in MANIFEST.tsv"; continue
  fi
  case $result in
    holds|fails)
      q=$(field quantifier "$line")
      if [ "$q" != "${quant[$key]}" ]; then failed=$((failed + 1)); echo "FAILED: $key: read as $q, MANIFEST.tsv's kind is ${quant[$key]}"
      elif [ "$result" = "${want[$key]}" ]; then passed=$((passed + 1))
      else failed=$((failed + 1)); echo "FAILED: $key: $result, expected ${want[$key]} ($(field condition "$line"))"; fi ;;
    *)
      reason=$(field reason "$line")
      if grep -qi unsupported <<<"$reason"; then unsupported=$((unsupported + 1)); echo "unsupported: $key: $reason"
      else unknown=$((unknown + 1)); echo "$result: $key: $reason"; fi ;;
  esac
done <"$tmp/out.jsonl"
for key in "${!want[@]}"; do
  [ -n "${seen[$key]+x}" ] || { failed=$((failed + 1)); echo "FAILED: $key: in MANIFEST.tsv but no result"; }
done
# The explicit engine (every candidate execution) must give the same verdicts.
"$ptxcheck" litmus --json --jobs 2 --timeout-ms 30000 --engine explicit "$dir"/tests/*.test >"$tmp/explicit.jsonl" 2>&1
verdicts() { while IFS= read -r l; do echo "$(field name "$l") $(field result "$l")"; done <"$1" | sort; }
disagree=$(diff <(verdicts "$tmp/out.jsonl") <(verdicts "$tmp/explicit.jsonl") | grep -c '^[<>]')
if [ "$disagree" -ne 0 ]; then
  failed=$((failed + 1)); echo "FAILED: the engines disagree:"; diff <(verdicts "$tmp/out.jsonl") <(verdicts "$tmp/explicit.jsonl")
fi
echo "mixedproxy: $passed passed, $failed failed, $unsupported unsupported, $unknown unknown ($results results, $rows MANIFEST rows, floor $floor)"
[ "$failed" -eq 0 ] && [ "$passed" -ge "$floor" ]
