// Records one run of a launch on the interpreter as an execution graph of the PTX memory model (the base vocabulary
// of memmodel/models/NOTES.md, built by memmodel/graph/base_graph.hpp): an event per memory access (an atom's read
// and write as two events related by rmw, a red's read in RED), per memory fence, per barrier operation (CTA
// barriers, bar.warp.sync, barrier.cluster), per mbarrier operation (events on the object,
// memmodel/graph/mbarrier_events.hpp) and per bulk copy completing on an mbarrier (memmodel/graph/
// bulk_copy_events.hpp, on an operation thread of its own), with rf, co, syncbar and sync_fence as the
// interpreter's sequentially consistent run chose them. The cat model's
// `data-race` (proofs/models/ptx-race.cat) on that graph is then an independent check of the dynamic engine's
// vector clocks on the same run (tests/unit/race/test_dynamic_model.cpp, docs/race/dynamic-engine.md). The
// explicit evaluator is cubic in the events: for small launches only.
#pragma once

#include "memmodel/graph/base_graph.hpp"
#include "memmodel/graph/mbarrier_events.hpp"
#include "semantics/interp/launch.hpp"
#include "semantics/interp/observer.hpp"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ptxcheck::race {

struct RecordedExecution {
  mm::Execution graph;
  std::vector<const ptx::ir::Instruction*> instruction;  // per event; nullptr for an initial write
  // Non-empty: why the run has no graph (what the vocabulary cannot express, or too many events); graph is empty.
  std::string unsupported;
};

class ExecutionRecorder final : public ptx::interp::Observer {
 public:
  ExecutionRecorder(const ptx::ir::Module& m, const ptx::interp::Launch& l, std::size_t max_events);

  // The graph of the run so far (call after the run).
  RecordedExecution finish() const;

  void allocation(const std::string&, ptx::ir::StateSpace, std::uint64_t, std::uint64_t) override {}
  void access(const ptx::interp::ThreadRef& t, const ptx::interp::MemoryAccess& a) override;
  void fence(const ptx::interp::ThreadRef& t, const ptx::ir::Instruction& ins) override;
  void barrier_arrive(const ptx::interp::ThreadRef& t, std::uint32_t id, const ptx::ir::Instruction& ins, std::uint32_t count) override;
  void barrier_complete(std::uint64_t cta, std::uint32_t id, const std::vector<ptx::interp::ThreadRef>& waiting) override;
  // bar.warp.sync (ISA 9.7.13.2): a barrier phase of its participating threads.
  void warp_sync(const std::vector<ptx::interp::ThreadRef>& threads) override;
  // mbarrier init / arrive-on / test_wait / try_wait as events on the object's counter (mm::mbarrier_events), and
  // barrier.cluster (kClusterBarrierObject) as a barrier phase of the cluster's threads.
  void mbarrier_arrive(const ptx::interp::ThreadRef& t, const ptx::ir::Instruction& ins, std::uint64_t home, std::uint64_t object, std::uint64_t phase) override;
  void mbarrier_wait(const ptx::interp::ThreadRef& t, const ptx::ir::Instruction& ins, std::uint64_t home, std::uint64_t object, std::uint64_t phase) override;
  void mbarrier_wait_incomplete(const ptx::interp::ThreadRef& t, const ptx::ir::Instruction& ins, std::uint64_t home, std::uint64_t object) override;
  void mbarrier_init(const ptx::interp::ThreadRef& t, const ptx::ir::Instruction& ins, std::uint64_t home, std::uint64_t object) override;
  void mbarrier_tx(const ptx::interp::ThreadRef& t, const ptx::ir::Instruction& ins, std::uint64_t home, std::uint64_t object) override;
  // Bulk copies completing on an mbarrier of their CTA (mm::bulk_copy_events, execution_graph_async.cpp): their
  // accesses and complete-tx as the events of an operation thread of their own, ordered after the issue; and
  // fence.proxy.async as a proxy fence event.
  void async_op_issue(std::uint64_t op, const std::vector<ptx::interp::ThreadRef>& issuers, AsyncGroup group, const ptx::ir::Instruction& ins) override;
  void async_op_access(std::uint64_t op, const ptx::interp::MemoryAccess& a) override;
  void async_op_complete_tx(std::uint64_t op, std::uint64_t cta, std::uint64_t object, std::uint64_t phase) override;
  void proxy_fence(const ptx::interp::ThreadRef& t, const ptx::ir::Instruction& ins, ptx::ir::StateSpace space) override;
  // Bulk async-groups (ISA 9.7.9.25.6): a wait_group is a barrier event that the completed copies synchronize with.
  void async_group_commit(const ptx::interp::ThreadRef& t, AsyncGroup group) override;
  void async_group_wait(const ptx::interp::ThreadRef& t, AsyncGroup group, std::uint64_t pending, bool reads_only) override;
  // What the vocabulary has no words for: the record stops with the reason.
  void async_group(const ptx::interp::ThreadRef&, const ptx::ir::Instruction&) override;
  void tcgen05_commit(const ptx::interp::ThreadRef&, std::uint64_t) override { refuse("tcgen05"); }
  void tcgen05_before_thread_sync(const ptx::interp::ThreadRef&) override { refuse("tcgen05"); }
  void tcgen05_after_thread_sync(const ptx::interp::ThreadRef&) override { refuse("tcgen05"); }

