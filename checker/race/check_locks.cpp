// Spin locks in a kernel's pair check (kernel_check.hpp): which lock sites order their critical sections, and the notes.
#include "checker/race/kernel_check.hpp"
#include "checker/race/notes.hpp"

namespace ptxcheck::race {
using ptx::ir::Opcode;

void KernelCheck::settle_locks() {
  // ---- spin locks: a .cta-scoped lock in global memory orders only when no two CTAs take one of its locations
  // (locks.hpp cta_private); where they may, its sites order nothing (no lock address).
  std::vector<std::string> lock_rejections;
  for (const auto& r : locks.rejected) lock_rejections.push_back(note::lock_rejection(r.why, where_of(m, f.body[r.instr]).text()));
  {
    std::set<int> shared_across_ctas;
    for (std::size_t x = 0; x < locks.sites.size(); ++x)
      for (std::size_t y = 0; y < locks.sites.size(); ++y) {
        const LockSite &sx = locks.sites[x], &sy = locks.sites[y];
        if (!sx.cta_private || sx.object != sy.object || shared_across_ctas.count(sx.object)) continue;
        const Access *ax = lock_access(T1, sx), *ay = lock_access(T2, sy);
        auto [r, model, why] = check(!same_cta && ax->pc && ay->pc && ax->addr == ay->addr);
        if (r == z3::unsat) continue;
        shared_across_ctas.insert(sx.object);
        lock_rejections.push_back(note::lock_shared_across_ctas(r == z3::sat, where_of(m, f.body[sx.rmw]).text()));
      }
    for (std::size_t k = 0; k < locks.sites.size(); ++k)
      if (shared_across_ctas.count(locks.sites[k].object)) lock_address1[k] = lock_address2[k] = std::nullopt;
  }
  for (std::size_t k = 0; k < locks.sites.size(); ++k) {
    if (!lock_address1[k]) continue;
    std::size_t guarded = 0;
    for (const auto& a : T1.accesses) {
      const auto& held = locks.held[a.instr];
      if (!a.async && std::count(held.begin(), held.end(), static_cast<int>(k)) && lock_protects(k, a)) ++guarded;
    }
    const std::string at = note::lock_site(where_of(m, f.body[locks.sites[k].rmw]).text(), locks.sites[k].cta_private);
    res.notes.push_back(guarded ? note::lock_orders(at, guarded) : note::lock_orders_nothing(at));
  }
  for (const auto& why : lock_rejections) res.notes.push_back(note::lock_not_taken(why));
}

// After the pair search: the sites some of whose questions the model left unanswered.
void KernelCheck::note_locks() {
  for (const auto& [k, why] : lock_unanswered)
    res.notes.push_back(note::lock_unanswered(note::lock_site(where_of(m, f.body[locks.sites[k].rmw]).text(), locks.sites[k].cta_private), why));
}

}  // namespace ptxcheck::race
