// Barriers in a kernel's pair check (kernel_check.hpp): which named barriers order by phases, and barrier divergence
// (CTA barriers, mbarriers taken as CTA barriers, grid synchronisation).
#include "checker/race/kernel_check.hpp"
#include "checker/race/notes.hpp"

namespace ptxcheck::race {
using ptx::ir::Opcode;

namespace {

// The conditional branch that decides whether block `blk` is reached: its nearest dominator ending in a guarded
// `bra` that `blk` does not post-dominate (a branch around a `trap` is post-dominated, cfg.hpp; -1 if none).
int deciding_branch(const ptx::ir::Function& f, const Cfg& g, int blk) {
  std::vector<int> doms(g.dom[static_cast<std::size_t>(blk)].begin(), g.dom[static_cast<std::size_t>(blk)].end());
  // A nearer dominator has more dominators of its own.
  std::sort(doms.begin(), doms.end(), [&](int a, int b) { return g.dom[static_cast<std::size_t>(a)].size() > g.dom[static_cast<std::size_t>(b)].size(); });
  for (int d : doms) {
    const auto& bl = g.blocks[static_cast<std::size_t>(d)];
    if (d == blk || bl.end == bl.begin) continue;
    const auto& last = f.body[bl.end - 1];
    if (last.op != Opcode::bra_ || last.guard < 0) continue;
    bool post_dominated = false;
    for (int p = g.ipdom[static_cast<std::size_t>(d)]; p >= 0 && !post_dominated; p = g.ipdom[static_cast<std::size_t>(p)]) post_dominated = p == blk;
    if (!post_dominated) return static_cast<int>(bl.end - 1);
  }
  return -1;
}

}  // namespace

void KernelCheck::settle_named_barriers() {
  // ---- named barriers: the lanes of a warp take one operation (ISA 9.7.13.1: undefined otherwise for aligned ones,
  // and arrivals are counted per warp).
  std::erase_if(phases.barriers, [&](const SinglePhaseBarrier& b) {
    // Two lanes of one warp at two different operations on it (a lane that reaches none hangs or traps before).
    for (std::size_t k = 0; k < T1.barriers.size(); ++k)
      for (std::size_t l = 0; l < T2.barriers.size(); ++l) {
        const std::uint32_t x = T1.barriers[k].instr, y = T2.barriers[l].instr;
        if (x == y || !b.operates(x) || !b.operates(y)) continue;
        auto [r, model, why] = check(same_warp && T1.barriers[k].pc && T2.barriers[l].pc);
        if (r == z3::unsat) continue;
        phases.rejected.push_back(note::named_barrier_warp_divergence(b.name, r == z3::sat, where_of(m, f.body[x]).text(),
                                                                      where_of(m, f.body[y]).text()));
        return true;
      }
    return false;
  });
  for (const auto& b : phases.barriers) {
    std::string at;
    for (auto op : b.ops) at += (at.empty() ? "" : ", ") + where_of(m, f.body[op]).text();
    res.notes.push_back(note::named_barrier_single_phase(b.name, at));
  }
  for (const auto& why : phases.rejected) res.notes.push_back(note::named_barrier_rejected(why));
}

// One thread reaches the barrier instance, the other does not and does not trap: a thread that traps aborts
// the launch (ISA 9.7.19.4), so its not reaching a barrier is no divergence.
z3::expr KernelCheck::traps(const ThreadEncoding& t) {
  z3::expr any = c.bool_val(false);
  for (const auto& pc : t.traps) any = any || pc;
  return any;
}

z3::expr KernelCheck::one_misses(const Barrier& b1, const Barrier& b2) {
  return (b1.pc && !b2.pc && !traps(T2)) || (b2.pc && !b1.pc && !traps(T1));
}

// The guarded instruction a barrier diverges under, as `@%p bra at FILE:LINE:COL (ptx line N)`.
std::string KernelCheck::condition_text(int cause) {
  if (cause < 0) return "";
  const auto& ci = f.body[static_cast<std::size_t>(cause)];
  std::string guard = ci.guard >= 0 ? std::string(ci.guard_negated ? "@!" : "@") + f.registers[ci.guard].name + " " : "";
  // brx.idx chooses by its index (ISA 9.7.12.4): name it
  const auto& index = ci.operands.empty() ? ptx::ir::Operand{} : ci.operands[0];
  if (ci.op == Opcode::brx_ && index.kind == ptx::ir::Operand::Kind::Register && index.reg >= 0)
    return guard + "brx.idx on " + f.registers[index.reg].name + " at " + where_of(m, ci).text();
  if (guard.empty()) guard = "@? ";
  return guard + ptx::ir::opcode_name(ci.op) + " at " + where_of(m, ci).text();
}

// The two threads are in the same iteration of every loop enclosing block `blk`.
z3::expr KernelCheck::same_iterations(int blk) {
  z3::expr same = c.bool_val(true);
  for (std::size_t L = 0; L < prep.cfg.loops.size(); ++L)
    if (prep.cfg.loops[L].body.count(blk)) same = same && T1.k.at(static_cast<int>(L)) == T2.k.at(static_cast<int>(L));
  return same;
}

void KernelCheck::check_barrier_divergence() {
  // ---- barrier divergence: two threads of one CTA, the same iteration of every enclosing loop.
  for (std::size_t k = 0; k < T1.barriers.size(); ++k) {
    const auto& b1 = T1.barriers[k];
    const auto& b2 = T2.barriers[k];
    if (!cta_barrier(f.body[b1.instr])) continue;
    int blk = prep.cfg.block_of[b1.instr];
    bool div = prep.uni.divergent[blk] || (f.body[b1.instr].guard >= 0 && !prep.uni.reg[f.body[b1.instr].guard]);
    if (!div) continue;
    if (over_budget()) {
      res.unknown_reasons.push_back(budget_reason() + " before every barrier was checked for divergence");
      break;
    }
    z3::expr q = same_cta && one_misses(b1, b2);
    q = q && same_iterations(blk);
    auto [r, model, why] = check(q);
    if (r == z3::unknown) res.unknown_reasons.push_back("solver: " + why + " (barrier divergence at " + where_of(m, f.body[b1.instr]).text() + ")");
    if (r != z3::sat) continue;
    DivergenceReport d{b1.instr, where_of(m, f.body[b1.instr]), "", ids_of(*model, T1), ids_of(*model, T2),
                       model->eval(b1.pc, true).is_true(), ""};
    const auto& bin = f.body[b1.instr];
    d.condition = condition_text(bin.guard >= 0 && !prep.uni.reg[bin.guard] ? static_cast<int>(b1.instr) : prep.uni.cause[blk]);
    res.divergences.push_back(d);
  }
}

void KernelCheck::check_mbarrier_inits() {
  // An mbarrier taken as a CTA barrier (mbarrier.hpp) needs its init run by one thread per CTA: a second init of the
  // initialised object is undefined (ISA 9.7.13.15.9), and the engine does not say race-free over undefined behaviour.
  for (std::size_t k = 0; k < T1.mbarrier_inits.size(); ++k) {
    const auto& i1 = T1.mbarrier_inits[k];
    if (std::find(mbarriers.inits.begin(), mbarriers.inits.end(), i1.instr) == mbarriers.inits.end()) continue;
    auto [r, model, why] = check(same_cta && i1.pc && T2.mbarrier_inits[k].pc);
    const std::string at = where_of(m, f.body[i1.instr]).text();
    if (r == z3::unknown) res.unknown_reasons.push_back("solver: " + why + " (one thread per CTA at the mbarrier.init at " + at + ")");
    if (r != z3::sat) continue;
    const ThreadIds a = ids_of(*model, T1), b = ids_of(*model, T2);
    res.unknown_reasons.push_back("undefined behaviour: threads " + a.text() + " and " + b.text() + " both run the mbarrier.init at " + at +
                                  " on one object (ISA 9.7.13.15.9: init of an initialised object is undefined)");
  }
}

void KernelCheck::check_grid_sync_divergence() {
  // A grid synchronisation (grid_sync.hpp) waits for every CTA of the grid: two threads of different CTAs, the
  // same iteration of every enclosing loop, one reaches it and the other does not (its CTA never arrives).
  for (const auto& gs : grid_syncs) {
    std::size_t k = 0;
    while (k < T1.barriers.size() && T1.barriers[k].instr != gs.begin) ++k;
    if (k == T1.barriers.size()) continue;
    const auto& b1 = T1.barriers[k];
    const auto& b2 = T2.barriers[k];
    int blk = prep.cfg.block_of[b1.instr];
    z3::expr q = !same_cta && one_misses(b1, b2);
    q = q && same_iterations(blk);
    auto [r, model, why] = check(q);
    if (r == z3::unknown) res.unknown_reasons.push_back("solver: " + why + " (grid synchronisation divergence at " + where_of(m, f.body[b1.instr]).text() + ")");
    if (r != z3::sat) continue;
    res.divergences.push_back(DivergenceReport{b1.instr, where_of(m, f.body[b1.instr]), condition_text(deciding_branch(f, prep.cfg, blk)),
                                               ids_of(*model, T1), ids_of(*model, T2),
                                               model->eval(b1.pc, true).is_true(),
                                               "a grid synchronisation waits for every CTA of the grid, and this thread's CTA does not arrive"});
  }
}

}  // namespace ptxcheck::race
