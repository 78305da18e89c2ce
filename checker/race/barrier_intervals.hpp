// Barrier intervals of a kernel (kernel_check.hpp): the instructions a thread may run between two barriers of a
// kind, and the loops whose every iteration passes a CTA barrier (their iterations are kept together across a CTA).
#pragma once

#include "checker/race/cfg.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

namespace ptxcheck::race {

struct Analysis {
  const ptx::ir::Function& f;
  const Cfg& g;
  std::function<bool(std::uint32_t)> barrier;  // the instructions that end an interval
  std::vector<std::uint32_t> starts;               // interval starts: 0 and the instruction after each barrier
  std::vector<std::vector<bool>> in_interval;      // instruction -> start index -> reachable without a barrier
  std::vector<bool> aligned;                        // loop -> every iteration passes a CTA barrier
  // loop -> instruction -> 1 before, 2 after, 3 both; `between`: after the loop's split arrive, before its wait.
  std::vector<std::vector<std::uint8_t>> side;
  static constexpr std::uint8_t between = 6;

  // next_instructions, within loop `loop_only` when it is given (the walks that use it start inside the loop).
  std::vector<std::uint32_t> succ(std::uint32_t i, int loop_only = -1, bool no_back = false) const {
    std::vector<std::uint32_t> out = next_instructions(g, i, no_back);
    if (loop_only >= 0)
      std::erase_if(out, [&](std::uint32_t s) { return !in_loop(g, static_cast<std::size_t>(loop_only), s); });
    return out;
  }
  // Instructions reachable from `from` (inclusive) without passing a CTA barrier.
  std::vector<bool> reach(std::uint32_t from, int loop_only, bool no_back) const {
    std::vector<bool> seen(f.body.size(), false);
    std::vector<std::uint32_t> stack{from};
    while (!stack.empty()) {
      auto i = stack.back();
      stack.pop_back();
      if (i >= f.body.size() || seen[i]) continue;
      seen[i] = true;
      if (barrier(i)) continue;
      for (auto s : succ(i, loop_only, no_back)) stack.push_back(s);
    }
    return seen;
  }

  Analysis(const ptx::ir::Function& fn, const Cfg& cfg, std::function<bool(std::uint32_t)> ends)
      : f(fn), g(cfg), barrier(std::move(ends)) {
    const auto n = static_cast<std::uint32_t>(f.body.size());
    if (n == 0) return;
    starts.push_back(0);
    for (std::uint32_t i = 0; i < n; ++i)
      if (barrier(i)) for (auto s : succ(i)) starts.push_back(s);
    in_interval.assign(n, std::vector<bool>(starts.size(), false));
    for (std::size_t s = 0; s < starts.size(); ++s) {
      auto r = reach(starts[s], -1, false);
      for (std::uint32_t i = 0; i < n; ++i) if (r[i]) in_interval[i][s] = true;
    }
    aligned.assign(g.loops.size(), false);
    side.assign(g.loops.size(), {});
    for (std::size_t L = 0; L < g.loops.size(); ++L) {
      const auto& loop = g.loops[L];
      std::vector<int> latches;
      for (const auto& [from, to] : g.back) if (to == loop.header) latches.push_back(from);
      std::vector<std::uint32_t> bars;
      for (int b : loop.body)
        for (auto i = g.blocks[b].begin; i < g.blocks[b].end; ++i) {
          if (!separating_cta_barrier(f.body[i])) continue;
          bars.push_back(i);
          bool dominates = f.body[i].guard < 0;
          for (int l : latches) if (!g.dom[l].count(b)) dominates = false;
          if (dominates) aligned[L] = true;
        }
      if (!aligned[L]) continue;
      side[L].assign(n, 0);
      auto before = reach(g.blocks[loop.header].begin, static_cast<int>(L), true);
      for (std::uint32_t i = 0; i < n; ++i) if (before[i]) side[L][i] |= 1;
      for (auto bi : bars)
        for (auto s : succ(bi, static_cast<int>(L), true)) {
          auto after = reach(s, static_cast<int>(L), true);
          for (std::uint32_t i = 0; i < n; ++i) if (after[i]) side[L][i] |= 2;
        }
    }
  }

  // Access i comes after split arrive `arrive` and before its wait (mbarrier.hpp): it is also in every interval
  // that ends at the arrive, and in a barrier loop around the arrive it is on the `between` side.
  void place_between(std::uint32_t i, std::uint32_t arrive) {
    for (std::size_t s = 0; s < starts.size(); ++s) in_interval[i][s] = in_interval[i][s] || in_interval[arrive][s];
    for (auto& by_instr : side)
      if (!by_instr.empty() && by_instr[arrive] != 0 && by_instr[i] != 0 && by_instr[i] != 3) by_instr[i] = between;
  }

  bool same_interval(std::uint32_t a, std::uint32_t b) const {
    for (std::size_t s = 0; s < starts.size(); ++s) if (in_interval[a][s] && in_interval[b][s]) return true;
    return false;
  }
};

}  // namespace ptxcheck::race
