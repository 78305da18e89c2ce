// The order a block-scope pipeline's phases give two accesses (pipeline.hpp, docs/race/pipeline.md), as terms:
// check_pipeline.cpp builds them per pair from the symbolic threads' arrive counters, and the lemma
// proofs/race_pipeline.cpp race.pipeline_phases_order checks these same terms against every interleaving of small
// pipelines run on the mbarrier's own rules (the counting a finite litmus environment cannot express, issue 33).
#pragma once

#include <z3++.h>

#include <array>
#include <cstdint>

namespace ptxcheck::race {

// x's thread made `x_full` arrives on "full" and `x_empty` on "empty" before x (64 bits); `x_async`: x is an async
// copy of the stage whose arrive on "full" is x's thread's next (it completes within that arrive's phase,
// 9.7.13.15.15), not an access in program order. y's thread made `y_full` / `y_empty` arrives before y, and its
// waits that returned True before y are at least these: W_full >= y_full + least[0] and >= y_empty + least[1],
// W_empty >= y_full + least[2] and >= y_empty + least[3]. `stages`: S.
//
// x happens before y when y's thread passed the wait on the phase of "full" that holds x's thread's next arrive on
// it (wait number x_full), or the wait on "empty" S stages on (every thread arrives on empty after its wait on that
// phase of full); for x in program order, also through the phase of "empty" that holds x's thread's next arrive on
// it: the wait on "empty" or on "full" number x_empty + S.
inline z3::expr pipeline_ordered(const z3::expr& x_full, const z3::expr& x_empty, bool x_async, const z3::expr& y_full,
                                 const z3::expr& y_empty, const std::array<std::int64_t, 4>& least, std::int64_t stages) {
  z3::context& c = x_full.ctx();
  auto number = [&](std::int64_t k) { return c.bv_val(static_cast<std::uint64_t>(k), 64); };
  // "arrives < W" for a lower bound of W: y's thread has passed wait number `arrives + 1`.
  auto waited_full = [&](const z3::expr& arrives) { return z3::slt(arrives, y_full + number(least[0])) || z3::slt(arrives, y_empty + number(least[1])); };
  auto waited_empty = [&](const z3::expr& arrives) { return z3::slt(arrives, y_full + number(least[2])) || z3::slt(arrives, y_empty + number(least[3])); };
  const z3::expr s = number(stages);
  z3::expr ordered = waited_full(x_full) || waited_empty(x_full + s);
  if (!x_async) ordered = ordered || waited_empty(x_empty + s) || waited_full(x_empty + s);
  return ordered;
}

}  // namespace ptxcheck::race
