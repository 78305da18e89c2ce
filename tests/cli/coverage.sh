#!/usr/bin/env bash
# `ptxcheck coverage` (issues 33, 37): the instruction-form table (semantics/ir/isa_forms.def) has a row for every
# instruction heading of PTX ISA 9.0 chapter 9.7; every row's kernel is PTX that NVIDIA's ptxas accepts for its
# target (where ptxas is on PATH; rows named "(deprecated)" are the forms ptxas no longer takes, counted and
# printed); the report's text equals tests/cli/coverage.golden — after an engine changes, rerun with --update
# and review the diff. Usage: coverage.sh PTXCHECK SOURCE_DIR [SEEDS_DIR] [--update]
set -u
ptxcheck=$1; src=$2; seeds=${3:-$src/../shared/seeds}; update=${4:-}
[ "$seeds" = "--update" ] && { seeds=$src/../shared/seeds; update=--update; }
here=$(dirname "$0"); golden=$here/coverage.golden
. "$(dirname "$0")/lib.sh"  # check, passed/failed, $tmp, summary

"$ptxcheck" coverage >"$tmp/report.txt" 2>"$tmp/err"; rc=$?
check "coverage exits 0" test $rc -eq 0
"$ptxcheck" coverage --json --emit-ptx "$tmp/ptx" >"$tmp/report.json" 2>>"$tmp/err"; rc=$?
check "coverage --json exits 0" test $rc -eq 0
"$ptxcheck" coverage --why >"$tmp/why.txt" 2>>"$tmp/err"; rc=$?
check "coverage --why exits 0" test $rc -eq 0
check "--why gives a reason under every refusal" bash -c "! grep -q ': \$' '$tmp/why.txt'"

# --- every instruction heading of the spec has a row: the table of contents ("9.7.1.1<TAB>Integer Arithmetic
# Instructions: add") and the deeper headings of the body ("9.7.13.15.13 ... Instructions: `mbarrier.arrive`").
spec=$seeds/ptx-isa-9.0.txt
if [ -f "$spec" ]; then
  { awk 'NR < 400' "$spec" | grep -E $'^9\\.7\\.[0-9.]+\t.*Instructions?:' | cut -f1
    awk 'NR > 3800' "$spec" | grep -E '^9\.7\.[0-9.]+ .*[Ii]nstructions?: ?[`*]*[a-z{@]' | cut -d' ' -f1; } | sort -u >"$tmp/headings"
  grep -o '"section": "[0-9.]*"' "$tmp/report.json" | cut -d'"' -f4 | sort -u >"$tmp/rows"
  # a heading is covered by a row of its own section or of a subsection (9.7.9.25 by 9.7.9.25.3.1)
  while read -r h; do grep -qE "^${h//./\\.}(\.|\$)" "$tmp/rows" || echo "$h"; done <"$tmp/headings" >"$tmp/missing"
  check "the spec has instruction headings ($(wc -l <"$tmp/headings"))" test "$(wc -l <"$tmp/headings")" -gt 150
  check "every instruction heading of ISA 9.0 9.7 has a row (missing: $(tr '\n' ' ' <"$tmp/missing"))" test ! -s "$tmp/missing"
else
  echo "SKIPPED: spec headings ($spec not found)"
fi

