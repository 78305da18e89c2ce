// The recorder of execution_graph.hpp.
#include "checker/race/execution_graph.hpp"

#include "memmodel/graph/bulk_copy_events.hpp"
#include "semantics/interp/cluster_id.hpp"
#include "semantics/ir/memory_order.hpp"

#include <iterator>

namespace ptxcheck::race {

using ptx::interp::MemoryAccess;
using ptx::interp::ThreadRef;
using ptx::ir::StateSpace;

ExecutionRecorder::ExecutionRecorder(const ptx::ir::Module& m, const ptx::interp::Launch& l, std::size_t max_events)
    : grid_(l.grid), max_events_(max_events) {
  const auto named = m.kernels_named(l.kernel);
  cluster_ = ptx::interp::cluster_shape(l.cluster, named.size() == 1 ? named[0] : nullptr).dims;
}

int ExecutionRecorder::thread_index(const ThreadRef& t) {
  auto [it, fresh] = thread_of_.try_emplace(t.id, static_cast<int>(places_.size()));
  // Every thread is on the one device; a launch without clusters has implicit 1x1x1 ones, whose .cluster scope
  // is the CTA (ISA 2.2.2, 8.5).
  if (fresh)
    places_.push_back(mm::ThreadPlace{static_cast<int>(t.cta), static_cast<int>(ptx::interp::cluster_linear_id(t.ctaid, grid_, cluster_)), 0});
  return it->second;
}

int ExecutionRecorder::add_event(mm::BaseEvent e, const ptx::ir::Instruction* ins) {
  if (events_.size() >= max_events_) refuse("more than " + std::to_string(max_events_) + " events (the explicit evaluator is cubic)");
  if (e.thread >= 0) {
    if (last_of_thread_.size() <= static_cast<std::size_t>(e.thread)) last_of_thread_.resize(static_cast<std::size_t>(e.thread) + 1, -1);
    last_of_thread_[static_cast<std::size_t>(e.thread)] = static_cast<int>(events_.size());
  }
  events_.push_back(e);
  instruction_.push_back(ins);
  read_from_.push_back(-1);
  return static_cast<int>(events_.size()) - 1;
}

// The location an access is, whole (the model's loc relates whole locations; the graph has no bytes): an access of
// other bytes than an earlier one it overlaps has no place in the graph.
ExecutionRecorder::Location* ExecutionRecorder::location(std::uint64_t region, std::uint64_t addr, std::uint32_t bytes) {
  const std::pair<std::uint64_t, std::uint64_t> key{region, addr};
  auto next = locations_.lower_bound(key);
  if (next != locations_.end() && next->first == key) {
    if (next->second.bytes == bytes) return &next->second;
  } else {
    const bool after_prev = next == locations_.begin() || std::prev(next)->first.first != region ||
                            std::prev(next)->first.second + std::prev(next)->second.bytes <= addr;
    const bool before_next = next == locations_.end() || next->first.first != region || addr + bytes <= next->first.second;
    if (after_prev && before_next) {
      Location l;
      l.bytes = bytes;
      l.id = static_cast<int>(locations_.size());
      mm::BaseEvent init;  // the initial write (IW), of no thread
      init.kind = mm::EvKind::write;
      init.loc = init.va = l.id;
      l.last_write = add_event(init, nullptr);
      l.writes.push_back(l.last_write);
      return &locations_.emplace(key, std::move(l)).first->second;
    }
  }
  refuse("accesses of different extents overlap (" + std::string(region ? "shared" : "global") + " byte " + std::to_string(addr) +
         ", " + std::to_string(bytes) + " bytes): the graph has whole locations only");
  return nullptr;
}

int ExecutionRecorder::read_event(int thread, const ptx::ir::Instruction* ins, Location& l, mm::Sem sem, mm::Scope scope, bool rmw, bool red) {
  mm::BaseEvent e;
  e.kind = mm::EvKind::read;
  e.sem = sem;
  e.scope = scope;
  e.thread = thread;
  e.loc = e.va = l.id;
  e.rmw = rmw;
  e.red = red;
  // The run is sequentially consistent: a read reads the latest write to its location before it.
  const int r = add_event(e, ins);
  rf_.emplace_back(l.last_write, r);
  read_from_[static_cast<std::size_t>(r)] = l.last_write;
  return r;
}

int ExecutionRecorder::write_event(int thread, const ptx::ir::Instruction* ins, Location& l, mm::Sem sem, mm::Scope scope, bool rmw) {
  mm::BaseEvent e;
  e.kind = mm::EvKind::write;
  e.sem = sem;
  e.scope = scope;
  e.thread = thread;
  e.loc = e.va = l.id;
  e.rmw = rmw;
  l.last_write = add_event(e, ins);
  l.writes.push_back(l.last_write);  // co: the order the writes ran in
  return l.last_write;
}

void ExecutionRecorder::access(const ThreadRef& t, const MemoryAccess& a) {
  // Local and param memory are private to a thread, const memory is never written by a kernel (as the engine).
  if (a.space != StateSpace::global && a.space != StateSpace::shared) return;
  if (a.async) return refuse("cp.async (ISA 9.7.9.25.3): its copies are ordered by the wait completing their group, no event of ptx.cat");
  if (a.texture) return refuse("texture fetches (the texture proxy)");
  if (a.tensor_memory) return refuse("tensor memory");
  if (!unsupported_.empty()) return;
  Location* l = location(a.space == StateSpace::shared ? 1 + a.owner_cta : 0, a.addr, a.bytes);
  if (!l) return;
  const int thread = thread_index(t);
  const bool atomic = a.kind == MemoryAccess::Kind::atomic || a.kind == MemoryAccess::Kind::reduction;
  const ptx::ir::MemoryOrder order = ptx::ir::access_order(a.ins->q, atomic);
  const mm::Sem sem = mm::sem_of(order.sem);
  const mm::Scope scope = order.strong ? mm::scope_of(order.scope) : mm::Scope::none;
  switch (a.kind) {
    case MemoryAccess::Kind::read: read_event(thread, a.ins, *l, sem, scope, false, false); return;
    case MemoryAccess::Kind::write: write_event(thread, a.ins, *l, sem, scope, false); return;
    case MemoryAccess::Kind::atomic:
    case MemoryAccess::Kind::reduction: {
      const auto sems = mm::rmw_sems(sem);
      if (!sems) return refuse("an atomic with semantics other than relaxed, acquire, release, acq_rel");
      const bool red = a.kind == MemoryAccess::Kind::reduction;
      // (A cas whose compare failed only reads: no RMW pair, as the litmus builder has it.)
      const bool wrote = a.kind == MemoryAccess::Kind::reduction || a.wrote;
      const int r = read_event(thread, a.ins, *l, sems->read, scope, wrote, red);
      if (!wrote) return;
      rmw_.emplace_back(r, write_event(thread, a.ins, *l, sems->write, scope, true));
      return;
    }
  }
}

void ExecutionRecorder::fence(const ThreadRef& t, const ptx::ir::Instruction& ins) {
  // fence.mbarrier_init and the .sync_restrict fences order a class of operations only (ISA 9.7.13.4), which an
  // event of the graph cannot say: no event, as the dynamic engine reads them (ir::fence_order), ordering less.
  if (ins.q.has(ptx::ir::Flag::mbarrier_init) || ins.q.has(ptx::ir::Flag::sync_restrict_shared_cta) ||
      ins.q.has(ptx::ir::Flag::sync_restrict_shared_cluster))
    return;
  const auto m = ptx::ir::fence_order(ins);
  if (!m) return refuse("a fence that is no memory fence (" + ptx::ir::opcode_text(ins) + ")");
  mm::BaseEvent e;
  e.kind = mm::EvKind::fence;
  e.sem = mm::sem_of(m->sem);
  e.scope = mm::scope_of(m->scope);
  e.thread = thread_index(t);
  const int f = add_event(e, &ins);
  if (m->sem == ptx::ir::MemorySemantics::sc) fence_sc_.push_back(f);
}

void ExecutionRecorder::barrier_arrive(const ThreadRef& t, std::uint32_t id, const ptx::ir::Instruction& ins, std::uint32_t) {
  const bool arrive = ins.q.has(ptx::ir::Flag::arrive);
  mm::BaseEvent e;
  e.kind = mm::EvKind::barrier;
  e.sem = mm::barrier_sem(arrive);
  e.scope = mm::Scope::cta;
  e.thread = thread_index(t);
  const int b = add_event(e, &ins);
  if (!arrive) waits_.insert(b);
  open_phases_[{t.cta, id}].push_back(b);
}

// One phase of the barrier is over: its arrivals synchronize with its waiting ones (finish, 8.9.4 item 2). A phase
// the run ends in never completes and synchronizes nothing.
void ExecutionRecorder::barrier_complete(std::uint64_t cta, std::uint32_t id, const std::vector<ThreadRef>&) {
  auto it = open_phases_.find({cta, id});
  if (it == open_phases_.end()) return;
  phases_.push_back(std::move(it->second));
  open_phases_.erase(it);
}

RecordedExecution ExecutionRecorder::finish() const {
  RecordedExecution out;
  out.unsupported = unsupported_;
  if (!out.unsupported.empty()) return out;
  // The completion of each bulk_group copy a wait_group waited for, at the end of its operation thread
  // (async_group_wait): the implicit proxy fence (9.7.9.25.2), then a barrier event releasing to the waits.
  std::vector<mm::BaseEvent> events = events_;
  out.instruction = instruction_;
  std::vector<std::pair<int, int>> completions;  // (completion event, wait_group event)
  for (const auto& [op, c] : copies_) {
    if (c.waits.empty()) continue;
    for (const mm::BaseEvent& e : mm::bulk_completion_events(c.thread)) events.push_back(e);
    out.instruction.insert(out.instruction.end(), 2, c.ins);
    for (int w : c.waits) completions.emplace_back(static_cast<int>(events.size()) - 1, w);
  }
  if (events.size() > max_events_) {
    out.unsupported = "more than " + std::to_string(max_events_) + " events (the explicit evaluator is cubic)";
    return out;
  }
  out.graph = mm::base_execution(events, places_, rmw_);
  mm::Execution& x = out.graph;
  for (auto [done, wait] : completions) mm::add_split_barrier_phase(x.rels["syncbar"], {done}, {wait});
  for (auto [w, r] : rf_) x.rels["rf"].add(w, r);
  for (const auto& [key, l] : locations_)
    for (std::size_t i = 0; i < l.writes.size(); ++i)
      for (std::size_t j = i + 1; j < l.writes.size(); ++j) x.rels["co"].add(l.writes[i], l.writes[j]);
  for (const auto& phase : phases_) mm::add_barrier_phase(x.rels["syncbar"], phase, [&](int b) { return waits_.count(b) > 0; });
  for (const auto& [key, phase] : cluster_phases_) mm::add_split_barrier_phase(x.rels["syncbar"], phase.arrives, phase.waits);
  for (auto [issue, start] : issues_) mm::add_split_barrier_phase(x.rels["syncbar"], {issue}, {start});
  x.rels["sync_fence"] = mm::fence_sc_order(fence_sc_, x.rels.at("sr"));
  for (int i = 0; i < x.n; ++i) {
    const mm::BaseEvent& e = events[static_cast<std::size_t>(i)];
    const char* kind = e.kind == mm::EvKind::read ? "R" : e.kind == mm::EvKind::write ? "W" : e.kind == mm::EvKind::fence ? "F" : "B";
    const std::string who = e.thread < 0 ? "init" : "T" + std::to_string(e.thread);
    std::string where = e.loc >= 0 ? " loc" + std::to_string(e.loc) : "";
    x.labels.push_back("e" + std::to_string(i) + ": " + who + " " + kind + where +
                       (out.instruction[static_cast<std::size_t>(i)] ? " (" + ptx::ir::opcode_text(*out.instruction[static_cast<std::size_t>(i)]) + ")" : ""));
  }
  return out;
}

}  // namespace ptxcheck::race
