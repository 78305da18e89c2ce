// Every registered theorem of proofs/ is run and must be proved within its budget; negative controls show
// that the same checks refute a false identity with a counterexample (a proof is a test that can fail).
#include "checker/race/pipeline_order.hpp"
#include "checker/race/ticket_count.hpp"
#include "proofs/race_pipeline.hpp"
#include "proofs/solver.hpp"
#include "proofs/spec_reference.hpp"
#include "proofs/theorem.hpp"
#include "semantics/domain/symbolic.hpp"
#include "semantics/ops/logic.hpp"

#include <doctest/doctest.h>

using namespace ptxcheck::proofs;

namespace {
// Runs the theorems whose names start with `prefix`: each must reach its recorded verdict (proved, or
// refuted for a finding of proofs/FINDINGS.md), never unknown.
void run_family(const std::string& prefix, std::size_t at_least) {
  Budget budget;
  budget.timeout_ms = 120'000;
  std::size_t n = 0;
  for (const auto& t : all_theorems()) {
    if (t.name.rfind(prefix, 0) != 0) continue;
    ++n;
    auto r = run_theorem(t, budget);
    INFO(t.name << ": " << std::string(verdict_name(r.verdict)) << " " << r.detail);
    CHECK(r.verdict == expected_verdict(t.name));
    CHECK(!t.bound.empty());
    MESSAGE(t.name << " " << std::string(verdict_name(r.verdict)) << " in " << r.seconds << " s");
  }
  CHECK(n >= at_least);
}
}  // namespace

// The model theorems take seconds to a minute each; CTest runs them as their own tests (tests/unit/proofs.cmake).
TEST_CASE("proofs: mapping theorems" * doctest::skip()) { run_family("mapping.", 6); }
TEST_CASE("proofs: model theorems" * doctest::skip()) { run_family("model.", 8); }

TEST_CASE("proofs: the race checker's encodings") { run_family("race.", 5); }

TEST_CASE("proofs: the ticket count without its add-one condition is refuted") {
  // race.ticket_counts_last_block's claim needs check_tickets.cpp's condition: a run that may write anything (an
  // atomicInc wrapping early) lets the second of two CTAs read a count other than the last.
  z3::context ctx;
  const z3::expr initial = ctx.bv_const("initial", 32), written = ctx.bv_const("written", 32), ctas = ctx.bv_val(2, 64);
  const z3::expr claim = ptxcheck::race::ticket_reads_last(written, initial, ctas);  // run 1 read run 0's write
  CHECK(prove_valid(ctx, claim, Budget{}, {{"initial", initial}, {"written", written}}).verdict == Verdict::refuted);
  const z3::expr kept = ptxcheck::race::ticket_adds_one(initial, written, initial, ctas);
  CHECK(prove_valid(ctx, z3::implies(kept, claim), Budget{}, {{"initial", initial}, {"written", written}}).verdict == Verdict::proved);
}

TEST_CASE("proofs: the pipeline exploration refutes claims that order too much") {
  // race.pipeline_phases_order's exploration with the checker's own terms is clean on these pipelines ...
  CHECK(explore_pipeline(2, 2, 4, 2, ptxcheck::race::pipeline_ordered).empty());
  // ... with wait bounds one too high (a thread taken to have passed one more wait than it did), a copy is claimed
  // known before the phase that carries it completes;
  const PipelineClaim bounds_too_high = [](const z3::expr& xf, const z3::expr& xe, bool async, const z3::expr& yf,
                                           const z3::expr& ye, const std::array<std::int64_t, 4>& least, std::int64_t stages) {
    const std::array<std::int64_t, 4> more = {least[0] + 1, least[1] + 1, least[2] + 1, least[3] + 1};
    return ptxcheck::race::pipeline_ordered(xf, xe, async, yf, ye, more, stages);
  };
  CHECK(explore_pipeline(2, 2, 4, 2, bounds_too_high).find("does not know it") != std::string::npos);
  // ... counting one stage fewer through "empty" (waited_empty(x + S - 1)) claims an order the wait has not given;
  const PipelineClaim one_stage_short = [](const z3::expr& xf, const z3::expr& xe, bool async, const z3::expr& yf,
                                           const z3::expr& ye, const std::array<std::int64_t, 4>& least, std::int64_t stages) {
    return ptxcheck::race::pipeline_ordered(xf, xe, async, yf, ye, least, stages - 1);
  };
  CHECK(explore_pipeline(2, 2, 4, 2, one_stage_short).find("does not know it") != std::string::npos);
  // ... and an async copy read as if in program order (its thread's later arrive on "empty" does not carry it).
  const PipelineClaim copy_in_program_order = [](const z3::expr& xf, const z3::expr& xe, bool, const z3::expr& yf,
                                                 const z3::expr& ye, const std::array<std::int64_t, 4>& least, std::int64_t stages) {
    return ptxcheck::race::pipeline_ordered(xf, xe, false, yf, ye, least, stages);
  };
  CHECK(explore_pipeline(2, 2, 4, 2, copy_in_program_order).find("copy of stage") != std::string::npos);
  // A program that prefetches more stages than there are slots breaks the protocol: its wait on "empty" for stage
  // S needs every thread's release of stage 0, which no thread reaches first.
  CHECK(explore_pipeline(2, 2, 4, 3, ptxcheck::race::pipeline_ordered).find("deadlock") != std::string::npos);
}

