// Barrier phases (litmus/enumerate/barrier_phases.hpp) against ISA 9.7.13.1, each expectation worked out by
// hand from the text: "Operand b specifies the number of threads participating in the barrier", bar.sync waits,
// bar.arrive does not, and "When a barrier completes ... the barrier is reinitialized so that it can be
// immediately reused".
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
