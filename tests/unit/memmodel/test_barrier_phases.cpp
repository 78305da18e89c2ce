// Barrier phases (litmus/enumerate/barrier_phases.hpp) against ISA 9.7.13.1, each expectation worked out by
// hand from the text: "Operand b specifies the number of threads participating in the barrier", bar.sync waits,
// bar.arrive does not, and "When a barrier completes ... the barrier is reinitialized so that it can be
// immediately reused".
#include "litmus/build/cluster_barrier_cells.hpp"
#include "litmus/enumerate/barrier_phases.hpp"

#include <doctest/doctest.h>

using namespace ptxcheck::litmus;

namespace {
const BarrierKey kB1{0, 1, 0}, kB2{0, 2, 0};
BarrierArrival sync(int event, int count = -1, BarrierKey key = kB1) { return {event, key, count, true}; }
BarrierArrival arrive(int event, int count) { return {event, kB1, count, false}; }
const std::map<BarrierKey, std::set<int>> kNoUsers;
}  // namespace

TEST_CASE("four threads at a barrier of count 2: two phases, any pairing") {
  auto got = barrier_phasings({{sync(0, 2)}, {sync(1, 2)}, {sync(2, 2)}, {sync(3, 2)}}, kNoUsers);
  std::set<BarrierPhasing> want{{{0, 1}, {2, 3}}, {{0, 2}, {1, 3}}, {{0, 3}, {1, 2}}};
  CHECK(got == want);
}

TEST_CASE("three threads at a barrier of count 2: the third waits forever in every order") {
  CHECK(barrier_phasings({{sync(0, 2)}, {sync(1, 2)}, {sync(2, 2)}}, kNoUsers).empty());
}

TEST_CASE("a thread that waits cannot arrive twice in one phase") {
  // P0 and P1 each wait twice at a barrier of count 2: the phases are the first arrivals, then the second ones.
  auto got = barrier_phasings({{sync(0, 2), sync(1, 2)}, {sync(2, 2), sync(3, 2)}}, kNoUsers);
  CHECK(got == std::set<BarrierPhasing>{{{0, 2}, {1, 3}}});
}

TEST_CASE("bar.arrive does not wait: it may arrive twice, and a leftover arrival leaves nobody waiting") {
  // P0 arrives twice, P1 waits once, count 2: {P0a, P0b} completes without P1, who then waits alone (no
  // execution); {P0a, P1} completes, P0b opens a phase nobody waits in (an execution).
  auto got = barrier_phasings({{arrive(0, 2), arrive(1, 2)}, {sync(2, 2)}}, kNoUsers);
  CHECK(got == std::set<BarrierPhasing>{{{0, 2}}});
}

TEST_CASE("barriers waited for crosswise deadlock") {
  // P0 waits at barrier 1 then 2, P1 at 2 then 1 (no count: both threads use both barriers).
  auto got = barrier_phasings({{sync(0, -1, kB1), sync(1, -1, kB2)}, {sync(2, -1, kB2), sync(3, -1, kB1)}}, kNoUsers);
  CHECK(got.empty());
  // In the same order, they complete barrier 1 then barrier 2.
  auto same = barrier_phasings({{sync(0, -1, kB1), sync(1, -1, kB2)}, {sync(2, -1, kB1), sync(3, -1, kB2)}}, kNoUsers);
  CHECK(same == std::set<BarrierPhasing>{{{0, 2}, {1, 3}}});
}

TEST_CASE("without a count a barrier waits for the threads that use it until they exit") {
  // P0 waits twice, P1 once: the second phase completes when P1 has exited ("non-exited threads").
  auto got = barrier_phasings({{sync(0), sync(1)}, {sync(2)}}, kNoUsers);
  CHECK(got == std::set<BarrierPhasing>{{{0, 2}, {1}}});
  // A user that does not arrive but has not exited (it waits at barrier 2 of count 2, alone) blocks it.
  std::map<BarrierKey, std::set<int>> users{{kB1, {0, 1}}};
  CHECK(barrier_phasings({{sync(0, -1, kB1)}, {sync(1, 2, kB2)}}, users).empty());
  // Once that user is released and exits, barrier 1 completes with P0 alone.
  CHECK(barrier_phasings({{sync(0, -1, kB1)}, {sync(1, 2, kB2)}, {sync(2, 2, kB2)}}, users) ==
        std::set<BarrierPhasing>{{{0}, {1, 2}}});
}

