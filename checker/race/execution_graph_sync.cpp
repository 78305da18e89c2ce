// The recorder's synchronization beyond CTA barriers and fences (execution_graph.hpp): mbarrier operations,
// barrier.cluster and bar.warp.sync (asynchronous operations: execution_graph_async.cpp).
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
// operation"): a barrier event per arrive and per wait, at .cluster scope, with the instruction's semantics
// (ir::cluster_barrier_order, the litmus builder's reading); in each phase (the interpreter's phase of the cluster's
// barrier) every arrive is paired with every wait, and ptx.cat's `sync-barrier` says which pairs synchronize (not a
// .relaxed arrive's). Chapter 8 does not make barrier.cluster.arrive a memory operation, so a release fence before a
// .relaxed arrive forms no release pattern with it (8.8 form 3 needs a strong write); the dynamic engine reads it
// the same way.
void ExecutionRecorder::cluster_barrier(const ThreadRef& t, const Instruction& ins, std::uint64_t home, std::uint64_t phase, bool wait) {
  const ptx::ir::MemoryOrder order = ptx::ir::cluster_barrier_order(ins).value_or(ptx::ir::MemoryOrder{});
  mm::BaseEvent e;
  e.kind = mm::EvKind::barrier;
  e.sem = mm::sem_of(order.sem);  // (a barrier is in no ACQ / REL)
  e.scope = mm::Scope::cluster;
  e.thread = thread_index(t);
  const int b = add_event(e, &ins);
  ClusterPhase& p = cluster_phases_[{home, phase}];
  (wait ? p.waits : p.arrives).push_back(b);
}

// An mbarrier operation on the object at shared offset `object` of CTA `home`: its events on the object's counter
// (mm::mbarrier_events, the litmus builder's reading). An arrive.expect_tx is the one RMW of its expect-tx and
// arrive-on (9.7.13.15.13); the tx-count it changes is in the object's value (litmus/build/mbarrier_counter.hpp),
// which the graph needs no more than any other value: the run chose what each read reads.
void ExecutionRecorder::mbarrier_operation(const ThreadRef& t, const Instruction& ins, std::uint64_t home, std::uint64_t object) {
  const ptx::ir::MbarrierOp op = ptx::ir::mbarrier_op(ins);
  if (op == ptx::ir::MbarrierOp::copy_arrive)
    return refuse("cp.async (cp.async.mbarrier.arrive: an arrive-on ordered after the thread's cp.async copies only, ISA 8.9.1.1)");
  const auto ev = mm::mbarrier_events(op, ptx::ir::mbarrier_order(ins).value_or(ptx::ir::MemoryOrder{}));
  if (!ev) return refuse("mbarrier (" + ptx::ir::opcode_text(ins) + ") has no reading as memory events");
  object_events(thread_index(t), &ins, home, object, *ev);
}

// The events `ev` of `thread` on the object at shared offset `object` of CTA `home`: the read's value the latest
// write before it (the run is sequentially consistent), a read and a write an RMW pair.
void ExecutionRecorder::object_events(int thread, const Instruction* ins, std::uint64_t home, std::uint64_t object, const mm::MbarrierEvents& ev) {
  if (!unsupported_.empty()) return;
  Location* l = location(1 + home, object, 8);  // the object: a .b64 in shared memory (9.7.13.15.1)
  if (!l) return;
  const bool rmw = ev.read && ev.write;
  const int r = ev.read ? read_event(thread, ins, *l, *ev.read, ev.scope, rmw, false) : -1;
  const int w = ev.write ? write_event(thread, ins, *l, *ev.write, ev.scope, rmw) : -1;
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
// litmus builder reads 8.8; memmodel/models/NOTES.md). A try_wait loop spins: a read that repeats the thread's
// previous event (the same wait reading the same write) is left out. It would synchronize with what that one does
// (8.9.4 item 4 depends on the write read, the instruction and the thread) and precede in program order what that
// one precedes, so every other pair's causality order is the same without it; its own conflicts are with writes of
// the object, mbarrier operations, which the comparison counts apart. Spin loops would otherwise fill the graph
// past the evaluator's size.
void ExecutionRecorder::mbarrier_wait_incomplete(const ThreadRef& t, const Instruction& ins, std::uint64_t home, std::uint64_t object) {
  if (unsupported_.empty() && repeats_last_wait(thread_index(t), ins, home, object)) return;
  mbarrier_operation(t, ins, home, object);
}

bool ExecutionRecorder::repeats_last_wait(int thread, const Instruction& ins, std::uint64_t home, std::uint64_t object) const {
  const auto l = locations_.find({1 + home, object});
  if (l == locations_.end() || static_cast<std::size_t>(thread) >= last_of_thread_.size()) return false;
  const int last = last_of_thread_[static_cast<std::size_t>(thread)];
  if (last < 0) return false;
  const auto at = static_cast<std::size_t>(last);
  return events_[at].kind == mm::EvKind::read && events_[at].loc == l->second.id && instruction_[at] == &ins &&
         read_from_[at] == l->second.last_write;
}

// mbarrier.expect_tx / complete_tx (9.7.13.15.11-12): "a relaxed operation", an RMW of the object at its .scope.
// Neither section states a default scope; the litmus builder takes .cta where every thread on the object is of one
// CTA (memmodel/models/NOTES.md): here, where the thread is of the object's CTA, and refuses otherwise.
void ExecutionRecorder::mbarrier_tx(const ThreadRef& t, const Instruction& ins, std::uint64_t home, std::uint64_t object) {
  if (!ins.q.scope && t.cta != home)
    return refuse(ptx::ir::opcode_text(ins) + " without .scope on another CTA's object (ISA 9.7.13.15.11-12 state no default)");
  ptx::ir::MemoryOrder order;
  order.strong = true;
  order.sem = ptx::ir::MemorySemantics::relaxed;
  order.scope = ins.q.scope.value_or(ptx::ir::Scope::cta);
  const auto ev = mm::mbarrier_events(ptx::ir::mbarrier_op(ins), order);
  if (!ev) return refuse("mbarrier (" + ptx::ir::opcode_text(ins) + ") has no reading as memory events");
  object_events(thread_index(t), &ins, home, object, *ev);
}

void ExecutionRecorder::mbarrier_init(const ThreadRef& t, const Instruction& ins, std::uint64_t home, std::uint64_t object) {
  mbarrier_operation(t, ins, home, object);
}

}  // namespace ptxcheck::race