 private:
  struct Location {
    std::uint32_t bytes = 0;
    int id = 0;
    int last_write = 0;       // event
    std::vector<int> writes;  // in the order they ran: the initial write first (co)
  };
  void refuse(const std::string& why) {
    if (unsupported_.empty()) unsupported_ = why;
  }
  int thread_index(const ptx::interp::ThreadRef& t);
  // The location of `bytes` bytes at `addr` of `region` (0 global, 1 + CTA-linear id: that CTA's shared memory).
  Location* location(std::uint64_t region, std::uint64_t addr, std::uint32_t bytes);
  int add_event(mm::BaseEvent e, const ptx::ir::Instruction* ins);
  // A read (rf: the latest write of its location) or a write (co: after the location's earlier ones) by `thread`.
  int read_event(int thread, const ptx::ir::Instruction* ins, Location& l, mm::Sem sem, mm::Scope scope, bool rmw, bool red);
  int write_event(int thread, const ptx::ir::Instruction* ins, Location& l, mm::Sem sem, mm::Scope scope, bool rmw);
  void mbarrier_operation(const ptx::interp::ThreadRef& t, const ptx::ir::Instruction& ins, std::uint64_t home, std::uint64_t object);
  // Whether a wait that returned False (instruction `ins` of `thread`, on the object at `home`, `object`) would
  // repeat the thread's latest event: the same instruction's read of the same write, nothing between.
  bool repeats_last_wait(int thread, const ptx::ir::Instruction& ins, std::uint64_t home, std::uint64_t object) const;
  void object_events(int thread, const ptx::ir::Instruction* ins, std::uint64_t home, std::uint64_t object, const mm::MbarrierEvents& ev);
  // The whole locations that `bytes` bytes at `addr` of `region` are: the locations already there, 4-byte ones
  // where none is (a bulk copy's span); empty, refused, where they do not tile it.
  std::vector<Location*> span(std::uint64_t region, std::uint64_t addr, std::uint32_t bytes);
  void cluster_barrier(const ptx::interp::ThreadRef& t, const ptx::ir::Instruction& ins, std::uint64_t home, std::uint64_t phase, bool wait);

  const std::array<std::uint32_t, 3> grid_;
  std::array<std::uint32_t, 3> cluster_{1, 1, 1};
  const std::size_t max_events_;
  std::string unsupported_;
  std::vector<mm::BaseEvent> events_;
  std::vector<const ptx::ir::Instruction*> instruction_;
  std::map<std::uint64_t, int> thread_of_;  // ThreadRef::id -> index into places_
  std::vector<mm::ThreadPlace> places_;
  std::map<std::pair<std::uint64_t, std::uint64_t>, Location> locations_;  // (region, first byte): region 0 global, 1 + CTA shared
  std::vector<std::pair<int, int>> rf_, rmw_;  // (write, read), (read, write)
  std::vector<int> read_from_;                 // per event: the write a read reads, else -1
  std::vector<int> last_of_thread_;            // per thread: its latest event, -1 before its first
  std::vector<int> fence_sc_;                  // fence.sc events in the order they ran (a Fence-SC order, 8.9.3)
  std::map<std::pair<std::uint64_t, std::uint32_t>, std::vector<int>> open_phases_;  // (CTA, barrier) -> arrivals
  std::vector<std::vector<int>> phases_;       // completed barrier phases (CTA barriers, bar.warp.sync)
  std::set<int> waits_;                        // barrier events that wait (not bar.arrive)
  struct ClusterPhase {
    std::vector<int> arrives, waits;  // barrier.cluster.arrive events that release, barrier.cluster.wait events
  };
  std::map<std::pair<std::uint64_t, std::uint64_t>, ClusterPhase> cluster_phases_;  // (rank-0 CTA, phase) ->
  struct BulkCopy {
    int thread = -1;        // its operation thread (an index into places_ of no ThreadRef)
    std::uint64_t cta = 0;  // its issuer's CTA
    const ptx::ir::Instruction* ins = nullptr;
    std::vector<int> waits;  // a bulk_group copy: the wait_group events its completion synchronizes with
  };
  std::map<std::uint64_t, std::vector<std::uint64_t>> bulk_open_;                 // thread id -> uncommitted copies
  std::map<std::uint64_t, std::vector<std::vector<std::uint64_t>>> bulk_groups_;  // thread id -> committed groups
  std::map<std::uint64_t, BulkCopy> copies_;       // recorded bulk copies by operation number
  std::vector<std::pair<int, int>> issues_;         // (issue event in the issuer, first event of the operation)
};

}  // namespace ptxcheck::race
