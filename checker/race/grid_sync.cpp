// Recognition of the cooperative-groups grid synchronisation (see grid_sync.hpp): between two CTA barriers, with
// every path into the code between them coming through the first, nothing but register work, fences, one add to the
// workspace word and loads of it in a loop. Whether these order anything (their semantics, scopes, fences) is the
// memory model's answer (grid_sync_model.hpp), not this file's.
#include "checker/race/grid_sync.hpp"

#include "checker/race/encode.hpp"
#include "checker/race/strength.hpp"
#include "semantics/ops/memory_access.hpp"

#include <set>

namespace ptxcheck::race {
using ptx::ir::Opcode;
using ptx::ir::Operand;

namespace {

bool is_envreg(const Operand& o) { return o.kind == Operand::Kind::Special && o.special == ptx::ir::SpecialRegister::envreg; }

// Registers that hold an address computed from %envreg values and constants only, on every definition.
std::vector<bool> envreg_registers(const ptx::ir::Function& f) {
  const std::size_t nr = f.registers.size();
  std::vector<std::vector<std::uint32_t>> defs(nr);
  for (std::uint32_t i = 0; i < f.body.size(); ++i)
    for (int r : written_registers(f.body[i])) defs[static_cast<std::size_t>(r)].push_back(i);
  // Sources are the operands after the destination; `member` says which registers count.
  auto sources_ok = [&](const ptx::ir::Instruction& in, const std::vector<bool>& member, bool need_root) {
    bool root = false;
    for (std::size_t k = 1; k < in.operands.size(); ++k) {
      const Operand& o = in.operands[k];
      if (is_envreg(o)) root = true;
      else if (o.kind == Operand::Kind::Register && o.reg >= 0 && member[static_cast<std::size_t>(o.reg)]) root = true;
      else if (o.kind != Operand::Kind::Immediate) return false;
    }
    return !need_root || root;
  };
  // Greatest set whose every definition is register work on %envreg, constants and the set ...
  std::vector<bool> only(nr, false);
  for (std::size_t r = 0; r < nr; ++r) only[r] = !defs[r].empty();
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t r = 0; r < nr; ++r) {
      if (!only[r]) continue;
      for (auto i : defs[r])
        if (!register_only(f.body[i].op) || f.body[i].guard >= 0 || !sources_ok(f.body[i], only, false)) { only[r] = false; changed = true; break; }
    }
  }
  // ... and within it, those some %envreg value flows into.
  std::vector<bool> derived(nr, false);
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t r = 0; r < nr; ++r) {
      if (!only[r] || derived[r]) continue;
      for (auto i : defs[r])
        if (sources_ok(f.body[i], derived, true)) { derived[r] = true; changed = true; break; }
    }
  }
  return derived;
}

}  // namespace

bool reads_envreg(const ptx::ir::Function& f) {
  for (const auto& in : f.body)
    for (const auto& o : in.operands)
      if (is_envreg(o)) return true;
  return false;
}

std::vector<GridSync> find_grid_syncs(const ptx::ir::Function& f, const Cfg& g) {
  std::vector<GridSync> out;
  const auto n = static_cast<std::uint32_t>(f.body.size());
  if (!reads_envreg(f)) return out;
  const std::vector<bool> workspace = envreg_registers(f);

  auto succ = [&](std::uint32_t i) { return next_instructions(g, i); };
  auto pred = [&](std::uint32_t i) { return previous_instructions(g, i); };
  auto in_loop = [&](std::uint32_t i) {
    for (const auto& L : g.loops) if (L.body.count(g.block_of[i])) return true;
    return false;
  };

  for (std::uint32_t first = 0; first < n; ++first) {
    if (!separating_cta_barrier(f.body[first]) || g.block_of[first] < 0) continue;
    // The code reachable from the first barrier without passing another, and the barriers that end it.
    std::set<std::uint32_t> region, ends;
    std::vector<std::uint32_t> todo = succ(first);
    bool ok = true;
    while (!todo.empty() && ok) {
      auto i = todo.back();
      todo.pop_back();
      if (region.count(i) || ends.count(i)) continue;
      const auto& in = f.body[i];
      if (separating_cta_barrier(in)) { ends.insert(i); continue; }
      if (in.op == Opcode::ret_ || in.op == Opcode::exit_ || in.op == Opcode::trap_ || cta_barrier(in)) ok = false;
      region.insert(i);
      for (auto s : succ(i)) todo.push_back(s);
    }
    if (!ok || ends.size() != 1 || region.empty()) continue;
    GridSync gs{first, *ends.begin(), 0, {}};
    // One way in: every instruction of the region, and the second barrier, is entered from the region or the first.
    for (auto i : region) for (auto p : pred(i)) if (p != first && !region.count(p)) ok = false;
    for (auto p : pred(gs.end)) if (!region.count(p)) ok = false;
    // Nothing but register work, fences and the counter: one add, loads in a loop, one address (the address operand:
    // ops::memory_access). Their semantics and scopes, and the fences', are left to the model.
    int adds = 0, loads = 0;
    std::optional<std::pair<int, std::int64_t>> address;
    for (auto i : region) {
      if (!ok) break;
      const auto& in = f.body[i];
      if (register_only(in.op) || memory_fence(in)) continue;
      const auto m = ptx::ops::memory_access(in);
      const bool add = m && m->kind == ptx::ops::AccessKind::read_modify_write && in.q.atom_op == ptx::ir::AtomOp::add;
      const bool load = m && m->kind == ptx::ops::AccessKind::load && in_loop(i);
      const Operand* a = m ? m->address_of(in) : nullptr;
      if (!(add || load) || !a || a->kind != Operand::Kind::Address || a->base_kind != Operand::BaseKind::Register ||
          a->reg < 0 || !workspace[static_cast<std::size_t>(a->reg)]) { ok = false; break; }
      if (address && *address != std::make_pair(static_cast<int>(a->reg), a->offset)) { ok = false; break; }
      address = std::make_pair(static_cast<int>(a->reg), a->offset);
      if (add) gs.add = i;
      adds += add;
      loads += load;
      gs.counter.push_back(i);
    }
    if (ok && adds == 1 && loads >= 1) out.push_back(gs);
  }
  return out;
}

}  // namespace ptxcheck::race
