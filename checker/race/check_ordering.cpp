// Orderings a kernel's pair check (kernel_check.hpp) does not model: fences, release/acquire operations, partial
// barriers and strong reads between two accesses make a race only possible (strength.hpp may_order).
#include "checker/race/kernel_check.hpp"
#include "checker/race/model_rules.hpp"
#include "semantics/ops/memory_access.hpp"

namespace ptxcheck::race {
using ptx::ir::Opcode;

namespace {

// An instruction that may order memory between threads beyond what the barrier intervals model: a fence, a
// release/acquire operation (ISA 8.8), and a barrier other than the unguarded CTA-wide and full-mask warp ones
// (bar.arrive, a thread count other than the CTA's, a guard, a partial mask: they synchronize their participants,
// 8.9.4 item 2).
bool may_synchronize(const ptx::ir::Instruction& in) {
  if (in.op == Opcode::fence_ || in.op == Opcode::membar_) return true;
  // mbarrier arrive-ons that release and waits that acquire (ISA 9.7.13.15.13-16, as the model says:
  // model_rules.hpp); cp.async.mbarrier.arrive completes copies (9.7.13.15.15).
  switch (ptx::ir::mbarrier_op(in)) {
    case ptx::ir::MbarrierOp::none: break;
    case ptx::ir::MbarrierOp::copy_arrive: return true;
    case ptx::ir::MbarrierOp::arrive: return barrier_arrive_releases(in);
    case ptx::ir::MbarrierOp::wait: return barrier_wait_acquires(in);
    default: return false;  // init, inval, expect_tx, complete_tx, pending_count: no ordering
  }
  // A CTA barrier operation synchronizes when the model says its arrival releases or its wait acquires (8.9.4 item 2).
  if (ptx::ir::cta_barrier_operands(in))
    return !separating_cta_barrier(in) && (barrier_arrive_releases(in) || barrier_wait_acquires(in));
  if (in.op == Opcode::bar_ || in.op == Opcode::barrier_) return !warp_barrier(in);
  return (in.op == Opcode::ld_ || in.op == Opcode::st_ || in.op == Opcode::atom_ || in.op == Opcode::red_) &&
         (acquire_operation(in) || release_operation(in));
}

// A strong read (ISA 8.4: a strong ld, or an atom/red, which reads as it writes): one that observes another
// thread's strong write orders that write before what follows the read in program order (8.9.5, causality order
// item 2; observation order, 8.9.2, also runs through atomics), with no fence or release/acquire on either side.
bool strong_read(const ptx::ir::Instruction& in) {
  const auto m = ptx::ops::memory_access(in);
  return m && (m->atomic() || (m->kind == ptx::ops::AccessKind::load && m->order.strong));
}

}  // namespace

void KernelCheck::mark_orderings() {
  // Orderings this engine does not model (may_order, strength.hpp; synchronizing instructions are those of
  // may_synchronize, the grid sync's counter being modelled as a barrier and single-phase named barriers' operations
  // as named_barriers.hpp says).
  // sync_after[i]: a synchronizing instruction is reachable from i; "before y": y is reachable from a
  // synchronizing instruction (y included) or from the successor of a strong read that may access x's allocation,
  // in the CFG with its back edges (every iteration: sync_before, strong_reads_of(x).before) or only in the first
  // iteration of the loops around y (marked_before_first_iteration).
  syncs.assign(f.body.size(), false);
  sync_after.assign(f.body.size(), false);
  sync_before.assign(f.body.size(), false);
  {
    std::vector<std::uint32_t> sync_list;
    for (std::uint32_t i = 0; i < f.body.size(); ++i)
      if (may_synchronize(f.body[i]) && !grid_counter.count(i) && !phases.models(i)) { syncs[i] = true; sync_list.push_back(i); }
    mark_reachable(prep.cfg, sync_list, sync_before, true);
    mark_reachable(prep.cfg, sync_list, sync_after, false);
  }
  for (std::uint32_t i = 0; i < f.body.size(); ++i)
    if (strong_read(f.body[i])) read_object[i] = -1;
  for (const auto& acc : T1.accesses)
    if (auto it = read_object.find(acc.instr); it != read_object.end()) it->second = acc.object;
}

const KernelCheck::StrongReads& KernelCheck::strong_reads_of(const Access& x) {
  auto [it, fresh] = strong_reads_by_object.try_emplace(x.object);
  if (!fresh) return it->second;
  StrongReads& r = it->second;
  r.at.assign(f.body.size(), false);
  r.before.assign(f.body.size(), false);
  std::vector<std::uint32_t> after;
  for (const auto& [i, obj] : read_object)
    if (x.object < 0 || obj < 0 || obj == x.object) {
      r.at[i] = true;
      for (auto k : next_instructions(prep.cfg, i)) after.push_back(k);
    }
  mark_reachable(prep.cfg, after, r.before, true);
  return r;
}

bool KernelCheck::ordered_one_way(const Access& x, const Access& y, bool first_iteration) {
  OrderingContext o;
  o.sync_at_or_after_x = sync_after[x.instr];
  o.x_strong_write = x.write && x.strong;
  o.sync_at_or_before_y = first_iteration ? marked_before_first_iteration(prep.cfg, syncs, y.instr, true) : sync_before[y.instr];
  if (o.x_strong_write) {
    const StrongReads& reads = strong_reads_of(x);
    o.strong_read_before_y = first_iteration ? marked_before_first_iteration(prep.cfg, reads.at, y.instr, false) : reads.before[y.instr];
  }
  return may_order(o);
}

bool KernelCheck::may_be_ordered(const Access& x, const Access& y, bool first_iteration) {
  return ordered_one_way(x, y, first_iteration) || ordered_one_way(y, x, first_iteration);
}

// The first iteration of every loop around the accesses whose thread could otherwise be entered by an ordering
// (T1's a, T2's b): where the pair races when may_be_ordered holds only through later iterations.
z3::expr KernelCheck::first_iterations(const Access& a, const Access& b) {
  z3::expr e = c.bool_val(true);
  const z3::expr zero = c.bv_val(0, 64);
  if (ordered_one_way(b, a, false)) for (int L : loops_around(prep.cfg, a.instr)) e = e && T1.k.at(L) == zero;
  if (ordered_one_way(a, b, false)) for (int L : loops_around(prep.cfg, b.instr)) e = e && T2.k.at(L) == zero;
  return e;
}

}  // namespace ptxcheck::race
