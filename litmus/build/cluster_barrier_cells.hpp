// The litmus engine's reading of barrier.cluster cells (ISA 9.7.13.3; 8.9.4 item 3, "A barrier.cluster.arrive
// operation synchronizes with a barrier.cluster.wait operation"): each arrive and each wait is a barrier event at
// .cluster scope with the instruction's semantics (ir::cluster_barrier_order: .release / .acquire by default, or
// .relaxed), and in each phase of a cluster's barrier every arrive is paired in `syncbar` with every wait; ptx.cat's
// `sync-barrier` says which pairs synchronize. The race engine's recorder (checker/race/execution_graph_sync.cpp)
// builds the same events and phases from an interpreter run.
#pragma once

#include "litmus/build/threads.hpp"
#include "memmodel/graph/relation.hpp"
#include "semantics/ir/mbarrier_order.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ptxcheck::litmus {

struct ClusterBarrierCell {
  bool arrive = false;           // barrier.cluster.arrive; else barrier.cluster.wait
  ptx::ir::MemoryOrder order;    // its semantics with 9.7.13.3's defaults, at .cluster scope
};

// `barrier.cluster.arrive{.release|.relaxed}{.aligned}` or `barrier.cluster.wait{.acquire}{.aligned}` (9.7.13.3's
// syntax; no operands), or nullopt with the reason.
std::optional<ClusterBarrierCell> decode_cluster_barrier_cell(const Instr& in, std::string& why);

// The event of such a cell.
TEvent cluster_barrier_event(const Instr& in, const ClusterBarrierCell& c);

// The syncbar pairs of the cluster barriers of one choice of traces (graph events first[ti] on of thread ti), or
// nullopt when no execution has these traces. Phases: a thread arrives once per phase and waits for the phase it
// arrived in (the thread builder refuses other orders), so its k-th arrive and k-th wait are of phase k; the
// threads of a cluster are those `.cluster` includes (8.5). A wait completes when every non-exited thread of the
// cluster has arrived (9.7.13.3): with a liveness question's stuck traces, a completed wait needs every thread of the
// cluster with fewer arrivals to have exited, and a wait that stays stuck one such thread that is stuck itself.
std::optional<mm::Rel> cluster_barrier_syncbar(const Program& p, const std::vector<const Trace*>& traces,
                                               const std::vector<int>& first, int n);

}  // namespace ptxcheck::litmus
