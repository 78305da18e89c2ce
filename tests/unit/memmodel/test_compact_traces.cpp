// Compact traces (litmus/build/threads.hpp, FreeRead): a read whose register no later instruction reads is left
// free in one trace instead of one trace per value; a read that steers a branch, feeds a computation or a store,
// or sits in a loop is branched on as before. Expectations worked out by hand from the programs below, with the
// value sets {0, 1} for every location.
#include "litmus/build/threads.hpp"
#include "litmus/parse/parse.hpp"

#include <doctest/doctest.h>

#include <algorithm>

using namespace ptxcheck;
using namespace ptxcheck::litmus;

namespace {
struct Built {
  Test test;
  Program program;
};
Built build(const std::string& text) {
  std::vector<Diagnostic> diags;
  auto t = parse_litmus(text, "t.litmus", diags);
  INFO((diags.empty() ? std::string() : diags[0].render()));
  REQUIRE(t.has_value());
  Built b{*t, {}};
  REQUIRE(build_program(b.test, b.program, diags));
  return b;
}
std::vector<Trace> traces_of(const Built& b, int thread, bool compact) {
  std::vector<std::set<std::int64_t>> values(b.program.pnames.size(), {0, 1});
  std::vector<Trace> out;
  std::vector<Diagnostic> diags;
  REQUIRE(thread_traces(b.test, b.program, thread, values, 2, out, diags, false, compact));
  return out;
}
// A trace as what distinguishes it: its read values and final registers.
using Seen = std::pair<std::vector<std::int64_t>, std::map<std::string, std::int64_t>>;
std::set<Seen> seen(const std::vector<Trace>& traces) {
  std::set<Seen> out;
  for (auto& tr : traces) {
    std::vector<std::int64_t> reads;
    for (auto& e : tr.events) if (e.kind == EvKind::read) reads.push_back(e.value);
    out.insert({reads, tr.regs});
  }
  return out;
}
std::vector<Trace> expanded(const std::vector<Trace>& traces) {
  std::vector<Trace> out;
  for (auto& tr : traces) expand_free_reads(tr, out);
  return out;
}
}  // namespace

TEST_CASE("three reads nobody uses: one compact trace standing for the 8 listed ones") {
  auto b = build("PTX t\n{ x=0; y=0; z=0; }\n P0@cta 0,gpu 0 ;\n ld.relaxed.gpu r0, x ;\n ld.relaxed.gpu r1, y ;\n"
                 " ld.relaxed.gpu r2, z ;\nexists (P0:r0 == 1)\n");
  auto compact = traces_of(b, 0, true);
  REQUIRE(compact.size() == 1);
  REQUIRE(compact[0].free.size() == 3);
  CHECK(compact[0].free[1].event == 1);
  CHECK(compact[0].free[1].values == std::vector<std::int64_t>{0, 1});
  CHECK(compact[0].free[1].regs == std::vector<std::string>{"r1"});
  CHECK(free_read_of_register(compact[0], "r2") == 2);
  CHECK(free_read_of_event(compact[0], 0) == 0);
  CHECK(expanded_count(compact[0], 100) == 8);
  CHECK(expanded_count(compact[0], 5) == 5);  // saturates
  auto listed = traces_of(b, 0, false);
  CHECK(listed.size() == 8);
  CHECK(seen(expanded(compact)) == seen(listed));
}

TEST_CASE("a register overwritten later: the read stays free, the final register is the later value") {
  auto b = build("PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.relaxed.gpu r0, x ;\n mov r0, 5 ;\nexists (P0:r0 == 5)\n");
  auto compact = traces_of(b, 0, true);
  REQUIRE(compact.size() == 1);
  REQUIRE(compact[0].free.size() == 1);
  CHECK(compact[0].free[0].regs.empty());
  CHECK(compact[0].regs.at("r0") == 5);
  CHECK(seen(expanded(compact)) == seen(traces_of(b, 0, false)));
}

TEST_CASE("a read that feeds a store, a computation or a branch is branched on") {
  // r0 is stored (data dependency), r1 is added (its sum is a final register), r2 steers a branch: each of the
  // three has to be known per trace; r3 is used by nothing and stays free: 2^3 traces, one free read each.
  auto b = build("PTX t\n{ x=0; y=0; z=0; w=0; v=0; }\n P0@cta 0,gpu 0 ;\n ld.relaxed.gpu r0, x ;\n st.relaxed.gpu v, r0 ;\n"
                 " ld.relaxed.gpu r1, y ;\n add r5, r1, 1 ;\n ld.relaxed.gpu r2, z ;\n beq r2, 0, L ;\n"
                 " ld.relaxed.gpu r3, w ;\n L: ;\nexists (P0:r5 == 1)\n");
  auto compact = traces_of(b, 0, true);
  // r2 = 0 jumps over the read of w: 4 traces without it; r2 = 1 reads w (free): 4 compact traces.
  CHECK(compact.size() == 8);
  CHECK(std::count_if(compact.begin(), compact.end(), [](const Trace& t) { return t.free.size() == 1; }) == 4);
  for (auto& t : compact)
    for (auto& f : t.free) CHECK(t.events[static_cast<std::size_t>(f.event)].text == "ld.relaxed.gpu");
  CHECK(seen(expanded(compact)) == seen(traces_of(b, 0, false)));
}

TEST_CASE("in a loop no read is free (the spin-loop reduction compares register values)") {
  auto b = build("PTX t\n{ x=0; y=0; }\n P0@cta 0,gpu 0 ;\n L: ;\n ld.relaxed.gpu r1, y ;\n ld.relaxed.gpu r0, x ;\n"
                 " beq r0, 0, L ;\nexists (P0:r1 == 1)\n");
  for (auto& t : traces_of(b, 0, true)) CHECK(t.free.empty());
}
