// Barrier phases (ISA 9.7.13.1): which arrivals complete a barrier together, over every order in which the
// threads can arrive. A barrier completes when its count of arrivals is reached (without a count: when every
// thread that uses it has arrived or has exited), then "is reinitialized so that it can be immediately reused":
// later arrivals belong to the next phase. bar.sync waits for its phase to complete; bar.arrive does not. An
// order of arrivals is an execution only if no thread is left waiting: arrivals beyond the last full phase, a
// thread arriving twice at a phase it waits for, and barriers waited for crosswise all leave one waiting.
#pragma once

#include <map>
#include <set>
#include <stdexcept>
#include <tuple>
#include <vector>

namespace ptxcheck::litmus {

using BarrierKey = std::tuple<int, int, int>;  // (the CTA's lowest thread index, barrier id, instance)

struct BarrierArrival {
  int event = -1;  // the arrival's event index in the candidate graph
  BarrierKey key;
  int count = -1;  // the count operand; -1: every thread that uses the barrier (this dialect's reading)
  bool waits = true;  // bar.sync / barrier.sync; false for bar.arrive
  bool never_completes = false;  // liveness: the thread's last arrival, at a phase that must never complete
};

// Each phase: the events of the arrivals that completed it together, sorted; a phasing: its phases, sorted.
using BarrierPhasing = std::vector<std::vector<int>>;

// Thrown when the orders of arrival are too many to explore (the test is then unknown with this reason).
struct BarrierPhaseLimit : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// per_thread[t]: thread t's arrivals in program order. Every distinct phasing of an order of arrival after which
// exactly the threads whose last arrival never_completes are left waiting, there (none: the executions that
// terminate); empty when there is no such order.
// users: per barrier, the threads a barrier without a count waits for (those arriving in per_thread when absent).
std::set<BarrierPhasing> barrier_phasings(const std::vector<std::vector<BarrierArrival>>& per_thread,
                                          const std::map<BarrierKey, std::set<int>>& users);

}  // namespace ptxcheck::litmus
