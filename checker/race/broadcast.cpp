// Shared-memory broadcasts (see broadcast.hpp): the uses of each `.shared` variable, the words only one store
// writes, and the loads a barrier separates from that store.
#include "checker/race/broadcast.hpp"

#include "semantics/ops/memory_access.hpp"

#include <set>
#include <vector>

namespace ptxcheck::race {
using ptx::ir::Operand;
using ptx::ir::VarRef;

namespace {
// One use of a variable as the base of an address: [offset, offset + size) of it.
struct Use {
  std::uint32_t instr = 0;
  std::int64_t offset = 0;
  std::uint64_t size = 0;
  bool reads = false;  // an ld: reads only
  bool load = false;   // a scalar ld into a register (one whose value can be forwarded)
  bool store = false;  // a scalar st of a register or an immediate
};

// Instructions reachable from `from` (exclusive) over every edge of the CFG, or none of the loops' back edges.
std::vector<bool> reachable_after(const Cfg& g, std::size_t n, std::uint32_t from, bool no_back = false) {
  std::vector<bool> seen(n, false);
  std::vector<std::uint32_t> todo = next_instructions(g, from, no_back);
  while (!todo.empty()) {
    const auto i = todo.back();
    todo.pop_back();
    if (i >= n || seen[i]) continue;
    seen[i] = true;
    for (auto s : next_instructions(g, i, no_back)) todo.push_back(s);
  }
  return seen;
}

// Loop L's body holds a CTA barrier (one that ends a barrier interval).
bool has_cta_barrier(const ptx::ir::Function& f, const Cfg& g, int L) {
  for (int b : g.loops[static_cast<std::size_t>(L)].body)
    for (auto i = g.blocks[static_cast<std::size_t>(b)].begin; i < g.blocks[static_cast<std::size_t>(b)].end; ++i)
      if (separating_cta_barrier(f.body[i])) return true;
  return false;
}
}  // namespace

std::map<std::uint32_t, Broadcast> find_broadcasts(const ptx::ir::Module& m, const ptx::ir::Function& f, const Cfg& g,
                                                   const std::function<bool(std::uint32_t, std::uint32_t)>& same_interval,
                                                   const std::vector<bool>& aligned_loops) {
  std::map<std::uint32_t, Broadcast> out;
  const auto n = static_cast<std::uint32_t>(f.body.size());
  // Candidate variables: declared `.shared`, not extern. A use other than as the address of an ld or a
  // synchronous st (the address in a register, an atomic, cp.async, st.async, ...) drops the variable. Which
  // operand is the address, d and b, and the bytes touched: ops::memory_access.
  auto candidate = [&](const VarRef& v) {
    const ptx::ir::Variable* var = v.where == VarRef::Where::Global ? &m.globals[v.index]
                                 : v.where == VarRef::Where::Local ? &f.locals[v.index] : nullptr;
    return var && var->space == ptx::ir::StateSpace::shared && !var->is_extern;
  };
  std::map<std::pair<int, std::uint32_t>, std::vector<Use>> uses;  // (where, index) -> uses
  std::set<std::pair<int, std::uint32_t>> dropped;
  auto key = [](const VarRef& v) { return std::pair{static_cast<int>(v.where), v.index}; };
  for (std::uint32_t i = 0; i < n; ++i) {
    const auto& in = f.body[i];
    const auto m = ptx::ops::memory_access(in);
    for (std::size_t k = 0; k < in.operands.size(); ++k) {
      const Operand& o = in.operands[k];
      if (o.kind == Operand::Kind::Variable && candidate(o.var)) dropped.insert(key(o.var));
      if (o.kind != Operand::Kind::Address || o.base_kind != Operand::BaseKind::Variable || !candidate(o.var)) continue;
      const bool address = m && k == m->address && m->operand_count_matches(in);
      const bool reads = address && m->kind == ptx::ops::AccessKind::load;
      const bool load = reads && m->result_register(in) >= 0;
      const Operand* b = address && m->kind == ptx::ops::AccessKind::store && !m->asynchronous && m->count == 1 ? m->source_of(in) : nullptr;
      const bool store = b && (b->kind == Operand::Kind::Register || b->kind == Operand::Kind::Immediate);
      if (!reads && !store) dropped.insert(key(o.var));
      uses[key(o.var)].push_back({i, o.offset, m ? m->bytes() : 0, reads, load, store});
    }
  }
  for (const auto& [var, list] : uses) {
    if (dropped.count(var)) continue;
    for (const Use& l : list) {
      if (!l.load) continue;
      auto overlaps = [&](const Use& w) {
        return w.offset < l.offset + static_cast<std::int64_t>(l.size) && l.offset < w.offset + static_cast<std::int64_t>(w.size);
      };
      // The writes overlapping the loaded word: exactly one, a store of that word?
      const Use* only = nullptr;
      bool ok = true;
      for (const Use& w : list) {
        if (w.reads || !overlaps(w)) continue;
        if (only || w.offset != l.offset || w.size != l.size) ok = false;
        only = &w;
      }
      bool separated = true;  // no write of the word in the load's phase
      for (const Use& w : list)
        if (!w.reads && overlaps(w) && same_interval(w.instr, l.instr)) separated = false;
      if (!separated) continue;
      if (ok && only) {
        const std::set<int> loops = loops_around(g, only->instr);
        const std::vector<int> iteration(loops.begin(), loops.end());
        if (loops.empty() && reachable_after(g, n, only->instr)[l.instr]) {
          out[l.instr] = {Broadcast::Reads::stored_value, only->instr, {}};
          continue;
        }
        if (loops.empty() && reachable_after(g, n, l.instr)[only->instr]) {
          out[l.instr] = {Broadcast::Reads::initial_content, only->instr, {}};
          continue;
        }
        // In loops: all aligned, the load in the same ones, after the store within an iteration.
        bool all_aligned = true;
        for (int L : loops) all_aligned = all_aligned && aligned_loops[static_cast<std::size_t>(L)];
        if (!loops.empty() && all_aligned && loops_around(g, l.instr) == loops && reachable_after(g, n, only->instr, true)[l.instr]) {
          out[l.instr] = {Broadcast::Reads::stored_value, only->instr, iteration};
          continue;
        }
      }
      // One value per CTA and phase: each loop around the load aligned (its iteration tells the phase) or without
      // a CTA barrier (all its iterations in one phase).
      std::vector<int> phase_loops;
      bool phases_known = true;
      for (int L : loops_around(g, l.instr)) {
        if (aligned_loops[static_cast<std::size_t>(L)]) phase_loops.push_back(L);
        else if (has_cta_barrier(f, g, L)) phases_known = false;
      }
      if (phases_known) out[l.instr] = {Broadcast::Reads::one_per_phase, 0, phase_loops};
    }
  }
  return out;
}

}  // namespace ptxcheck::race
