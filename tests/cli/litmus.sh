#!/usr/bin/env bash
# CLI behaviour of `ptxcheck litmus` (issue 5): every chapter-8 example of examples/litmus gives the spec's
# answer under memmodel/models/ptx.cat (examples/litmus/MANIFEST.tsv: the observation the spec implies), and
# the command's contract: exit codes, JSON fields, located errors, --model FILE.cat, --dot, --explain,
# --jobs, --timeout-ms. Usage: litmus.sh PTXCHECK SOURCE_DIR [CORPUS_DIR]
set -u
ptxcheck=$1; src=$2; corpus=${3:-$src/../shared/corpus}; ex=$src/examples/litmus; here=$(dirname "$0")
. "$(dirname "$0")/lib.sh"  # check, passed/failed, $tmp, summary

# --- the chapter-8 examples: each file's condition is the spec's claim, so each must hold, with the
# observation (Never / Sometimes / Always) listed in MANIFEST.tsv.
tail -n +2 "$ex/MANIFEST.tsv" | while IFS=$'\t' read -r file section answer observation; do
  echo "$file	$observation"
done >"$tmp/expected"
check "MANIFEST lists every example" test "$(wc -l <"$tmp/expected")" -eq "$(ls "$ex"/*.litmus | wc -l)"
while IFS=$'\t' read -r file observation; do
  "$ptxcheck" litmus --json "$ex/$file" >"$tmp/one.json" 2>"$tmp/one.err"; rc=$?
  check "$file: the spec's claim holds (exit 0)" test $rc -eq 0
  check "$file: result holds" grep -q '"result":"holds"' "$tmp/one.json"
  check "$file: observation $observation" grep -q "\"observation\":\"$observation\"" "$tmp/one.json"
done <"$tmp/expected"

