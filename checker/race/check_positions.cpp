// Where an access may be in a kernel's pair check (kernel_check.hpp): its barrier intervals, its side of barrier
// loops' barriers, the positions of a cp.async's copy, and the iterations barriers keep two threads in.
#include "checker/race/kernel_check.hpp"

namespace ptxcheck::race {
using ptx::ir::Opcode;

std::vector<bool> KernelCheck::cta_intervals_of(std::uint32_t issue, const AsyncPosition& p) {
  std::vector<bool> in = an.in_interval[p.instr];
  if (p.last_barrier < 0) {
    for (std::size_t k = 0; k < in.size(); ++k) in[k] = in[k] && an.in_interval[issue][k];
  } else {
    const auto after = next_instructions(prep.cfg, static_cast<std::uint32_t>(p.last_barrier));
    for (std::size_t k = 0; k < in.size(); ++k) in[k] = in[k] && std::count(after.begin(), after.end(), an.starts[k]) > 0;
  }
  return in;
}

bool KernelCheck::in_body(std::size_t L, std::uint32_t instr) { return in_loop(prep.cfg, L, instr); }

// A position's side of barrier loop L's barriers (Analysis::side): its instruction's, or where the span left
// the loop when no barrier has been passed since; nullopt when it is outside L otherwise.
std::optional<std::uint8_t> KernelCheck::side_of(const AsyncPosition& p, std::size_t L) {
  if (in_body(L, p.instr)) return an.side[L][p.instr];
  if (auto it = p.left_from.find(static_cast<int>(L)); it != p.left_from.end()) return an.side[L][it->second];
  return std::nullopt;
}

void KernelCheck::place_accesses() {
  // Barrier loops left only from after their barrier (every exit edge leaves from side 2).
  left_after_barrier.assign(prep.cfg.loops.size(), false);
  for (std::size_t L = 0; L < prep.cfg.loops.size(); ++L) {
    if (!an.aligned[L]) continue;
    bool after = true;
    for (int b : prep.cfg.loops[L].body)
      for (std::uint32_t i = prep.cfg.blocks[b].begin; i < prep.cfg.blocks[b].end; ++i)
        for (std::uint32_t next : next_instructions(prep.cfg, i))
          if (!in_body(L, next) && an.side[L][i] != 2) after = false;
    left_after_barrier[L] = after;
  }
  // Per barrier loop left only after its barrier: the instructions from which its header is reachable without
  // passing a CTA barrier (a thread there may still enter it in the current interval).
  before_loop = std::vector<std::vector<bool>>(prep.cfg.loops.size());
  for (std::size_t L = 0; L < prep.cfg.loops.size(); ++L) {
    if (!left_after_barrier[L]) continue;
    std::vector<bool>& mark = before_loop[L];
    mark.assign(f.body.size(), false);
    std::vector<std::uint32_t> todo{loop_header(prep.cfg, L)};
    while (!todo.empty()) {
      const std::uint32_t i = todo.back();
      todo.pop_back();
      for (std::uint32_t prev : previous_instructions(prep.cfg, i))
        if (!mark[prev] && !separating_cta_barrier(f.body[prev])) {
          mark[prev] = true;
          todo.push_back(prev);
        }
    }
  }
  // Per barrier loop left only after its barrier: the instructions it can reach (its header's forward closure) and
  // those that can reach it. A thread at an instruction after the loop that cannot reach it again, in a barrier
  // interval that began where the loop cannot have run before, never entered the loop: entering it means passing its
  // barrier before leaving it (`for (d = n >> 1; d > 0; d >>= 1) { __syncthreads(); ... }` run zero times).
  reached_from_loop = std::vector<std::vector<bool>>(prep.cfg.loops.size());
  reaching_loop = std::vector<std::vector<bool>>(prep.cfg.loops.size());
  for (std::size_t L = 0; L < prep.cfg.loops.size(); ++L) {
    if (!left_after_barrier[L]) continue;
    for (bool forward : {true, false}) {
      std::vector<bool>& mark = forward ? reached_from_loop[L] : reaching_loop[L];
      mark.assign(f.body.size(), false);
      mark_reachable(prep.cfg, {loop_header(prep.cfg, L)}, mark, forward);
    }
  }
  // A span's positions, one of each kind the pair checks below tell apart: the barrier intervals (of the CTA, the
  // warp, the grid) it may be in, and per barrier loop its side of the barrier and which iteration (a pipelined
  // loop's span holds hundreds of positions, of a few kinds).
  for (const auto& [issue, positions] : spans) {
    std::set<std::vector<int>> seen;
    for (const AsyncPosition& p : positions) {
      Position pos{p, cta_intervals_of(issue, p)};
      std::vector<int> kind(pos.cta_intervals.begin(), pos.cta_intervals.end());
      for (const Analysis* x : {&an_warp, an_grid ? &*an_grid : nullptr})
        if (x) kind.insert(kind.end(), x->in_interval[p.instr].begin(), x->in_interval[p.instr].end());
      for (std::size_t L = 0; L < prep.cfg.loops.size(); ++L) {
        const auto side = an.aligned[L] ? side_of(p, L) : std::nullopt;
        if (!side) { kind.push_back(-1); continue; }
        auto later = p.later.find(static_cast<int>(L));
        auto entered = p.entered.find(static_cast<int>(L));
        kind.insert(kind.end(), {*side, later != p.later.end() ? later->second : -2, entered != p.entered.end() ? entered->second : -2});
      }
      if (seen.insert(std::move(kind)).second) span_kinds[issue].push_back(std::move(pos));
    }
  }
  // Per access of the encoding (T1's and T2's alike): its positions.
  for (const Access& x : T1.accesses) {
    AsyncPosition at;
    at.instr = x.instr;
    positions_of.push_back(x.async ? span_kinds.at(x.instr) : std::vector<Position>{Position{at, an.in_interval[x.instr]}});
  }
}

bool KernelCheck::same_cta_interval(const Position& x, const Position& y) {
  for (std::size_t k = 0; k < x.cta_intervals.size(); ++k)
    if (x.cta_intervals[k] && y.cta_intervals[k]) return true;
  return false;
}

bool KernelCheck::any_same_interval(const Analysis& intervals, const std::vector<Position>& xs, const std::vector<Position>& ys) {
  for (const auto& x : xs)
    for (const auto& y : ys)
      if (intervals.same_interval(x.at.instr, y.at.instr)) return true;
  return false;
}

// T1 at x and T2 at y, in one barrier interval of a CTA: the barriers keep the threads' iterations of a barrier
// loop around both together (the same iteration, or one apart across the loop's barrier). A position of a
// cp.async's copy is `later` iterations after the thread's own (async_copy.hpp), or in any one; one the span
// reached by leaving the loop counts as in the iteration it left, on the side it left from. And a thread in a
// barrier loop, in an interval that began outside it, has passed none of the loop's barriers since it entered:
// it is in the loop's first iteration (per interval both may be in).
z3::expr KernelCheck::iterations_together(const Position& px, bool x_async, const Position& py, bool y_async) {
  const AsyncPosition &x = px.at, &y = py.at;
  z3::expr align = c.bool_val(true);
  const z3::expr zero = c.bv_val(0, 64), one = c.bv_val(1, 64);
  auto iteration = [&](const ThreadEncoding& t, const AsyncPosition& p, bool async, int L) -> std::optional<z3::expr> {
    if (!async) return t.k.at(L);
    if (auto it = p.later.find(L); it != p.later.end() && it->second != AsyncPosition::any_iteration) {
      align = align && z3::ult(t.k.at(L), c.bv_val(std::uint64_t{1} << 62, 64));  // no wrap-around below
      return t.k.at(L) + c.bv_val(static_cast<std::uint64_t>(it->second), 64);
    }
    if (auto it = p.entered.find(L); it != p.entered.end() && it->second != AsyncPosition::any_iteration)
      return c.bv_val(static_cast<std::uint64_t>(it->second), 64);
    return std::nullopt;
  };
  for (std::size_t L = 0; L < prep.cfg.loops.size(); ++L) {
    if (!an.aligned[L]) continue;
    const auto sx = side_of(x, L), sy = side_of(y, L);
    if (!sx || !sy) continue;
    const auto k1 = iteration(T1, x, x_async, static_cast<int>(L)), k2 = iteration(T2, y, y_async, static_cast<int>(L));
    if (!k1 || !k2) continue;
    // (One iteration after another: the later one is not the first, so that the sum does not wrap around.)
    const z3::expr k2_next = *k2 == *k1 + one && *k2 != zero, k1_next = *k1 == *k2 + one && *k1 != zero;
    // Between a split arrive and its wait (item 5 of ISA 9.7.13.15.16), iteration j shares a phase with the
    // accesses before the arrive of iterations j and j+1 and after the wait of iterations j-1 and j.
    const bool bx = *sx == Analysis::between, by = *sy == Analysis::between;
    if (bx && *sy == 1) align = align && (*k1 == *k2 || k2_next);
    else if (by && *sx == 1) align = align && (*k1 == *k2 || k1_next);
    else if (bx && *sy == 2) align = align && (*k1 == *k2 || k1_next);
    else if (by && *sx == 2) align = align && (*k1 == *k2 || k2_next);
    else if (*sx == *sy && *sx != 3 && !bx) align = align && *k1 == *k2;
    else if (*sx == 2 && *sy == 1) align = align && k2_next;
    else if (*sx == 1 && *sy == 2) align = align && k1_next;
    else align = align && (*k1 == *k2 || k2_next || k1_next);
  }
  z3::expr in_some_interval = c.bool_val(false);
  std::set<std::vector<std::size_t>> held_sets;  // per interval: the (loop, thread) pairs held to an iteration
  for (std::size_t k = 0; k < an.starts.size(); ++k) {
    if (!px.cta_intervals[k] || !py.cta_intervals[k]) continue;
    // One thread in barrier loop L, the other outside it, past it (it cannot reach L's header before a barrier).
    // When L is left only after a barrier of an iteration (left_after_barrier), the one outside ran all of its
    // iterations of L, or none, and passed a barrier in its last one. In an interval that began outside L the
    // thread inside has passed none of L's barriers, and in one that began at a barrier in L, a thread before any
    // barrier of its iteration (side 1) is an iteration past the other's last: either way the two run L a
    // different number of times, which barriers aligned in every iteration rule out. A thread after the barrier
    // of its iteration (side 2) is in the iteration the other left L in, its last (ThreadEncoding::last_iteration).
    z3::expr held_to = c.bool_val(true);  // the iterations the interval holds the threads to
    std::vector<std::size_t> held;
    bool different_trip_counts = false;
    for (std::size_t L = 0; L < prep.cfg.loops.size() && !different_trip_counts; ++L) {
      if (!left_after_barrier[L] || in_body(L, x.instr) == in_body(L, y.instr)) continue;
      const bool x_inside = in_body(L, x.instr);
      const AsyncPosition &inside = x_inside ? x : y, &outside = x_inside ? y : x;
      if (before_loop[L][outside.instr]) continue;
      const auto side = side_of(inside, L);
      different_trip_counts = !in_body(L, an.starts[k]) || (side && *side == 1);
      if (different_trip_counts || !side || *side != 2 || (x_inside ? x_async : y_async)) continue;
      const ThreadEncoding& t = x_inside ? T1 : T2;
      if (auto last = t.last_iteration.find(static_cast<int>(L)); last != t.last_iteration.end()) {
        held_to = held_to && last->second;
        held.push_back(2 * prep.cfg.loops.size() + 2 * L + (x_inside ? 0 : 1));
      }
    }
    if (different_trip_counts) continue;
    for (std::size_t L = 0; L < prep.cfg.loops.size(); ++L) {
      if (!an.aligned[L] || in_body(L, an.starts[k])) continue;
      for (int t = 0; t < 2; ++t) {
        const AsyncPosition& p = t == 0 ? x : y;
        if (!in_body(L, p.instr)) continue;
        if (auto it = iteration(t == 0 ? T1 : T2, p, t == 0 ? x_async : y_async, static_cast<int>(L))) {
          held_to = held_to && *it == zero;
          held.push_back(2 * L + static_cast<std::size_t>(t));
        }
      }
    }
    // A thread after a barrier loop it never entered (reached_from_loop above).
    const std::uint32_t start = an.starts[k];
    for (std::size_t L = 0; L < prep.cfg.loops.size(); ++L) {
      if (!left_after_barrier[L] || in_body(L, start) || reached_from_loop[L][start]) continue;
      for (int t = 0; t < 2; ++t) {
        const AsyncPosition& p = t == 0 ? x : y;
        const ThreadEncoding& te = t == 0 ? T1 : T2;
        auto entered = te.entered.find(static_cast<int>(L));
        if ((t == 0 ? x_async : y_async) || !reached_from_loop[L][p.instr] || reaching_loop[L][p.instr] || entered == te.entered.end()) continue;
        held_to = held_to && !entered->second;
        held.push_back(4 * prep.cfg.loops.size() + 2 * L + static_cast<std::size_t>(t));
      }
    }
    if (held_sets.insert(held).second) in_some_interval = in_some_interval || held_to;
  }
  return align && in_some_interval;
}

}  // namespace ptxcheck::race
