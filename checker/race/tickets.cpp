// See tickets.hpp.
#include "checker/race/tickets.hpp"

#include "semantics/ops/memory_access.hpp"

namespace ptxcheck::race {

std::vector<TicketSite> find_ticket_sites(const ptx::ir::Function& f, const Prepared& p, const ThreadEncoding& t) {
  std::vector<TicketSite> out;
  for (const AtomicUpdate& u : t.updates) {
    // An atom whose old value a register receives (ops::memory_access: its d, not the sink `_`).
    const auto m = ptx::ops::memory_access(f.body[u.instr]);
    const bool returns = m && m->kind == ptx::ops::AccessKind::read_modify_write && m->result_register(f.body[u.instr]) >= 0;
    if (!returns || u.object < 0 || !loops_around(p.cfg, u.instr).empty()) continue;
    const Space space = p.objects[static_cast<std::size_t>(u.object)].space;
    if (space == Space::shared || space == Space::local) continue;
    out.push_back({u.instr, u.object});
  }
  return out;
}

std::vector<bool> after_ticket(const Cfg& g, const TicketSite& site) {
  std::vector<bool> seen(g.block_of.size(), false);
  mark_reachable(g, next_instructions(g, site.atom), seen, true);
  return seen;
}

bool after_broadcast(const ptx::ir::Function& f, const Prepared& p, std::uint32_t store, std::uint32_t a) {
  const int block = p.cfg.block_of[a];
  for (const auto& [load, b] : p.broadcasts) {
    if (b.store != store || b.reads != Broadcast::Reads::stored_value || f.body[load].guard >= 0) continue;
    const int at = p.cfg.block_of[load];
    if (at == block ? load < a : p.cfg.dom[static_cast<std::size_t>(block)].count(at) > 0) return true;
  }
  return false;
}

}  // namespace ptxcheck::race