"$ptxcheck" litmus "$ex"/*.litmus >"$tmp/all.txt" 2>&1; rc=$?
check "all examples together exit 0" test $rc -eq 0
for f in "$ex"/*.litmus; do
  name=$(head -1 "$f" | cut -d' ' -f2)
  check "$name: herd-style block" grep -q "^Test $name \(Allowed\|Required\)$" "$tmp/all.txt"
  check "$name: Observation line" grep -qE "^Observation $name (Never|Sometimes|Always) [0-9]+ [0-9]+$" "$tmp/all.txt"
  check "$name: Time line" grep -qE "^Time $name [0-9.]+$" "$tmp/all.txt"
done
check "States, Ok, Witnesses, Condition lines" \
  bash -c "grep -q '^States [0-9]' '$tmp/all.txt' && grep -q '^Ok$' '$tmp/all.txt' && grep -q '^Positive: [0-9]* Negative: [0-9]*$' '$tmp/all.txt' && grep -q '^Condition ' '$tmp/all.txt'"

# --- spec answers that the reference models do not give (tests/cli/litmus-spec, memmodel/models/NOTES.md).
spec=$here/litmus-spec
for f in "$spec"/*.litmus; do
  "$ptxcheck" litmus --json "$f" >"$tmp/spec.json" 2>&1; rc=$?
  check "$(basename "$f"): the spec's answer under ptx.cat" test $rc -eq 0
done
# --- instruction meaning (tests/cli/litmus-instructions): qualifier defaults and atomics in their type.
for f in "$here"/litmus-instructions/*.litmus; do
  "$ptxcheck" litmus --json "$f" >"$tmp/ins.json" 2>&1; rc=$?
  check "$(basename "$f"): the ISA's answer (exit 0)" test $rc -eq 0
done
refs=$corpus/litmus-ptx/reference-models
if [ -d "$refs" ]; then
  for m in ptx-v7.5.cat ptx-v6.0.cat; do
    for f in MP-fence.sc+acq_rel MP-fence.acq_rel+sc MP-red-acq_rel; do
      "$ptxcheck" litmus --model "$refs/$m" "$spec/$f.litmus" >/dev/null 2>&1; rc=$?
      check "$f: $m deviates from the spec (exit 1)" test $rc -eq 1
    done
    "$ptxcheck" litmus --model "$refs/$m" "$spec/CoRR-3threads.litmus" >/dev/null 2>&1; rc=$?
    check "CoRR-3threads: $m agrees with the spec" test $rc -eq 0
  done
else
  echo "unsupported: no corpus at $corpus, reference-model checks not run"
fi

# --- a model given as a file: sequential consistency (herd's sc.cat in one axiom).
cat >"$tmp/sc.cat" <<'EOF'
SC
(* Sequential consistency: one total order over all events that respects po and explains rf / co / fr. *)
let fr = rf^-1 ; co
acyclic po | rf | co | fr as sc
EOF
cat >"$tmp/sb.litmus" <<'EOF'
PTX SB
{ x = 0; y = 0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.weak x, 1   | st.weak y, 1   ;
 ld.weak r0, y  | ld.weak r1, x  ;
exists (P0:r0 == 0 /\ P1:r1 == 0)
EOF
"$ptxcheck" litmus --model "$tmp/sc.cat" --json "$tmp/sb.litmus" >"$tmp/sb.json" 2>&1; rc=$?
check "SB under SC: the condition fails, exit 1" test $rc -eq 1
check "SB under SC: result fails" grep -q '"result":"fails"' "$tmp/sb.json"
check "SB under SC: 3 final states" grep -q '"positive":0' "$tmp/sb.json"
"$ptxcheck" litmus --json "$tmp/sb.litmus" >"$tmp/sb2.json" 2>&1; rc=$?
check "SB without fences under ptx.cat: allowed, exit 0" test $rc -eq 0
for field in name result states positive negative time_ms file condition observation; do
  check "JSON has $field" grep -q "\"$field\":" "$tmp/sb2.json"
done
check "JSON: one object per line" test "$(wc -l <"$tmp/sb2.json")" -eq 1

# --- --explain: the axioms forbidding MP-fence's outcome are axioms that ptx.cat declares.
"$ptxcheck" litmus --explain --json "$ex/MP-fence.litmus" >"$tmp/mp.json" 2>&1
axioms=$(grep -o '"forbidden_by":\[[^]]*\]' "$tmp/mp.json" | grep -o '"[A-Za-z-]*"' | grep -v forbidden_by | tr -d '"')
check "--explain names at least one axiom" test -n "$axioms"
for a in $axioms; do
  check "--explain: $a is an axiom of ptx.cat" grep -qE "as $a\$" "$src/memmodel/models/ptx.cat"
done
"$ptxcheck" litmus --explain "$ex/MP-fence.litmus" >"$tmp/mp.txt" 2>&1
check "--explain in text" grep -q "^Forbidden by: " "$tmp/mp.txt"
"$ptxcheck" litmus --model "$tmp/sc.cat" --explain "$tmp/sb.litmus" >"$tmp/sb.txt" 2>&1
check "--explain under SC names sc" grep -q "^Forbidden by: sc$" "$tmp/sb.txt"
# A forall test is about the outcomes violating its proposition: SB's (0,0) again, which SC forbids.
sed 's/^exists (P0:r0 == 0 \/\\ P1:r1 == 0)$/forall (P0:r0 == 1 \\\/ P1:r1 == 1)/' "$tmp/sb.litmus" >"$tmp/sb-forall.litmus"
check "forall variant of SB written" grep -q '^forall' "$tmp/sb-forall.litmus"
for engine in symbolic explicit; do
  "$ptxcheck" litmus --model "$tmp/sc.cat" --engine $engine --explain "$tmp/sb-forall.litmus" >"$tmp/sbf.txt" 2>&1
  check "--explain of a forall test under SC names sc ($engine)" grep -q "^Forbidden by: sc$" "$tmp/sbf.txt"
done

# --- --dot: one picture per final state, SVG when Graphviz is installed.
"$ptxcheck" litmus --dot "$tmp/dot" "$ex/SB-fence-acq_rel.litmus" >"$tmp/dot.txt" 2>&1; rc=$?
check "--dot exits 0" test $rc -eq 0
states=$(sed -n 's/^States \([0-9]*\)$/\1/p' "$tmp/dot.txt")
check "--dot writes one .dot per final state" test "$(ls "$tmp/dot"/*.dot 2>/dev/null | wc -l)" -eq "${states:-x}"
check "--dot: threads as columns" grep -q "subgraph cluster_t1" "$tmp/dot/SB-fence-acq_rel-state0.dot"
check "--dot: po and rf edges labelled" \
  bash -c "grep -q 'label=\"po\"' '$tmp'/dot/*.dot && grep -q 'label=\"rf\"' '$tmp'/dot/*.dot"
check "--dot: fr edge for a stale read" grep -q 'label="fr"' "$tmp"/dot/*.dot
if command -v dot >/dev/null; then
  check "--dot renders SVG" test "$(ls "$tmp/dot"/*.svg 2>/dev/null | wc -l)" -eq "${states:-x}"
else
  echo "unsupported: Graphviz not installed, SVG check not run"
fi

# --- bad input: located error, exit 2.
printf 'PTX bad\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (P0:r0 == )\n' >"$tmp/bad.litmus"
"$ptxcheck" litmus "$tmp/bad.litmus" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "syntax error exits 2" test $rc -eq 2
check "syntax error is located (at the token it could not read)" grep -q "bad.litmus:5:18: error: expected " "$tmp/err"
check "syntax error shows a caret" grep -qE '^[[:space:]]*\^$' "$tmp/err"
# A row the grammar cannot read: the message says what may come there, not a parser's C++ type name.
printf 'PTX badrow\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\n lop3.or.b32 r1|r2, r3 ;\nexists (x == 1)\n' >"$tmp/badrow.litmus"
"$ptxcheck" litmus "$tmp/badrow.litmus" >/dev/null 2>"$tmp/err"; rc=$?
check "unreadable row exits 2" test $rc -eq 2
check "unreadable row: what may come there" grep -q "badrow.litmus:5:2: error: expected another row of the thread columns or the condition" "$tmp/err"
check "unreadable row: no C++ type in the message" bash -c "! grep -q 'boost' '$tmp/err'"
"$ptxcheck" litmus --json "$tmp/bad.litmus" >"$tmp/out" 2>&1; rc=$?
check "syntax error in JSON: result error" grep -q '"result":"error"' "$tmp/out"
printf 'PTX wide\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 | st.weak x, 2 ;\nexists (x == 1)\n' >"$tmp/wide.litmus"
"$ptxcheck" litmus "$tmp/wide.litmus" >/dev/null 2>"$tmp/err"; rc=$?
check "instruction outside the thread columns: exit 2" test $rc -eq 2
check "instruction outside the thread columns: located" grep -q "wide.litmus:4:17: error: cell in column 2" "$tmp/err"
printf 'PTX nothread\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexists (P3:r0 == 0)\n' >"$tmp/nothread.litmus"
"$ptxcheck" litmus "$tmp/nothread.litmus" >/dev/null 2>"$tmp/err"; rc=$?
check "condition on an undeclared thread: exit 2" test $rc -eq 2
check "condition on an undeclared thread: located" grep -q "nothread.litmus:5:9: error: the condition names thread P3" "$tmp/err"
printf 'PTX noloc\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexists (P0:r0 == 0 /\\ y == 1)\n' >"$tmp/noloc.litmus"
"$ptxcheck" litmus "$tmp/noloc.litmus" >/dev/null 2>"$tmp/err"; rc=$?
check "condition on an unknown location: exit 2" test $rc -eq 2
check "condition on an unknown location: located" grep -q "noloc.litmus:5:23: error: the condition names location 'y'" "$tmp/err"
cp "$ex/LB.litmus" "$tmp/lb.cu.litmus"
"$ptxcheck" litmus "$tmp/lb.cu.litmus" >/dev/null 2>"$tmp/err"; rc=$?
check "a .cu.litmus without --compile: exit 2" test $rc -eq 2
check "a .cu.litmus without --compile: says so" grep -q "lb.cu.litmus: error: a CUDA litmus test: run it with --compile" "$tmp/err"
# --compile: the compiled test against the source model. LB with relaxed atomics compiles to ld/st.relaxed,
# which ptx.cat lets load-buffer while RC11 forbids it (proofs/FINDINGS.md finding 1): exit 1, the extra state
# named with a witness; MP with seq_cst is consistent. JSON: one object per file and line.
cu=$src/examples/cu-litmus
"$ptxcheck" litmus --compile "$cu/LB+rlx+dev.cu.litmus" >"$tmp/lbc.txt" 2>&1; rc=$?
check "--compile: LB+rlx+dev has a compiled-only outcome, exit 1" test $rc -eq 1
check "--compile: the compiled-only state is named" grep -q "^Only the compiled program has: P0:r0=1; P1:r0=1;" "$tmp/lbc.txt"
check "--compile: with a witness" grep -q "witness (compiled execution)" "$tmp/lbc.txt"
"$ptxcheck" litmus --compile --json "$cu/MP+sc+dev.cu.litmus" "$cu/SB+sc+dev.cu.litmus" >"$tmp/mpc.json" 2>&1; rc=$?
check "--compile: MP+sc+dev and SB+sc+dev are consistent, exit 0" test $rc -eq 0
check "--compile --json: one object per file" test "$(grep -c '"verdict":"consistent"' "$tmp/mpc.json")" -eq 2
"$ptxcheck" litmus "$tmp/missing.litmus" >/dev/null 2>&1; rc=$?
check "missing file exits 2" test $rc -eq 2
"$ptxcheck" litmus --model "$tmp/missing.cat" "$ex/LB.litmus" >/dev/null 2>&1; rc=$?
check "missing model exits 2" test $rc -eq 2
"$ptxcheck" litmus --frobnicate "$ex/LB.litmus" >/dev/null 2>&1; rc=$?
check "bad usage exits 2" test $rc -eq 2

# --- unsupported construct: unknown with its location, exit 3.
printf 'PTX unsup\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n madc.lo.u32 r0, r1, r2, r3 ;\nexists (x == 0)\n' >"$tmp/unsup.litmus"
"$ptxcheck" litmus "$tmp/unsup.litmus" >"$tmp/out" 2>&1; rc=$?
check "unsupported instruction exits 3" test $rc -eq 3
check "unsupported instruction named with its location" grep -q "unsup.litmus:4:2: error: unsupported instruction 'madc.lo.u32' (the carry flag is not modelled)" "$tmp/out"
# red's .op has neither .cas nor .exch (ISA 9.7.13.6; semantics/ops/memory_access.hpp): refused, not run as an atom.
printf 'PTX redexch\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n red.relaxed.gpu.exch.b32 x, 1 ;\nexists (x == 1)\n' >"$tmp/redexch.litmus"
"$ptxcheck" litmus "$tmp/redexch.litmus" >"$tmp/out" 2>&1; rc=$?
check "red.exch: unsupported, exit 3" test $rc -eq 3
check "red.exch: named with its location and section" grep -q "redexch.litmus:4:2: error: unsupported instruction 'red.relaxed.gpu.exch.b32' (red has no .cas or .exch, ISA 9.7.13.6)" "$tmp/out"
# CTA barrier cells: their qualifiers as the IR decodes them (ISA 9.7.13.1); bar.red is not modelled, .aligned is.
printf 'PTX barred\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n bar.cta.red.popc.u32 r1, 0, 1 ;\nexists (x == 0)\n' >"$tmp/barred.litmus"
"$ptxcheck" litmus "$tmp/barred.litmus" >"$tmp/out" 2>&1; rc=$?
check "bar.red: unsupported, exit 3" test $rc -eq 3
check "bar.red: named with its location and section" grep -q "barred.litmus:4:2: error: unsupported barrier 'bar.cta.red.popc.u32' (.*ISA 9.7.13.1)" "$tmp/out"
printf 'PTX baraligned\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n barrier.cta.sync.aligned 0 ;\nexists (x == 0)\n' >"$tmp/baraligned.litmus"
"$ptxcheck" litmus "$tmp/baraligned.litmus" >"$tmp/out" 2>&1; rc=$?
check "barrier.cta.sync.aligned: runs" grep -q "Observation baraligned Always" "$tmp/out"
# A thread placed in a cluster next to one without: `cta` would number CTAs of a cluster for one and of the device
# for the other (ISA 2.2.2), so the test is refused, not read one way.
printf 'PTX mixed\n{ x = 0; }\n P0@cta 0,cluster 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.cluster x, 1 | ld.relaxed.cluster r0, x ;\nexists (P1:r0 == 1)\n' >"$tmp/mixed.litmus"
"$ptxcheck" litmus "$tmp/mixed.litmus" >"$tmp/out" 2>&1; rc=$?
check "clusters named for some threads only: exit 3" test $rc -eq 3
check "clusters named for some threads only: located" grep -q "mixed.litmus:3:29: error: a test that places a thread in a cluster must place every thread in one" "$tmp/out"
# mbarrier cells the counter reading leaves out, or undefined uses it can see (memmodel/models/NOTES.md, "mbarrier"):
# unknown, exit 3, located and with the section.
mbar() {  # NAME CELL: a one-thread test initialising `bar` (count 1) and running CELL
  printf 'PTX %s\n{ bar = 0; }\n P0@cta 0,gpu 0 ;\n mbarrier.init.shared::cta.b64 [bar], 1 ;\n %s ;\nexists (bar == 0)\n' "$1" "$2" >"$tmp/$1.litmus"
  "$ptxcheck" litmus "$tmp/$1.litmus" >"$tmp/out" 2>&1
}
mbar mbdrop 'mbarrier.arrive_drop.shared::cta.b64 _, [bar]'; rc=$?
check "mbarrier arrive_drop: exit 3" test $rc -eq 3
check "mbarrier arrive_drop: named with the section" grep -q "mbdrop.litmus:5:2: error: unsupported instruction 'mbarrier.arrive_drop.shared::cta.b64' (arrive_drop changes the expected count, ISA 9.7.13.15.14; not modelled)" "$tmp/out"
# tx-count (memmodel/models/NOTES.md, "mbarrier"): an expect-tx that brings tx-count to zero with no arrival pending
# (9.7.13.15.5.1 states no phase completion for it) is reached in the one execution: unknown, naming it.
printf 'PTX mbexpect\n{ bar = 0; }\n P0@cta 0,gpu 0 ;\n mbarrier.init.shared::cta.b64 [bar], 1 ;\n mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [bar], 16 ;\n mbarrier.arrive.shared::cta.b64 _, [bar] ;\n mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [bar], 16 ;\n mbarrier.test_wait.parity.shared::cta.b64 p, [bar], 0 ;\nexists (P0:p == 1)\n' >"$tmp/mbexpect.litmus"
"$ptxcheck" litmus "$tmp/mbexpect.litmus" >"$tmp/out" 2>&1; rc=$?
check "expect-tx completing a phase (not stated): exit 3" test $rc -eq 3
check "expect-tx completing a phase: says why" grep -q "an execution reaches an undefined operation: 'mbarrier.expect_tx.relaxed.cta.shared::cta.b64': an expect-tx may bring tx-count to zero with no arrival pending: ISA 9.7.13.15.5.1" "$tmp/out"
# The same program with the complete-tx last completes the phase: p == 1 in the one execution.
printf 'PTX mbcomplete\n{ bar = 0; }\n P0@cta 0,gpu 0 ;\n mbarrier.init.shared::cta.b64 [bar], 1 ;\n mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [bar], 16 ;\n mbarrier.arrive.shared::cta.b64 _, [bar] ;\n mbarrier.test_wait.parity.shared::cta.b64 p0, [bar], 0 ;\n mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [bar], 16 ;\n mbarrier.test_wait.parity.shared::cta.b64 p1, [bar], 0 ;\nforall (P0:p0 == 0 /\\ P0:p1 == 1)\n' >"$tmp/mbcomplete.litmus"
"$ptxcheck" litmus "$tmp/mbcomplete.litmus" >"$tmp/out" 2>&1; rc=$?
check "complete-tx last completes the phase (9.7.13.15.6): holds" test $rc -eq 0
# No default scope for expect_tx / complete_tx (9.7.13.15.11, .12): refused on an object of two CTAs.
printf 'PTX mbscope\n{ bar = 0; }\n P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;\n mbarrier.init.shared::cta.b64 [bar], 1 | mbarrier.expect_tx.shared::cluster.b64 [bar], 16 ;\nexists (bar == 0)\n' >"$tmp/mbscope.litmus"
"$ptxcheck" litmus "$tmp/mbscope.litmus" >"$tmp/out" 2>&1; rc=$?
check "expect_tx without .scope across CTAs: exit 3" test $rc -eq 3
check "expect_tx without .scope across CTAs: says so" grep -q "mbscope.litmus:4:43: error: 'mbarrier.expect_tx.shared::cluster.b64' without .scope on an object used by more than one CTA: ISA 9.7.13.15.11 and .12 state no default scope" "$tmp/out"
mbar mbstate 'mbarrier.test_wait.shared::cta.b64 p, [bar], 0'; rc=$?
check "mbarrier wait on a state no arrive returned: exit 3" test $rc -eq 3
check "mbarrier wait on a state no arrive returned: says so" grep -q "the state operand must be the result of this thread's mbarrier.arrive on 'bar' (ISA 9.7.13.15.16)" "$tmp/out"
mbar mbld 'ld.shared.u64 r1, [bar]'; rc=$?
check "a load of an mbarrier object: exit 3" test $rc -eq 3
check "a load of an mbarrier object: undefined, says so" grep -q "'bar' is an mbarrier object: any other instruction on it is undefined (ISA 9.7.13.15)" "$tmp/out"
printf 'PTX mbnoinit\n{ bar = 0; }\n P0@cta 0,gpu 0 ;\n mbarrier.arrive.shared::cta.b64 _, [bar] ;\nexists (bar == 0)\n' >"$tmp/mbnoinit.litmus"
"$ptxcheck" litmus "$tmp/mbnoinit.litmus" >"$tmp/out" 2>&1; rc=$?
check "mbarrier without init: exit 3" test $rc -eq 3
check "mbarrier without init: says so" grep -q "'bar' has no mbarrier.init: an mbarrier operation on an uninitialized object is undefined (ISA 9.7.13.15)" "$tmp/out"
# Two arrivals on an object expecting one: the second completes phase 1 while P0's state names phase 0 or 1, so its
# wait may test a phase two back (9.7.13.15.4 broken by the program): undefined, refused.
printf 'PTX mbtwo\n{ bar = 0; }\n P0@cta 0,gpu 0 ;\n mbarrier.init.shared::cta.b64 [bar], 1 ;\n mbarrier.arrive.shared::cta.b64 s, [bar] ;\n mbarrier.arrive.shared::cta.b64 _, [bar] ;\n mbarrier.arrive.shared::cta.b64 _, [bar] ;\n mbarrier.test_wait.shared::cta.b64 p, [bar], s ;\nexists (P0:p == 1)\n' >"$tmp/mbtwo.litmus"
"$ptxcheck" litmus "$tmp/mbtwo.litmus" >"$tmp/out" 2>&1; rc=$?
check "mbarrier wait two phases past its state: exit 3" test $rc -eq 3
check "mbarrier wait two phases past its state: undefined, says so" grep -q "may test a phase that is neither the current nor the immediately preceding one (undefined, ISA 9.7.13.15.16)" "$tmp/out"
# The async proxy (memmodel/models/NOTES.md, "Async proxy"): what chapter 8 does not decide is unknown, exit 3.
printf 'PTX xcta\n{ src = 0; dst = 0; flag = 0; }\n P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;\n st.u32 [src], 1 | ld.acquire.cluster.u32 r0, [flag] ;\n fence.proxy.async | cp.async.bulk.global.shared::cta.bulk_group [dst], [src], 16 ;\n st.release.cluster.u32 [flag], 1 | ;\nexists (P1:r0 == 1 /\\ dst == 0)\n' >"$tmp/xcta.litmus"
"$ptxcheck" litmus "$tmp/xcta.litmus" >"$tmp/out" 2>&1; rc=$?
check "async proxy across CTAs of a cluster: exit 3" test $rc -eq 3
check "async proxy across CTAs of a cluster: not decided by chapter 8, says so" grep -q "xcta.litmus:5:22: error: 'src' is accessed through the async proxy and by another CTA: chapter 8 does not decide how fence.proxy.async orders accesses of different CTAs" "$tmp/out"
# A bulk_group copy is an operation of its own (8.9.1.1), so instructions may follow it: a store to its source
# after it, with no wait and no fence, may or may not be what the copy reads (both answered).
printf 'PTX after\n{ src = 0; dst = 0; }\n P0@cta 0,gpu 0 ;\n cp.async.bulk.global.shared::cta.bulk_group [dst], [src], 16 ;\n st.u32 [src], 1 ;\nexists (dst == 1)\n' >"$tmp/after.litmus"
"$ptxcheck" litmus --json "$tmp/after.litmus" >"$tmp/out" 2>&1; rc=$?
check "an access after a bulk_group copy in its thread: answered (exit 0)" test $rc -eq 0
check "an access after a bulk_group copy: the copy may read either value" grep -q '"observation":"Sometimes"' "$tmp/out"
# Where chapter 8 leaves a bulk_group question open (tests/cli/litmus-unknown, each citing its sentences): unknown.
for f in "$here"/litmus-unknown/*.litmus; do
  "$ptxcheck" litmus --json "$f" >"$tmp/unknown.json" 2>&1; rc=$?
  check "$(basename "$f"): not decided by chapter 8, unknown (exit 3)" test $rc -eq 3
  check "$(basename "$f"): says which sentence leaves it open" grep -qE 'chapter 8 (does not decide|\(8.6, 8.9.5\) says nothing)' "$tmp/unknown.json"
done
printf 'PTX fpa\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n st.u32 [x], 1 ;\n fence.proxy.async.global ;\nexists (x == 1)\n' >"$tmp/fpa.litmus"
"$ptxcheck" litmus "$tmp/fpa.litmus" >"$tmp/out" 2>&1; rc=$?
check "fence.proxy.async.global (one state space): exit 3" test $rc -eq 3
check "fence.proxy.async.global: says what is modelled" grep -q "unsupported fence 'fence.proxy.async.global' (of the proxy fences, the litmus engine models" "$tmp/out"
# Bulk copies completing on an mbarrier (NOTES.md, "mbarrier"): what the engine cannot answer is unknown, exit 3.
tma() {  # NAME ROW...: a two-thread test, P1 initialising b (count 1) before a CTA barrier both threads pass
  local name=$1; shift
  { printf 'PTX %s\n{ x = 0; y = 1; z = 0; b = 0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n bar.cta.sync 0 | mbarrier.init.shared::cta.b64 [b], 1 ;\n' "$name"
    for row in "$@"; do printf ' %s ;\n' "$row"; done
    printf 'exists (x == 1)\n'; } >"$tmp/$name.litmus"
  "$ptxcheck" litmus "$tmp/$name.litmus" >"$tmp/out" 2>&1
}
tma tmaprior 'st.u32 [z], 1 | bar.cta.sync 0' 'cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [x], [y], 16, [b] |'; rc=$?
check "an access before an mbarrier bulk copy in its thread: exit 3" test $rc -eq 3
check "an access before an mbarrier bulk copy: 8.9.1.1 named" grep -q "tmaprior.litmus:6:2: error: 'st.u32' before a bulk copy completing on 'b' in its thread, with no release mbarrier.arrive on it in between: the copy's complete-tx does not order prior instructions of its thread (ISA 8.9.1.1)" "$tmp/out"
tma tmaarrive 'st.u32 [z], 1 | bar.cta.sync 0' 'mbarrier.arrive.expect_tx.shared::cta.b64 _, [b], 16 |' 'cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [x], [y], 16, [b] |'; rc=$?
check "the same access followed by a release arrive on the object: answered (exit 0)" test $rc -eq 0
tma tmaafter 'cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [x], [y], 16, [b] | bar.cta.sync 0' 'st.u32 [z], 1 |'; rc=$?
check "an access after an mbarrier bulk copy in its thread: exit 3" test $rc -eq 3
check "an access after an mbarrier bulk copy: 8.9.1.1 named" grep -q "tmaafter.litmus:6:2: error: 'st.u32' after a bulk copy completing on an mbarrier in the same thread: asynchronous operations are not part of program order (ISA 8.9.1.1)" "$tmp/out"
tma tmasize 'cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [x], [y], 8, [b] | bar.cta.sync 0'; rc=$?
check "a bulk copy of 8 bytes: exit 3" test $rc -eq 3
check "a bulk copy of 8 bytes: 9.7.9.25.4.1 named" grep -q "size must be an immediate, a positive multiple of 16 (ISA 9.7.9.25.4.1)" "$tmp/out"
printf 'PTX tmaxcta\n{ x = 0; y = 1; b = 0; ready = 0; }\n P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;\n mbarrier.init.shared::cta.b64 [b], 1 | ld.acquire.cluster.u32 r0, [ready] ;\n st.release.cluster.u32 [ready], 1 | mbarrier.arrive.release.cluster.shared::cluster.b64 _, [b] ;\n mbarrier.arrive.expect_tx.shared::cta.b64 _, [b], 16 | ;\n cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [x], [y], 16, [b] | ;\nexists (x == 0)\n' >"$tmp/tmaxcta.litmus"
"$ptxcheck" litmus "$tmp/tmaxcta.litmus" >"$tmp/out" 2>&1; rc=$?
check "an mbarrier bulk copy on an object another CTA uses: exit 3" test $rc -eq 3
check "an mbarrier bulk copy on an object another CTA uses: says so" grep -q "'b' is used by another CTA: the litmus engine models a bulk copy completing on an mbarrier only when every thread on that object is in the copy's CTA" "$tmp/out"
# Severity over several files: a failing claim (1) wins over unknown (3) and bad input (2).
"$ptxcheck" litmus --model "$tmp/sc.cat" "$tmp/unsup.litmus" "$tmp/sb.litmus" "$tmp/bad.litmus" >/dev/null 2>&1; rc=$?
check "fails wins over unknown and bad input" test $rc -eq 1
"$ptxcheck" litmus "$tmp/unsup.litmus" "$ex/LB.litmus" >/dev/null 2>&1; rc=$?
check "unknown wins over holds" test $rc -eq 3

# --- loops: a loop whose exit the bound cannot reach says so (unknown, exit 3); the counter r1 is live at the
# loop head, so this is no side-effect-free spin loop and every iteration counts toward --unroll.
cat >"$tmp/count.litmus" <<'EOF'
PTX count
{ flag = 0; }
 P0@cta 0,gpu 0          ;
 L:                      ;
 ld.relaxed.gpu r0, flag ;
 add r1, r1, 1           ;
 beq r0, 0, L            ;
exists (P0:r0 == 1 /\ P0:r1 == 3)
EOF
"$ptxcheck" litmus --unroll 1 "$tmp/count.litmus" >"$tmp/out" 2>&1; rc=$?
check "loop bound reached: exit 3" test $rc -eq 3
check "loop bound named" grep -q "unroll 1" "$tmp/out"
# A side-effect-free spin loop (8.10 axioms are monotone under deleting its failed reads): the flag is set
# once, so the loop exits and r0 == 1 whatever --unroll says.
cat >"$tmp/spin.litmus" <<'EOF'
PTX spin
{ flag = 0; }
 P0@cta 0,gpu 0          | P1@cta 1,gpu 0         ;
 L:                      | st.relaxed.gpu flag, 1 ;
 ld.relaxed.gpu r0, flag |                        ;
 beq r0, 0, L            |                        ;
forall (P0:r0 == 1)
EOF
"$ptxcheck" litmus --unroll 0 --json "$tmp/spin.litmus" >"$tmp/out" 2>&1; rc=$?
check "spin loop: definite at --unroll 0 (exit 0)" test $rc -eq 0
check "spin loop: not bounded" grep -q '"bounded":false' "$tmp/out"
check "spin loop: one final state, r0 == 1" grep -q '"states":\[{"executions":[0-9]*,"satisfies":true,"values":{"P0:r0":1}}\]' "$tmp/out"

# --- --engine: the explicit enumerator and the symbolic engine agree on every example's result and states (--states:
# every final state, not only the witnesses).
for f in "$ex"/*.litmus; do
  "$ptxcheck" litmus --engine explicit --json "$f" | grep -o '"result":"[a-z]*"\|"values":{[^}]*}' >"$tmp/e1"
  "$ptxcheck" litmus --engine symbolic --states --json "$f" | grep -o '"result":"[a-z]*"\|"values":{[^}]*}' >"$tmp/e2"
  check "$(basename "$f"): explicit and symbolic engines agree" cmp -s "$tmp/e1" "$tmp/e2"
done
"$ptxcheck" litmus --engine magic "$ex/LB.litmus" >/dev/null 2>&1; rc=$?
check "unknown engine exits 2" test $rc -eq 2

# --- --jobs: same results in the same order.
"$ptxcheck" litmus --jobs 2 "$ex"/*.litmus | grep -v '^Time ' >"$tmp/j2.txt"
grep -v '^Time ' "$tmp/all.txt" >"$tmp/j1.txt"
check "--jobs 2 prints what --jobs 1 prints" cmp -s "$tmp/j1.txt" "$tmp/j2.txt"

# --- --timeout-ms: a test too large for its budget is unknown (never a hang).
{
  echo "PTX big"; echo "{ x = 0; }"; echo " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;"
  echo " st.relaxed.gpu x, 1 | ld.relaxed.gpu r1, x ;"; echo " ld.relaxed.gpu r2, x | st.relaxed.gpu x, 2 ;"
  echo " st.relaxed.gpu x, 3 | ld.relaxed.gpu r3, x ;"; echo " ld.relaxed.gpu r4, x | st.relaxed.gpu x, 4 ;"
  echo " st.relaxed.gpu x, 5 | ld.relaxed.gpu r5, x ;"; echo "exists (x == 0)"
} >"$tmp/big.litmus"
# (the per-trace engine: about 50 s on this test; the default engine decides it in a fraction of a second)
"$ptxcheck" litmus --engine per-trace --timeout-ms 300 --json "$tmp/big.litmus" >"$tmp/out" 2>&1; rc=$?
check "over budget: exit 3" test $rc -eq 3
check "over budget: reason given" grep -q 'time budget exhausted (300 ms)' "$tmp/out"
check "over budget: the test is named" grep -q '"name":"big"' "$tmp/out"

# --- the memory budget: 16 readers that each read 16 locations and add the values up (so every read steers
# the sum: 2^16 traces per reader, GBs within a minute; reads nobody uses would stay free, threads.hpp); under
# --memory-mb 300 the test is unknown with the reason, and the worker was stopped within 10% of the budget (its
# peak, which the kernel counts into ours as a waited-for child, read with getrusage).
python3 - "$tmp/sum-16.litmus" <<'PY'
import sys
n = 16
cols = [[f"st.release.gpu x{c}, 1"] for c in range(n)]
cols += [[f"ld.acquire.gpu r{k}, x{k}" for k in range(n)] + [f"add r99, r99, r{k}" for k in range(n)] for _ in range(n)]
rows = max(len(c) for c in cols)
with open(sys.argv[1], "w") as f:
    f.write("PTX sum-16\n{\n" + "".join(f"x{c}=0;\n" for c in range(n)) + "}\n")
    f.write(" | ".join(f"P{t}@cta {t},gpu 0" for t in range(len(cols))) + " ;\n")
    for r in range(rows):
        f.write(" | ".join(c[r] if r < len(c) else "" for c in cols) + " ;\n")
    f.write("exists (" + " /\\ ".join(f"P{t}:r99 == 0" for t in range(n, 2 * n)) + ")\n")
PY
python3 - "$ptxcheck" "$tmp/sum-16.litmus" >"$tmp/out" 2>&1 <<'PY'
import resource, subprocess, sys
r = subprocess.run([sys.argv[1], "litmus", "--json", "--memory-mb", "300", "--timeout-ms", "120000", sys.argv[2]],
                   capture_output=True, text=True)
peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(r.stdout, f"exit={r.returncode} peak_mb={peak_mb:.0f}")
PY
cat "$tmp/out"
check "memory budget: exit 3" grep -q 'exit=3 ' "$tmp/out"
check "memory budget: reason given" grep -q 'memory budget of 300 MB reached (resident [0-9]* MB)' "$tmp/out"
check "memory budget: kept within 10%" test "$(sed -n 's/.*peak_mb=\([0-9]*\).*/\1/p' "$tmp/out")" -le 330
check "memory budget: --memory-mb below 0 is bad input" sh -c "'$ptxcheck' litmus --memory-mb -1 '$tmp/big.litmus' 2>&1; test \$? -eq 2"

summary "cli litmus"