# --- every row is PTX as ptxas reads it.
if command -v ptxas >/dev/null; then
  ok=0; bad=0; skipped=0
  for f in "$tmp"/ptx/*.ptx; do
    target=$(basename "$f" .ptx); target=${target##*-}
    case $f in *-deprecated-*) skipped=$((skipped + 1)); echo "not assembled (deprecated form): $(basename "$f")"; continue;; esac
    if ptxas -arch="$target" "$f" -o /dev/null 2>"$tmp/ptxas.err"; then ok=$((ok + 1))
    else bad=$((bad + 1)); echo "ptxas rejects $(basename "$f"): $(head -1 "$tmp/ptxas.err")"; fi
  done
  echo "ptxas: $ok kernels accepted, $bad rejected, $skipped deprecated forms not assembled"
  check "ptxas accepts every form's kernel" test $bad -eq 0
else
  echo "SKIPPED: ptxas not on PATH, the forms' kernels were not assembled"
fi

# --- answers the spec decides (each engine's answer in the JSON; the examples are rows of isa_forms.def).
answer() {  # answer EXAMPLE ENGINE: prints true or false
  awk -v ex="\"example\": \"$1\"" -v eng="\"$2\": {" 'index($0, ex) { f = 1 } f && index($0, eng) { getline; print ($0 ~ /true/ ? "true" : "false"); exit }' "$tmp/report.json"
}
expect() {  # expect EXAMPLE ENGINE true|false WHY
  check "$1 -> $2 $3 ($4)" test "$(answer "$1" "$2")" = "$3"
}
expect "ld.global.cg.L2::128B.u32 %r1, [%rd1];" litmus true "9.7.9.1: cache operators are performance hints only"
expect "st.global.cs.u32 [%rd1], %r1;" litmus true "9.7.9.1: cache operators do not change memory consistency"
expect "ld.global.nc.u32 %r1, [%rd1];" litmus false "9.7.9.9: a non-coherent load is not an ordinary ld"
expect "st.async.release.gpu.global.u32 [%rd1], %r1;" race false "9.7.9.12: the store completes after the thread goes on"
expect "st.async.release.gpu.global.u32 [%rd1], %r1;" run true "9.7.9.12: completing at issue is one allowed schedule"
expect "mapa.shared::cluster.u64 %rd1, smem, %r1; mapa.shared::cluster.u64 %rd2, mbar, %r1; st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%rd1], %r2, [%rd2];" run true "9.7.9.12: a store completing with complete-tx, as a bulk copy"
expect "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%rd1], %r1, [%rd2];" run true "9.7.13.7: atom's add, then complete-tx"
expect "mov.u64 %rd1, smem; st.bulk.weak.shared::cta [%rd1], 256, 0;" run true "9.7.9.13: a weak store of zeros"
expect "add.sat.s32 %r1, %r2, %r3;" litmus true "9.7.1.1: .sat clamps; litmus cells run through semantics/ops/execute.hpp"
expect "sin.approx.f32 %f1, %f2;" litmus false "9.7.3.18: .approx results are implementation-defined"
expect "fns.b32 %r1, %r2, %r3, %r4;" run true "9.7.1.17: the spec's loop, in semantics/ops/integer.hpp"
expect "atom.global.cas.b128 %q1, [%rd1], %q2, %q3;" litmus false "9.7.13.5: 128-bit cas, wider than litmus values"
expect "add.s32 %r1, %r2, %r3;" run true "9.7.1.1"

# --- the contract: --section filters by section prefix, an empty selection is an error.
"$ptxcheck" coverage --json --section 9.7.13 >"$tmp/sync.json"; rc=$?
check "--section 9.7.13 exits 0" test $rc -eq 0
check "--section 9.7.13 keeps only 9.7.13.*" bash -c "! grep '\"section\": \"9' '$tmp/sync.json' | grep -v '\"9\.7\.13[\".]' | grep -q ."
"$ptxcheck" coverage --section 9.7.99 >/dev/null 2>"$tmp/none.err"; rc=$?
check "--section 9.7.99: exit 2 with a message" bash -c "test $rc -eq 2 && grep -q 'no instruction form' '$tmp/none.err'"

# --- the IR checker's qualifier words per opcode are the spec's: semantics/ir/syntax_words.def is what
# scripts/gen_syntax_words.py makes of the ISA text today (regenerate it with that script after the text changes).
python3 "$src/scripts/gen_syntax_words.py" "$src/semantics/ir/opcodes.def" "$spec" >"$tmp/syntax_words.def"
check "semantics/ir/syntax_words.def is generated from the ISA text" diff -u "$src/semantics/ir/syntax_words.def" "$tmp/syntax_words.def"
# So are the version and target requirements (scripts/gen_target_notes.py, from the PTX and Target ISA Notes).
python3 "$src/scripts/gen_target_notes.py" "$src/semantics/ir/opcodes.def" "$spec" >"$tmp/target_notes.def" 2>/dev/null
check "semantics/ir/target_notes.def is generated from the ISA text" diff -u "$src/semantics/ir/target_notes.def" "$tmp/target_notes.def"

# --- the report against its golden text.
if [ "$update" = "--update" ]; then
  cp "$tmp/report.txt" "$golden"; echo "updated $golden"
else
  check "report equals tests/cli/coverage.golden (coverage.sh ... --update rewrites it)" diff -u "$golden" "$tmp/report.txt"
fi

summary coverage.sh