TEST_CASE("liveness: orders that leave exactly the marked arrivals waiting") {
  // Three threads at a barrier of count 2, P2's arrival marked as never completing: P0 and P1 complete a phase.
  BarrierArrival stuck = sync(2, 2);
  stuck.never_completes = true;
  auto got = barrier_phasings({{sync(0, 2)}, {sync(1, 2)}, {stuck}}, kNoUsers);
  CHECK(got == std::set<BarrierPhasing>{{{0, 1}}});
  // Two threads at a barrier of count 2, one marked: no order leaves it waiting alone.
  CHECK(barrier_phasings({{sync(0, 2)}, {stuck}}, kNoUsers).empty());
}

// barrier.cluster phases (litmus/build/cluster_barrier_cells.hpp) against ISA 9.7.13.3: "barrier.cluster.wait
// instruction causes the executing thread to wait for all non-exited threads of the cluster to perform
// barrier.cluster.arrive"; "Each thread must arrive at the barrier only once before the barrier completes"; 8.9.4
// item 3: "A barrier.cluster.arrive operation synchronizes with a barrier.cluster.wait operation".
namespace {
// A trace of cluster barrier events: 'a' an arrive, 'w' a wait, in program order.
Trace cluster_trace(const std::string& ops, Trace::End end = Trace::End::done) {
  Trace tr;
  for (char c : ops) {
    TEvent e;
    e.kind = EvKind::barrier;
    e.bar_cluster = true;
    e.bar_arrive = c == 'a';
    tr.events.push_back(e);
  }
  tr.end = end;
  return tr;
}
// The test's threads at (cta, cluster) of gpu 0, their traces numbered one after the other.
struct ClusterCase {
  Program p;
  std::vector<Trace> traces;
  std::optional<ptxcheck::mm::Rel> run() {
    std::vector<const Trace*> ptrs;
    std::vector<int> first;
    int n = 0;
    for (const auto& t : traces) ptrs.push_back(&t), first.push_back(n), n += static_cast<int>(t.events.size());
    return cluster_barrier_syncbar(p, ptrs, first, n);
  }
  ClusterCase(std::vector<std::pair<int, int>> places, std::vector<Trace> ts) : traces(std::move(ts)) {
    for (auto [cta, cluster] : places) {
      Program::Thread th;
      th.cta = cta, th.cluster = cluster;
      p.threads.push_back(th);
    }
  }
};
}  // namespace

TEST_CASE("barrier.cluster: each arrive of a phase pairs with each wait of it, in one cluster only") {
  // P0 (events 0-3) and P1 (4-7) of cluster 0 arrive and wait twice: phase 0 is {0, 4} -> {1, 5}, phase 1 {2, 6} ->
  // {3, 7}. P2 (8-9), in cluster 1, pairs with itself alone.
  ClusterCase c({{0, 0}, {1, 0}, {0, 1}}, {cluster_trace("awaw"), cluster_trace("awaw"), cluster_trace("aw")});
  const auto r = c.run();
  REQUIRE(r);
  std::set<std::pair<int, int>> got;
  for (int a = 0; a < 10; ++a)
    for (int b = 0; b < 10; ++b)
      if (r->has(a, b)) got.emplace(a, b);
  CHECK(got == std::set<std::pair<int, int>>{{0, 1}, {4, 1}, {0, 5}, {4, 5}, {2, 3}, {6, 3}, {2, 7}, {6, 7}, {8, 9}});
}

TEST_CASE("barrier.cluster: an exited thread does not hold a wait back; a stuck one does") {
  // P1 exits without arriving: P0's wait completes with P0's arrival alone.
  ClusterCase exited({{0, 0}, {1, 0}}, {cluster_trace("aw"), cluster_trace("")});
  auto r = exited.run();
  REQUIRE(r);
  CHECK(r->has(0, 1));
  // Liveness: P1 stuck (in a spin loop) before arriving. P0's wait cannot have completed, and it can be stuck.
  ClusterCase held({{0, 0}, {1, 0}}, {cluster_trace("aw"), cluster_trace("", Trace::End::spin)});
  CHECK_FALSE(held.run());
  ClusterCase stuck({{0, 0}, {1, 0}}, {cluster_trace("aw", Trace::End::barrier), cluster_trace("", Trace::End::spin)});
  r = stuck.run();
  REQUIRE(r);
  CHECK(r->empty());  // a wait that never completes synchronizes with nothing
  // With P1 arrived, P0's wait completes: P0 cannot be stuck there.
  ClusterCase released({{0, 0}, {1, 0}}, {cluster_trace("aw", Trace::End::barrier), cluster_trace("a", Trace::End::spin)});
  CHECK_FALSE(released.run());
}
