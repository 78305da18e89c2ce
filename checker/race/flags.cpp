// See flags.hpp.
#include "checker/race/flags.hpp"

#include "semantics/ops/memory_access.hpp"

#include <deque>

namespace ptxcheck::race {
namespace {
// Whether some path from `from` (after it runs) reaches `to` without passing an instruction `blocks` holds.
template <class Blocks> bool reaches_avoiding(const Cfg& g, std::uint32_t from, std::uint32_t to, const Blocks& blocks) {
  std::vector<bool> seen(g.block_of.size(), false);
  std::deque<std::uint32_t> todo;
  for (auto n : next_instructions(g, from)) todo.push_back(n);
  while (!todo.empty()) {
    const std::uint32_t i = todo.front();
    todo.pop_front();
    if (seen[i]) continue;
    seen[i] = true;
    if (i == to) return true;
    if (blocks(i)) continue;
    for (auto n : next_instructions(g, i)) todo.push_back(n);
  }
  return false;
}

}  // namespace

std::vector<FlagSite> find_flag_sites(const ptx::ir::Function& f, const Prepared& p, const ThreadEncoding& t) {
  std::vector<FlagSite> out;
  // A scalar strong ld or st (ops::memory_access: its kind and vector count) of a known global allocation.
  auto scalar_strong = [&](const Access& a, ptx::ops::AccessKind kind) {
    const auto m = ptx::ops::memory_access(f.body[a.instr]);
    return a.strong && !a.atomic && !a.async && !a.collective && a.object >= 0 && a.space != Space::shared && a.space != Space::local &&
           m && m->kind == kind && m->count == 1;
  };
  for (const Access& w : t.accesses) {
    if (!w.write || !w.stored || !scalar_strong(w, ptx::ops::AccessKind::store) || !loops_around(p.cfg, w.instr).empty()) continue;
    for (const Access& r : t.accesses)
      if (r.read && !r.write && r.value && scalar_strong(r, ptx::ops::AccessKind::load) && r.object == w.object && r.size == w.size)
        out.push_back({w.instr, r.instr, w.object});
  }
  return out;
}

bool precedes_write(const Cfg& g, const FlagSite& site, std::uint32_t b) {
  // W is in no loop (find_flag_sites) and no path leads from W back to b.
  return b != site.write && !reaches_avoiding(g, site.write, b, [](std::uint32_t) { return false; });
}

bool follows_read(const Cfg& g, const FlagSite& site, std::uint32_t a) {
  if (a == site.read) return false;
  for (int L : loops_around(g, a))
    if (in_loop(g, static_cast<std::size_t>(L), site.read)) return false;
  return reaches_avoiding(g, site.read, a, [](std::uint32_t) { return false; });
}

}  // namespace ptxcheck::race
