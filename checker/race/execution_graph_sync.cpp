// The recorder's synchronization beyond CTA barriers and fences (execution_graph.hpp): mbarrier operations,
// barrier.cluster and bar.warp.sync, and the asynchronous operations it refuses, with why.
#include "checker/race/execution_graph.hpp"

#include "memmodel/graph/mbarrier_events.hpp"

namespace ptxcheck::race {

using ptx::interp::ThreadRef;
using ptx::ir::Instruction;

// ISA 9.7.13.2: "bar.warp.sync also guarantee memory ordering among threads participating in barrier". Chapter 8
// has no item for it; the graph gives it 8.9.4 item 2's reading of a bar.sync whose phase is the participating
// threads: one barrier event per thread that both arrives and waits (at CTA scope: a warp's threads are of one
// CTA), each synchronizing with the others'. The interpreter reports the phase when it completes, when every
// participant waits at the instruction and has done nothing since arriving: the event's place in each thread's
// program order is exact.
void ExecutionRecorder::warp_sync(const std::vector<ThreadRef>& threads) {
  std::vector<int> phase;
  for (const auto& t : threads) {
    mm::BaseEvent e;
    e.kind = mm::EvKind::barrier;
    e.sem = mm::barrier_sem(false);
    e.scope = mm::Scope::cta;
    e.thread = thread_index(t);
    const int b = add_event(e, nullptr);
    waits_.insert(b);
    phase.push_back(b);
  }
  phases_.push_back(std::move(phase));
}

// ISA 9.7.13.3 and 8.9.4 item 3 ("A barrier.cluster.arrive operation synchronizes with a barrier.cluster.wait
// operation"): a barrier event per arrive and per wait, at .cluster scope; in each phase (the interpreter's phase
// of the cluster's barrier) every arrive synchronizes with every wait, except a .relaxed arrive: "there are no
// memory ordering and visibility guarantees provided for the memory accesses performed prior to
// barrier.cluster.arrive". The wait's .acquire is the only semantics it has. Chapter 8 does not make
// barrier.cluster.arrive a memory operation, so a release fence before a .relaxed arrive forms no release pattern
// with it (8.8 form 3 needs a strong write); the dynamic engine reads it the same way.
void ExecutionRecorder::cluster_barrier(const ThreadRef& t, const Instruction& ins, std::uint64_t home, std::uint64_t phase, bool wait) {
  const bool relaxed = ins.q.semantics == ptx::ir::MemorySemantics::relaxed;
  mm::BaseEvent e;
  e.kind = mm::EvKind::barrier;
  e.sem = wait ? mm::Sem::acquire : relaxed ? mm::Sem::relaxed : mm::Sem::release;  // (a barrier is in no ACQ / REL)
  e.scope = mm::Scope::cluster;
  e.thread = thread_index(t);
  const int b = add_event(e, &ins);
  ClusterPhase& p = cluster_phases_[{home, phase}];
  if (wait) p.waits.push_back(b);
  else if (!relaxed) p.arrives.push_back(b);
}

// An mbarrier operation on the object at shared offset `object` of CTA `home`: its events on the object's counter
// (mm::mbarrier_events, the litmus builder's reading), the read's value the latest write before it (the run is
// sequentially consistent), an arrive-on's read and write an RMW pair.
void ExecutionRecorder::mbarrier_operation(const ThreadRef& t, const Instruction& ins, std::uint64_t home, std::uint64_t object) {
  if (!tx_count_.empty()) return refuse(tx_count_);
  const ptx::ir::MbarrierOp op = ptx::ir::mbarrier_op(ins);
  if (op == ptx::ir::MbarrierOp::copy_arrive)
    return refuse("cp.async (cp.async.mbarrier.arrive: an arrive-on ordered after the thread's cp.async copies only, ISA 8.9.1.1)");
  const auto ev = mm::mbarrier_events(op, ptx::ir::mbarrier_order(ins).value_or(ptx::ir::MemoryOrder{}));
  if (!ev) return refuse("mbarrier (" + ptx::ir::opcode_text(ins) + ") has no reading as memory events");
  if (!unsupported_.empty()) return;
  Location* l = location(1 + home, object, 8);  // the object: a .b64 in shared memory (9.7.13.15.1)
  if (!l) return;
  const int thread = thread_index(t);
  const bool rmw = ev->read && ev->write;
  const int r = ev->read ? read_event(thread, &ins, *l, *ev->read, ev->scope, rmw, false) : -1;
  const int w = ev->write ? write_event(thread, &ins, *l, *ev->write, ev->scope, rmw) : -1;
  if (rmw) rmw_.emplace_back(r, w);
}

void ExecutionRecorder::mbarrier_arrive(const ThreadRef& t, const Instruction& ins, std::uint64_t home, std::uint64_t object, std::uint64_t phase) {
  if (object == ptx::interp::kClusterBarrierObject) return cluster_barrier(t, ins, home, phase, false);
  mbarrier_operation(t, ins, home, object);
}

void ExecutionRecorder::mbarrier_wait(const ThreadRef& t, const Instruction& ins, std::uint64_t home, std::uint64_t object, std::uint64_t phase) {
  if (object == ptx::interp::kClusterBarrierObject) return cluster_barrier(t, ins, home, phase, true);
  mbarrier_operation(t, ins, home, object);
}

// A wait that returned False read the object too (an .acquire one is an acquire operation all the same, as the
// litmus builder reads 8.8; memmodel/models/NOTES.md).
void ExecutionRecorder::mbarrier_wait_incomplete(const ThreadRef& t, const Instruction& ins, std::uint64_t home, std::uint64_t object) {
  mbarrier_operation(t, ins, home, object);
}

void ExecutionRecorder::mbarrier_init(const ThreadRef& t, const Instruction& ins, std::uint64_t home, std::uint64_t object) {
  mbarrier_operation(t, ins, home, object);
}

// cp.async (9.7.9.25.3): its copies are ordered with nothing of their thread but the wait_group completing their
// group (8.9.1.1); ptx.cat has no event for that completion.
void ExecutionRecorder::async_group(const ThreadRef&, const Instruction&) {
  refuse("cp.async groups (ISA 9.7.9.25.3): their completion at a wait_group is no event of ptx.cat");
}

// Bulk copies, st.async / red.async, wgmma, tcgen05 (8.9.1.1): "not part of the program order" of their thread,
// they are ordered with later accesses by their completion (an mbarrier's complete-tx, 9.7.9.25.4.1; a
// wait_group, 9.7.9.25.6.2), for which ptx.cat has no words: memmodel/models/NOTES.md ("Async proxy") reads a
// bulk copy only as the last memory instruction of its thread, and tx-count not at all.
void ExecutionRecorder::async_op_issue(std::uint64_t, const std::vector<ThreadRef>&, AsyncGroup, const Instruction& ins) {
  std::string kind = ptx::ir::opcode_text(ins);  // its first three words: cp.async.bulk, st.async, wgmma.mma_async...
  for (std::size_t at = 0, words = 0; at < kind.size(); ++at)
    if (kind[at] == '.' && ++words == 3) kind.resize(at);
  refuse("asynchronous operations (" + kind + "): their completion ordering (mbarrier complete-tx, wait_group) is no event of ptx.cat");
}

// A proxy fence is PROXYF in the graph, but it comes before the asynchronous operations it orders, which are
// refused above: finish() refuses a run with one only when nothing else was (so that the reason is the
// operations').
void ExecutionRecorder::proxy_fence(const ThreadRef&, const Instruction&, ptx::ir::StateSpace) { proxy_fenced_ = true; }

}  // namespace ptxcheck::race
