// Barrier-free reachability over instructions (see regions.hpp). A guarded barrier or one with a thread
// count does not separate intervals here: that only makes more pairs concurrent (sound).
#include "checker/race/regions.hpp"

namespace ptxcheck::race {
using ptx::ir::Flag;
using ptx::ir::Opcode;
using ptx::ir::Operand;

bool is_cta_barrier(const ptx::ir::Instruction& in) {
  if (in.op != Opcode::bar_ && in.op != Opcode::barrier_) return false;
  if (in.guard >= 0 || in.q.has(Flag::warp) || in.q.has(Flag::arrive)) return false;
  if (in.q.has(Flag::red)) return in.operands.size() <= 4;
  return in.operands.size() <= 1;  // bar.sync a: every thread of the CTA
}

bool is_warp_barrier(const ptx::ir::Instruction& in) {
  if (in.op != Opcode::bar_ || !in.q.has(Flag::warp) || in.guard >= 0 || in.operands.empty()) return false;
  const Operand& m = in.operands[0];
  return m.kind == Operand::Kind::Immediate && (m.imm & 0xffffffffu) == 0xffffffffu;
}

namespace {
struct Walker {
  const ptx::ir::Function& f;
  const Cfg& g;
  BarrierSet set;
  bool barrier(std::uint32_t i) const {
    const auto& in = f.body[i];
    return is_cta_barrier(in) || (set == BarrierSet::cta_and_warp && is_warp_barrier(in));
  }
  std::vector<std::uint32_t> succ(std::uint32_t i) const {
    int b = g.block_of[i];
    if (i + 1 < g.blocks[b].end) return {i + 1};
    std::vector<std::uint32_t> out;
    for (int s : g.blocks[b].succ) if (g.blocks[s].end > g.blocks[s].begin) out.push_back(g.blocks[s].begin);
    return out;
  }
  // Instructions reachable from the successors of `from` (or from instruction 0 when from = -1), stopping
  // at barriers (they are marked, not passed) and, when avoid >= 0, never entering instruction `avoid`.
  std::vector<char> reach(int from, long avoid, bool include_from = false) const {
    std::vector<char> seen(f.body.size(), 0);
    std::vector<std::uint32_t> stack;
    if (f.body.empty()) return seen;
    if (from < 0) stack.push_back(0);
    else if (include_from) stack.push_back(static_cast<std::uint32_t>(from));
    else for (auto s : succ(static_cast<std::uint32_t>(from))) stack.push_back(s);
    while (!stack.empty()) {
      auto i = stack.back();
      stack.pop_back();
      if (seen[i] || static_cast<long>(i) == avoid) continue;
      seen[i] = 1;
      if (barrier(i) && !(include_from && static_cast<int>(i) == from && stack.empty() && false)) continue;
      for (auto s : succ(i)) stack.push_back(s);
    }
    return seen;
  }
};
}  // namespace

Regions compute_regions(const ptx::ir::Function& f, const Cfg& g, BarrierSet set) {
  Regions r;
  Walker w{f, g, set};
  r.starts.push_back(-1);
  for (std::uint32_t i = 0; i < f.body.size(); ++i) if (w.barrier(i)) r.starts.push_back(static_cast<int>(i));
  for (int s : r.starts) r.reach.push_back(w.reach(s, -1));
  for (const auto& L : g.loops) {
    auto h = g.blocks[L.header].begin;
    if (g.blocks[L.header].end == h) continue;
    // Every iteration passes a barrier: the header is not reachable from itself barrier-free.
    bool passes = true;
    if (!w.barrier(h)) {
      auto again = w.reach(static_cast<int>(h), -1);
      passes = !again[h];
    }
    if (passes) r.barrier_loops.push_back(L.header);
  }
  r.crossing.resize(r.starts.size());
  for (std::size_t k = 0; k < r.starts.size(); ++k) {
    for (int hb : r.barrier_loops) {
      auto h = g.blocks[hb].begin;
      std::vector<char> bits(f.body.size(), 0);
      auto before = w.reach(r.starts[k], static_cast<long>(h));
      for (std::size_t i = 0; i < bits.size(); ++i) if (before[i]) bits[i] |= 1;
      if (r.reach[k][h] && !w.barrier(h)) {
        std::vector<char> after(f.body.size(), 0);
        std::vector<std::uint32_t> stack{static_cast<std::uint32_t>(h)};
        while (!stack.empty()) {
          auto i = stack.back();
          stack.pop_back();
          if (after[i]) continue;
          after[i] = 1;
          if (w.barrier(i)) continue;
          for (auto s : w.succ(i)) stack.push_back(s);
        }
        for (std::size_t i = 0; i < bits.size(); ++i) if (after[i]) bits[i] |= 2;
      }
      r.crossing[k].push_back(std::move(bits));
    }
  }
  return r;
}

}  // namespace ptxcheck::race