TEST_CASE("proofs: an overlap test with the sizes swapped is refuted") {
  // -sb < a - b < sa (the race checker's test until 79a5a1d) is not byte overlap once the sizes differ.
  z3::context ctx;
  const z3::expr a = ctx.bv_const("a", 64), b = ctx.bv_const("b", 64);
  const z3::expr sa = ctx.bv_val(16, 64), sb = ctx.bv_val(4, 64);
  const z3::expr swapped = z3::ult(a - b + sb - 1, sa + sb - 1);
  const z3::expr no_wrap = z3::ult(a, ctx.bv_val(1u << 20, 64)) && z3::ult(b, ctx.bv_val(1u << 20, 64));
  auto r = prove_valid(ctx, z3::implies(no_wrap, swapped == (z3::ult(a, b + sb) && z3::ult(b, a + sa))), Budget{}, {{"a", a}, {"b", b}});
  CHECK(r.verdict == Verdict::refuted);
}

TEST_CASE("proofs: every finding is a registered theorem, refuted") {
  for (const auto& [name, title] : recorded_findings()) {
    bool found = false;
    for (const auto& t : all_theorems()) found |= t.name == name;
    CHECK_MESSAGE(found, name);
    CHECK(!title.empty());
    CHECK(expected_verdict(name) == Verdict::refuted);
  }
}

TEST_CASE("proofs: every identity is proved within its budget") {
  Budget budget;
  budget.timeout_ms = 120'000;
  REQUIRE(all_theorems().size() >= 39);
  for (const auto& t : all_theorems()) {
    if (t.name.rfind("identity.", 0) != 0) continue;
    auto r = run_theorem(t, budget);
    INFO(t.name << ": " << std::string(verdict_name(r.verdict)) << " " << r.detail);
    CHECK(r.verdict == Verdict::proved);
    CHECK(!t.bound.empty());
  }
}

TEST_CASE("proofs: a false identity is refuted with a counterexample") {
  z3::context ctx;
  ptx::domain::Symbolic d(ctx);
  auto a = d.var("a", 32), b = d.var("b", 32), c = d.var("c", 32);
  // shf.l.clamp and shf.l.wrap differ once c >= 32 (clamp keeps 32, wrap takes c & 31).
  auto r = prove_valid(ctx, ptx::ops::shf(d, true, true, a, b, c) == spec::shf(a, b, c, true, false), Budget{},
                       {{"a", a}, {"b", b}, {"c", c}});
  CHECK(r.verdict == Verdict::refuted);
  CHECK(r.detail.find("c = ") != std::string::npos);
  // bfe.s32 is not bfe.u32.
  auto s = prove_valid(ctx, spec::bfe(a, b, c, true) == ptx::ops::bfe(d, false, a, b, c), Budget{}, {{"a", a}});
  CHECK(s.verdict == Verdict::refuted);
}

TEST_CASE("proofs: running out of budget is unknown, never a verdict") {
  z3::context ctx;
  auto x = ctx.bv_const("x", 64), y = ctx.bv_const("y", 64);
  // A 64-bit multiplication identity hard for bit-blasting, with a tiny resource budget (a time budget
  // is not deterministic: a fast machine may finish within it).
  Budget tiny;
  tiny.rlimit = 1;
  auto r = prove_valid(ctx, (x * y) * (x + y) == (x * x * y) + (x * y * y), tiny, {});
  CHECK(r.verdict == Verdict::unknown);
  CHECK(!r.detail.empty());
}
