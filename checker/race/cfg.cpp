// Basic blocks, loops and post-dominators of a PTX function (see cfg.hpp). nvcc emits reducible control
// flow; anything else is reported as irreducible rather than analysed.
#include "checker/race/cfg.hpp"
#include "checker/race/model_rules.hpp"

#include <algorithm>
#include <functional>

namespace ptxcheck::race {
using ptx::ir::Opcode;
using ptx::ir::Operand;

std::vector<int> written_registers(const ptx::ir::Instruction& in) {
  std::vector<int> out;
  if (in.operands.empty()) return out;
  switch (in.op) {
    case Opcode::st_: case Opcode::bra_: case Opcode::red_: case Opcode::bar_: case Opcode::barrier_:
    case Opcode::ret_: case Opcode::exit_: case Opcode::prefetch_: case Opcode::call_: case Opcode::sust_:
    case Opcode::membar_: case Opcode::fence_:
    case Opcode::brx_: case Opcode::stackrestore_:  // (their operands are read: ISA 9.7.12.4, 9.7.17.2)
      return out;
    default: break;
  }
  const Operand& d = in.operands[0];
  if (d.kind == Operand::Kind::Register) out.push_back(d.reg);
  if (d.kind == Operand::Kind::PredPair) {
    if (d.reg >= 0) out.push_back(d.reg);
    if (d.reg2 >= 0) out.push_back(d.reg2);
  }
  if (d.kind == Operand::Kind::Vector)
    for (const auto& e : d.elements) if (e.kind == Operand::Kind::Register) out.push_back(e.reg);
  return out;
}

bool writes_register(const ptx::ir::Instruction& in, int reg) {
  const auto w = written_registers(in);
  return std::find(w.begin(), w.end(), reg) != w.end();
}

std::vector<std::uint32_t> next_instructions(const Cfg& g, std::uint32_t i, bool no_back) {
  const int b = g.block_of[i];
  if (i + 1 < g.blocks[b].end) return {i + 1};
  std::vector<std::uint32_t> out;
  for (int s : g.blocks[b].succ)
    if (!(no_back && g.back.count({b, s})) && g.blocks[s].end > g.blocks[s].begin) out.push_back(g.blocks[s].begin);
  return out;
}

std::vector<std::uint32_t> previous_instructions(const Cfg& g, std::uint32_t i, bool no_back) {
  const int b = g.block_of[i];
  if (i > g.blocks[b].begin) return {i - 1};
  std::vector<std::uint32_t> out;
  for (int p : g.blocks[b].pred)
    if (!(no_back && g.back.count({p, b})) && g.blocks[p].end > g.blocks[p].begin) out.push_back(g.blocks[p].end - 1);
  return out;
}

void mark_reachable(const Cfg& g, std::vector<std::uint32_t> from, std::vector<bool>& seen, bool forward) {
  while (!from.empty()) {
    const auto i = from.back();
    from.pop_back();
    if (seen[i]) continue;
    seen[i] = true;
    for (auto k : forward ? next_instructions(g, i) : previous_instructions(g, i)) from.push_back(k);
  }
}

std::set<int> loops_around(const Cfg& g, std::uint32_t i) {
  std::set<int> out;
  for (std::size_t L = 0; L < g.loops.size(); ++L)
    if (in_loop(g, L, i)) out.insert(static_cast<int>(L));
  return out;
}

bool in_loop(const Cfg& g, std::size_t L, std::uint32_t i) { return g.loops[L].body.count(g.block_of[i]) > 0; }

std::uint32_t loop_header(const Cfg& g, std::size_t L) { return g.blocks[static_cast<std::size_t>(g.loops[L].header)].begin; }

bool marked_before_first_iteration(const Cfg& g, const std::vector<bool>& marked, std::uint32_t y, bool inclusive) {
  const int home = g.block_of[y];
  for (auto i = g.blocks[home].begin; i < y + (inclusive ? 1u : 0u); ++i)
    if (marked[i]) return true;
  std::set<int> headers_around;  // the back edges left out are those into these headers
  for (int L : loops_around(g, y)) headers_around.insert(g.loops[L].header);
  std::vector<bool> seen(g.blocks.size(), false);
  std::vector<int> todo{home};
  seen[home] = true;
  while (!todo.empty()) {
    const int b = todo.back();
    todo.pop_back();
    for (int p : g.blocks[b].pred) {
      if (seen[p] || (g.back.count({p, b}) && headers_around.count(b))) continue;
      seen[p] = true;
      for (auto i = g.blocks[p].begin; i < g.blocks[p].end; ++i)
        if (marked[i]) return true;
      todo.push_back(p);
    }
  }
  return false;
}

bool cta_barrier(const ptx::ir::Instruction& in) {
  // (barrier.cluster.wait is not one: see barrier_forms.hpp)
  const auto b = ptx::ir::cta_barrier_operands(in);
  return b && b->count < 0 && !in.q.has(ptx::ir::Flag::arrive);
}
bool separating_cta_barrier(const ptx::ir::Instruction& in) {
  return in.guard < 0 && cta_barrier(in) && barrier_arrive_releases(in) && barrier_wait_acquires(in);
}

static bool ends_block(const ptx::ir::Instruction& in) {
  return in.op == Opcode::bra_ || in.op == Opcode::ret_ || in.op == Opcode::exit_ || in.op == Opcode::brx_ ||
         in.op == Opcode::trap_;
}

std::vector<std::uint32_t> indexed_targets(const ptx::ir::Instruction& in) {
  std::vector<std::uint32_t> out;
  if (in.op != Opcode::brx_ || in.operands.size() < 2) return out;
  for (const auto& e : in.operands[1].elements)
    if (e.target >= 0) out.push_back(static_cast<std::uint32_t>(e.target));
  return out;
}

Cfg build_cfg(const ptx::ir::Function& f) {
  Cfg g;
  const auto n = static_cast<std::uint32_t>(f.body.size());
  std::vector<bool> leader(n + 1, false);
  leader[0] = true;
  for (std::uint32_t i = 0; i < n; ++i) {
    const auto& in = f.body[i];
    if (ends_block(in)) leader[i + 1] = true;
    if (in.op == Opcode::bra_ && !in.operands.empty() && in.operands[0].target >= 0)
      leader[static_cast<std::uint32_t>(in.operands[0].target)] = true;
    for (std::uint32_t t : indexed_targets(in)) leader[t] = true;
  }
  for (const auto& [name, idx] : f.labels) if (idx <= n) leader[idx] = true;
  g.block_of.assign(n, -1);
  for (std::uint32_t i = 0; i < n;) {
    Block b;
    b.begin = i;
    do { g.block_of[i] = static_cast<int>(g.blocks.size()); ++i; } while (i < n && !leader[i]);
    b.end = i;
    g.blocks.push_back(b);
  }
  if (g.blocks.empty()) g.blocks.push_back(Block{});
  const int nb = static_cast<int>(g.blocks.size());
  for (int b = 0; b < nb; ++b) {
    auto& bl = g.blocks[b];
    if (bl.end == bl.begin) continue;
    const auto& last = f.body[bl.end - 1];
    bool falls = true;
    if (last.op == Opcode::bra_) {
      int t = last.operands.empty() ? -1 : last.operands[0].target;
      if (t >= 0 && static_cast<std::uint32_t>(t) < n) bl.succ.push_back(g.block_of[t]);
      falls = last.guard >= 0;
    } else if (last.op == Opcode::brx_) {  // every label of its list (an index past it is undefined: no edge)
      for (std::uint32_t t : indexed_targets(last))
        if (std::find(bl.succ.begin(), bl.succ.end(), g.block_of[t]) == bl.succ.end()) bl.succ.push_back(g.block_of[t]);
      falls = last.guard >= 0;
    } else if (last.op == Opcode::ret_ || last.op == Opcode::exit_ || last.op == Opcode::trap_) {
      falls = last.guard >= 0;
    }
    if (falls && bl.end < n) {
      int s = g.block_of[bl.end];
      if (std::find(bl.succ.begin(), bl.succ.end(), s) == bl.succ.end()) bl.succ.push_back(s);
    }
  }
  for (int b = 0; b < nb; ++b) for (int s : g.blocks[b].succ) g.blocks[s].pred.push_back(b);

  // DFS: back edges are edges to a block on the stack; postorder gives the forward order.
  std::vector<int> state(nb, 0), post;
  std::function<void(int)> dfs = [&](int b) {
    state[b] = 1;
    for (int s : g.blocks[b].succ) {
      if (state[s] == 1) g.back.insert({b, s});
      else if (state[s] == 0) dfs(s);
    }
    state[b] = 2;
    post.push_back(b);
  };
  dfs(0);
  g.order.assign(post.rbegin(), post.rend());

  // Dominators over the reachable blocks (iterative, on the forward order).
  std::vector<std::set<int>> dom(nb);
  std::set<int> all(g.order.begin(), g.order.end());
  for (int b : g.order) dom[b] = all;
  dom[0] = {0};
  for (bool changed = true; changed;) {
    changed = false;
    for (int b : g.order) {
      if (b == 0) continue;
      std::set<int> d = all;
      bool any = false;
      for (int p : g.blocks[b].pred) {
        if (state[p] == 0) continue;
        std::set<int> r;
        std::set_intersection(d.begin(), d.end(), dom[p].begin(), dom[p].end(), std::inserter(r, r.begin()));
        d = std::move(r);
        any = true;
      }
      if (!any) d.clear();
      d.insert(b);
      if (d != dom[b]) { dom[b] = std::move(d); changed = true; }
    }
  }
  g.dom = dom;
  for (const auto& [from, to] : g.back) {
    if (!dom[from].count(to)) {
      g.irreducible = "irreducible control flow (edge into a loop that does not enter by its header)";
      continue;
    }
    Loop* L = nullptr;
    for (auto& l : g.loops) if (l.header == to) L = &l;
    if (!L) { g.loops.push_back(Loop{to, {to}, {}}); L = &g.loops.back(); }
    std::vector<int> stack{from};
    while (!stack.empty()) {
      int x = stack.back(); stack.pop_back();
      if (!L->body.insert(x).second && x != from) continue;
      if (x == to) continue;
      for (int p : g.blocks[x].pred) if (!L->body.count(p)) stack.push_back(p);
    }
  }
  for (auto& l : g.loops)
    for (int b : l.body)
      for (auto i = g.blocks[b].begin; i < g.blocks[b].end; ++i)
        for (int r : written_registers(f.body[i])) l.modified.insert(r);

  // Post-dominators with a virtual exit (index nb): blocks without successors go to it, except those ending in an
  // unguarded `trap`, which aborts the whole launch (ISA 9.7.19.4): a path through one is no way around a block, so
  // it keeps the full set (it constrains nothing) and has no immediate post-dominator.
  auto traps = [&](int b) {
    const auto& bl = g.blocks[b];
    return bl.end > bl.begin && f.body[bl.end - 1].op == Opcode::trap_ && f.body[bl.end - 1].guard < 0;
  };
  std::vector<std::set<int>> pdom(nb + 1);
  std::set<int> alln(all);
  alln.insert(nb);
  for (int b = 0; b < nb; ++b) pdom[b] = alln;
  pdom[nb] = {nb};
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = g.order.rbegin(); it != g.order.rend(); ++it) {
      int b = *it;
      if (traps(b)) continue;
      std::set<int> d = alln;
      auto succ = g.blocks[b].succ;
      if (succ.empty()) succ.push_back(nb);
      for (int s : succ) {
        std::set<int> r;
        std::set_intersection(d.begin(), d.end(), pdom[s].begin(), pdom[s].end(), std::inserter(r, r.begin()));
        d = std::move(r);
      }
      d.insert(b);
      if (d != pdom[b]) { pdom[b] = std::move(d); changed = true; }
    }
  }
  g.ipdom.assign(nb, -1);
  for (int b : g.order) {
    if (traps(b)) continue;
    // The immediate post-dominator: the strict post-dominator that every other strict one post-dominates.
    for (int c : pdom[b]) {
      if (c == b) continue;
      bool imm = true;
      for (int o : pdom[b]) if (o != b && o != c && !pdom[c].count(o)) { imm = false; break; }
      if (imm) { g.ipdom[b] = c == nb ? -1 : c; break; }
    }
  }
  return g;
}

std::optional<std::uint64_t> constant_at(const ptx::ir::Function& f, const Cfg& g, std::uint32_t at, const ptx::ir::Operand& o) {
  using OK = ptx::ir::Operand::Kind;
  if (o.kind == OK::Immediate) return o.imm;
  if (o.kind != OK::Register || o.component >= 0) return std::nullopt;
  for (auto k = at; k-- > g.blocks[g.block_of[at]].begin;) {
    const auto& in = f.body[k];
    if (!writes_register(in, o.reg)) continue;
    if (in.op == ptx::ir::Opcode::mov_ && in.guard < 0 && in.operands.size() == 2 && in.operands[1].kind == OK::Immediate)
      return in.operands[1].imm;
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace ptxcheck::race
