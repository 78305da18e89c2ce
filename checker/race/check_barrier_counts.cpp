// Path-sensitive barrier counts in a kernel's pair check (kernel_check.hpp). The barrier intervals are computed on
// the control-flow graph alone: a barrier on one arm of a branch leaves the accesses after the join in the interval
// before it, by the other arm. That is too weak where the arm is chosen by a value the encoding knows, such as the
// group type cooperative groups switch on in `tile.sync()` (a tile of runtime size syncs with bar.warp.sync, ISA
// 9.7.13.2): every thread takes the same arm. Here the barriers each thread passed before an access are counted
// under the thread's path conditions: the k-th CTA barrier of each thread of a CTA is one phase (ISA 8.9.4 item 2;
// barrier divergence is reported on its own), and so is the k-th partial bar.warp.sync of two lanes each in the
// other's membermask at every partial one (mutual_warp_sync), so different counts order the two accesses.
#include "checker/race/kernel_check.hpp"

namespace ptxcheck::race {

// Which count an instruction adds to: CTA barriers, full-warp and partial-warp bar.warp.sync; none for others
// (named barriers with a count, cluster barriers, arrive-only forms: no ordering is taken from them here).
KernelCheck::BarrierKind KernelCheck::barrier_kind(std::uint32_t i) const {
  const ptx::ir::Instruction& in = f.body[i];
  if (separating_cta_barrier(in)) return BarrierKind::cta;
  if (full_warp_barrier(in)) return BarrierKind::full_warp;
  if (warp_barrier(in)) return BarrierKind::partial_warp;
  return BarrierKind::none;
}

// Whether counting `kind` is sound for this kernel: every barrier of the family is one the count sees. A guarded
// CTA barrier or bar.warp.sync (which barrier_kind leaves out) would shift the phases of the threads that run it
// against those that do not, so the k-th counted barrier of two threads need not be one phase.
// (Asked once per kind: the pair search asks for every pair.)
bool KernelCheck::countable(BarrierKind kind) {
  auto [it, fresh] = countable_memo.try_emplace(kind, true);
  if (fresh)
    for (const auto& in : f.body) {
      if (in.guard < 0) continue;
      const bool warp = in.op == ptx::ir::Opcode::bar_ && in.q.has(ptx::ir::Flag::warp);
      if (kind == BarrierKind::cta ? cta_barrier(in) : warp) it->second = false;
    }
  return it->second;
}

const std::vector<bool>& KernelCheck::reached_from(std::uint32_t i) {
  auto [it, fresh] = reach_memo.try_emplace(i);
  if (fresh) {
    it->second.assign(f.body.size(), false);
    mark_reachable(prep.cfg, next_instructions(prep.cfg, i), it->second, true);
  }
  return it->second;
}

// The barriers of `kind` thread t passed before access x (a 32-bit count), when x and every such barrier that can
// run before it are outside loops (each then passed at most once); nullopt otherwise.
// (Kept per access and kind: an access is in many pairs.)
std::optional<z3::expr> KernelCheck::barriers_passed(const ThreadEncoding& t, const Access& x, BarrierKind kind) {
  auto [memo, fresh] = passed_memo.try_emplace({&x, kind});
  if (!fresh) return memo->second;
  if (x.async || !loops_around(prep.cfg, x.instr).empty() || !countable(kind)) return std::nullopt;
  std::map<std::uint32_t, z3::expr> passed;  // barrier instruction -> the thread passes it
  for (const Barrier& b : t.barriers) {
    if (barrier_kind(b.instr) != kind || !reached_from(b.instr)[x.instr]) continue;
    if (!loops_around(prep.cfg, b.instr).empty()) return std::nullopt;
    auto [it, first] = passed.try_emplace(b.instr, b.pc);
    if (!first) it->second = it->second || b.pc;
  }
  z3::expr count = u32(0);
  for (const auto& [instr, pc] : passed) count = count + z3::ite(pc, u32(1), u32(0));
  return memo->second = count;
}

// What the counts order: two threads of one CTA with different CTA barrier counts, two lanes of one warp with
// different full-warp counts, or with different partial-warp counts when each is in the other's masks.
z3::expr KernelCheck::ordered_by_barrier_counts(const Access& a, const Access& b) {
  z3::expr ordered = c.bool_val(false);
  // An access between a split mbarrier arrive (rewritten to a CTA barrier) and its wait shares a phase with the
  // accesses before the arrive (mbarrier.hpp): the CTA count does not order it.
  auto between_split = [&](const Access& x) {
    for (const auto& [arrive, accesses] : mbarriers.split)
      if (std::count(accesses.begin(), accesses.end(), x.instr)) return true;
    return false;
  };
  const bool split = between_split(a) || between_split(b);
  for (BarrierKind kind : {BarrierKind::cta, BarrierKind::full_warp, BarrierKind::partial_warp}) {
    if (kind == BarrierKind::cta && split) continue;
    const auto na = barriers_passed(T1, a, kind), nb = barriers_passed(T2, b, kind);
    if (!na || !nb) continue;
    const z3::expr differ = *na != *nb;
    if (kind == BarrierKind::cta) ordered = ordered || (same_cta && differ);
    else if (kind == BarrierKind::full_warp) ordered = ordered || (same_warp && differ);
    else ordered = ordered || (same_warp && mutual_warp_sync && differ);
  }
  return ordered.simplify();
}

}  // namespace ptxcheck::race
