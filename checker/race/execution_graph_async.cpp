// The recorder's asynchronous operations (execution_graph.hpp): bulk copies completing on an mbarrier, proxy
// fences, and the asynchronous operations it refuses, with why.
#include "checker/race/execution_graph.hpp"

#include "memmodel/graph/bulk_copy_events.hpp"

namespace ptxcheck::race {

using ptx::interp::MemoryAccess;
using ptx::interp::ThreadRef;
using ptx::ir::Instruction;
using ptx::ir::StateSpace;

namespace {
// Why the recorder has no events for asynchronous operation `ins` of `group`; empty: a bulk copy it records, one
// completing on an mbarrier (9.7.9.25.4.1, 9.7.9.25.5.2) or in a bulk async-group (9.7.9.25.6), whose shared-memory
// accesses stay in its CTA (checked at each access).
std::string refusal(const Instruction& ins, ptx::interp::Observer::AsyncGroup group) {
  const std::string text = ptx::ir::opcode_text(ins);
  std::string kind = text;  // its first three words: cp.async.bulk, st.async, wgmma.mma_async...
  for (std::size_t at = 0, words = 0; at < kind.size(); ++at)
    if (kind[at] == '.' && ++words == 3) kind.resize(at);
  const bool in_group = kind == "cp.async.bulk" && group == ptx::interp::Observer::AsyncGroup::bulk;
  if (kind.rfind("st.async", 0) == 0 || kind.rfind("red.async", 0) == 0)
    return "st.async / red.async (ISA 9.7.9.12, 9.7.13.7): their complete-tx is on the destination CTA's mbarrier, whose "
           "waits, .cta by default, chapter 8 would make morally strong with no operation of the issuing CTA (8.7); not "
           "recorded";
  if (kind.rfind("clusterlaunchcontrol", 0) == 0)
    return "clusterlaunchcontrol.try_cancel (ISA 9.7.13.17): the semantics and scope of its complete-tx are not stated";
  if (!in_group && (kind != "cp.async.bulk" || !ins.q.has(ptx::ir::Flag::mbarrier_complete_tx_bytes)))
    return "asynchronous operations (" + kind + "): their completion (wait_group, commit) is no event of ptx.cat";
  if (ins.q.has_word("multicast::cluster"))
    return "bulk copies with .multicast::cluster (ISA 9.7.9.25.4.1): they write other CTAs' shared memory, where chapter 8 "
           "leaves async-proxy ordering open (8.9.5 item 2: \"by the same thread block\"; memmodel/models/NOTES.md)";
  if (ins.q.has_word("cp_mask"))
    return "bulk copies with .cp_mask (ISA 9.7.9.25.4.1): the interpreter reports the whole span, the mask writes some bytes";
  return {};
}
}  // namespace

// 8.9.1.1: an asynchronous operation is "ordered after prior instructions in the same thread", but "not part of the
// program order for that thread". So its events are those of an operation thread of its own at its issuer's place
// (mm::bulk_copy_events: the copy's weak async-proxy reads and writes, the implicit proxy fence, the complete-tx),
// and the issue is a barrier event of the issuer synchronizing with a barrier event that starts the operation
// thread (a split-barrier edge, 8.9.4 item 3, in syncbar): what precedes the issue in base causality precedes the
// copy. The release of the complete-tx then carries that too, which 8.9.1.1 denies ("it does not transitively
// establish ordering with respect to prior instructions from the issuing thread"): the dynamic engine reads it the
// same way (dynamic.cpp `completed`), so the comparison is of like with like; memmodel/models/NOTES.md says where
// the litmus builder refuses instead.
void ExecutionRecorder::async_op_issue(std::uint64_t op, const std::vector<ThreadRef>& issuers, AsyncGroup group, const Instruction& ins) {
  const std::string why = refusal(ins, group);
  if (!why.empty()) return refuse(why);
  if (!unsupported_.empty()) return;
  const ThreadRef& t = issuers.at(0);
  const int issuer = thread_index(t);
  BulkCopy c;
  c.cta = t.cta;
  c.ins = &ins;
  c.thread = static_cast<int>(places_.size());
  const mm::ThreadPlace place = places_[static_cast<std::size_t>(issuer)];
  places_.push_back(place);
  const int a = add_event(mm::async_edge_from(issuer), &ins);
  issues_.emplace_back(a, add_event(mm::async_edge_to(c.thread), &ins));
  copies_[op] = c;
  if (group == AsyncGroup::bulk) bulk_open_[t.id].push_back(op);
}

// The locations a span covers (a bulk copy's source or destination): those already recorded where they start,
// 4-byte ones elsewhere (the kernels' element size; an access of another extent later is refused by location()).
std::vector<ExecutionRecorder::Location*> ExecutionRecorder::span(std::uint64_t region, std::uint64_t addr, std::uint32_t bytes) {
  std::vector<Location*> out;
  for (std::uint64_t at = addr, end = addr + bytes; at < end;) {
    const auto known = locations_.find({region, at});
    const std::uint64_t piece = known != locations_.end() ? known->second.bytes : std::min<std::uint64_t>(4, end - at);
    Location* l = location(region, at, static_cast<std::uint32_t>(std::min(piece, end - at)));
    if (!l) return {};
    out.push_back(l);
    at += l->bytes;
  }
  return out;
}

// A copy's read of its source or write of its destination: weak, in the async proxy, one event per location.
void ExecutionRecorder::async_op_access(std::uint64_t op, const MemoryAccess& a) {
  const auto it = copies_.find(op);
  if (it == copies_.end() || !unsupported_.empty()) return;
  if (a.space != StateSpace::global && a.space != StateSpace::shared) return refuse("a bulk copy outside global and shared memory");
  if (a.space == StateSpace::shared && a.owner_cta != it->second.cta)
    return refuse("a bulk copy into or out of another CTA's shared memory (ISA 9.7.9.25.4.1 .shared::cluster): chapter 8 leaves "
                  "async-proxy ordering across CTAs open (8.9.5 item 2; memmodel/models/NOTES.md, \"Async proxy\")");
  if (a.kind != MemoryAccess::Kind::read && a.kind != MemoryAccess::Kind::write) return refuse("a bulk reduction (cp.reduce.async.bulk)");
  const bool write = a.kind == MemoryAccess::Kind::write;
  for (Location* l : span(a.space == StateSpace::shared ? 1 + a.owner_cta : 0, a.addr, a.bytes)) {
    const int e = write ? write_event(it->second.thread, a.ins, *l, mm::kBulkCopySem, mm::Scope::none, false)
                        : read_event(it->second.thread, a.ins, *l, mm::kBulkCopySem, mm::Scope::none, false, false);
    events_[static_cast<std::size_t>(e)].proxy = mm::kBulkCopyProxy;
  }
}

// The copy is complete: the implicit generic-async proxy fence, then the complete-tx's RMW on the object
// (mm::bulk_copy_events).
void ExecutionRecorder::async_op_complete_tx(std::uint64_t op, std::uint64_t cta, std::uint64_t object, std::uint64_t) {
  const auto it = copies_.find(op);
  if (it == copies_.end() || !unsupported_.empty()) return;
  if (cta != it->second.cta) return refuse("a bulk copy completing on another CTA's mbarrier (ISA 9.7.9.25.4.1 .shared::cluster)");
  add_event(mm::async_proxy_fence(it->second.thread), it->second.ins);
  object_events(it->second.thread, it->second.ins, cta, object, mm::bulk_complete_tx_events());
}

// fence.proxy.async{.space} (9.7.13.4): a proxy fence event of the async proxy. The graph's locations have no state
// space, so a .global or .shared::cta fence is read as ordering both, where the dynamic engine orders the one named
// (a kernel whose fence names the wrong space would show a disagreement).
void ExecutionRecorder::proxy_fence(const ThreadRef& t, const Instruction& ins, StateSpace) {
  add_event(mm::async_proxy_fence(thread_index(t)), &ins);
}

void ExecutionRecorder::async_group_commit(const ThreadRef& t, AsyncGroup group) {
  if (group != AsyncGroup::bulk) return;
  bulk_groups_[t.id].push_back(std::move(bulk_open_[t.id]));
  bulk_open_[t.id].clear();
}

// cp.async.bulk.wait_group N (9.7.9.25.6.2): every group of the thread but the N newest is complete. The wait is a
// barrier event of the thread (acquire side of a split barrier); each copy of those groups synchronizes with it
// from the end of its operation thread, after the implicit proxy fence of its completion (9.7.9.25.2), events that
// finish() appends (the interpreter completes the copies after the observer hears of the wait). .read completes
// the copies' reads only: the graph would need an event of that completion inside the operation, before its
// writes, which the interpreter does not report apart.
void ExecutionRecorder::async_group_wait(const ThreadRef& t, AsyncGroup group, std::uint64_t pending, bool reads_only) {
  if (group != AsyncGroup::bulk || !unsupported_.empty()) return;
  auto& groups = bulk_groups_[t.id];
  const std::size_t done = groups.size() > pending ? groups.size() - pending : 0;
  if (done == 0) return;
  if (reads_only) return refuse("cp.async.bulk.wait_group.read (ISA 9.7.9.25.6.2): the completion of a copy's reads alone is not reported");
  const int w = add_event(mm::async_edge_to(thread_index(t)), nullptr);
  for (std::size_t k = 0; k < done; ++k)
    for (std::uint64_t op : groups[k])
      if (auto it = copies_.find(op); it != copies_.end()) it->second.waits.push_back(w);
  groups.erase(groups.begin(), groups.begin() + static_cast<std::ptrdiff_t>(done));
}

// cp.async (9.7.9.25.3): its copies are ordered with nothing of their thread but the wait_group completing their
// group (8.9.1.1); ptx.cat has no event for that completion.
void ExecutionRecorder::async_group(const ThreadRef&, const Instruction&) {
  refuse("cp.async groups (ISA 9.7.9.25.3): their completion at a wait_group is no event of ptx.cat");
}

}  // namespace ptxcheck::race
