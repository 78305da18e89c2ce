// The litmus builder's bulk_group copies (litmus/build/async_proxy.hpp; memmodel/models/NOTES.md, "Async proxy") as
// graph events: each copy an operation thread of its own (ISA 8.9.1.1), tied to its issuer by the split-barrier
// edges of memmodel/graph/bulk_copy_events.hpp, completed by cp.async.bulk.wait_group{.read} N (9.7.9.25.6.2).
// Expectations worked out by hand from the programs below (one value per location).
#include "litmus/build/threads.hpp"
#include "litmus/enumerate/graph_builder.hpp"
#include "litmus/parse/parse.hpp"

#include <doctest/doctest.h>

using namespace ptxcheck;
using namespace ptxcheck::litmus;

namespace {
struct Built {
  Test test;
  Program program;
  std::vector<Trace> traces;
};
Built build(const std::string& rows, bool fence_after_read_completion = false) {
  const std::string text = "PTX t\n{ a = 1; b = 2; x = 0; y = 0; }\n P0@cta 0,gpu 0 ;\n" + rows + "exists (x == 0)\n";
  std::vector<Diagnostic> diags;
  auto t = parse_litmus(text, "t.litmus", diags);
  REQUIRE(t.has_value());
  Built b{*t, {}, {}};
  REQUIRE(build_program(b.test, b.program, diags));
  b.program.fence_after_read_completion = fence_after_read_completion;
  std::vector<std::set<std::int64_t>> values;
  for (auto v : b.program.init) values.push_back({v});
  REQUIRE(thread_traces(b.test, b.program, 0, values, 2, b.traces, diags));
  REQUIRE(b.traces.size() == 1);
  return b;
}
// Each event as kind, operation and, for memory events, the location: "B-", "R0 a" (a read of a by operation 0).
std::vector<std::string> shape(const Built& b) {
  std::vector<std::string> out;
  for (const TEvent& e : b.traces[0].events) {
    std::string s = e.kind == EvKind::read ? "R" : e.kind == EvKind::write ? "W" : e.kind == EvKind::fence ? "F" : "B";
    s += e.op < 0 ? "-" : std::to_string(e.op);
    if (e.vloc >= 0) s += " " + b.program.vnames[static_cast<std::size_t>(e.vloc)];
    out.push_back(s);
  }
  return out;
}
std::vector<std::pair<int, int>> edges(const Built& b) {
  std::vector<std::pair<int, int>> out;
  for (std::size_t i = 0; i < b.traces[0].events.size(); ++i)
    for (int from : b.traces[0].events[i].sync_from) out.emplace_back(from, static_cast<int>(i));
  return out;
}
}  // namespace

TEST_CASE("a waited copy: issue edge, read, then at the wait its write, proxy fence and edge to the wait") {
  const Built b = build(" cp.async.bulk.global.shared::cta.bulk_group [x], [a], 16 ;\n cp.async.bulk.commit_group ;\n"
                        " cp.async.bulk.wait_group 0 ;\n ld.u32 r0, [x] ;\n");
  CHECK(shape(b) == std::vector<std::string>{"B-", "B0", "R0 a", "W0 x", "F0", "B0", "B-", "R- x"});
  CHECK(edges(b) == std::vector<std::pair<int, int>>{{0, 1}, {5, 6}});
  CHECK(b.traces[0].events[4].proxy_fence);  // 9.7.9.25.2: the implicit generic-async proxy fence
  CHECK(b.traces[0].events[3].data == std::set<int>{2});

  // In the graph the operation is a thread of its own: no program order between it and the issuer's events.
  const Trace* tr = &b.traces[0];
  CandidateSpace sp = build_space(b.program, {tr});
  const int first = static_cast<int>(b.program.pnames.size());  // the initial writes come first
  const mm::Rel& po = sp.g.exec.rels.at("po");
  CHECK(po.has(first + 0, first + 6));  // issue, wait: the thread's own
  CHECK(po.has(first + 1, first + 5));  // start, completion: the operation's own
  for (int op : {1, 2, 3, 4, 5})
    for (int own : {0, 6, 7}) CHECK_FALSE((po.has(first + op, first + own) || po.has(first + own, first + op)));
  REQUIRE(sp.bar_choices.size() == 1);  // the edges, fixed: one option
  REQUIRE(sp.bar_choices[0].size() == 1);
  CHECK(sp.bar_choices[0][0].has(first + 0, first + 1));
  CHECK(sp.bar_choices[0][0].has(first + 5, first + 6));
  CHECK(sp.g.exec.rels.at("scta").has(first + 2, first + 7));  // the operation at its issuer's place
}

TEST_CASE("wait_group 1 completes the older of two groups; the newer completes at the end, waited by nothing") {
  const Built b = build(" cp.async.bulk.global.shared::cta.bulk_group [x], [a], 16 ;\n cp.async.bulk.commit_group ;\n"
                        " cp.async.bulk.global.shared::cta.bulk_group [y], [b], 16 ;\n cp.async.bulk.commit_group ;\n"
                        " cp.async.bulk.wait_group 1 ;\n");
  CHECK(shape(b) == std::vector<std::string>{"B-", "B0", "R0 a", "B-", "B1", "R1 b", "W0 x", "F0", "B0", "B-",
                                             "W1 y", "F1", "B1"});
  CHECK(edges(b) == std::vector<std::pair<int, int>>{{0, 1}, {3, 4}, {8, 9}});
}

TEST_CASE("wait_group.read: an edge from between the read and the write; the fence there only under that reading") {
  const std::string rows = " cp.async.bulk.global.shared::cta.bulk_group [x], [a], 16 ;\n cp.async.bulk.commit_group ;\n"
                           " cp.async.bulk.wait_group.read 0 ;\n cp.async.bulk.wait_group.read 0 ;\n"
                           " cp.async.bulk.wait_group 0 ;\n";
  const Built without = build(rows);
  // The second .read wait finds the group's reads done: no event. The full wait then completes the copy.
  CHECK(shape(without) == std::vector<std::string>{"B-", "B0", "R0 a", "B0", "B-", "W0 x", "F0", "B0", "B-"});
  CHECK(edges(without) == std::vector<std::pair<int, int>>{{0, 1}, {3, 4}, {7, 8}});
  const Built with = build(rows, true);
  CHECK(shape(with) == std::vector<std::string>{"B-", "B0", "R0 a", "F0", "B0", "B-", "W0 x", "F0", "B0", "B-"});
  CHECK(with.traces[0].events[3].proxy_fence);
}

TEST_CASE("uncommitted copies are not waited for") {
  const Built b = build(" cp.async.bulk.global.shared::cta.bulk_group [x], [a], 16 ;\n cp.async.bulk.wait_group 0 ;\n");
  CHECK(shape(b) == std::vector<std::string>{"B-", "B0", "R0 a", "W0 x", "F0", "B0"});
  CHECK(edges(b) == std::vector<std::pair<int, int>>{{0, 1}});
}
