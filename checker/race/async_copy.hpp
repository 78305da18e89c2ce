// Where the memory accesses of a `cp.async` may happen. ISA 9.7.9.25.3 (and 8.x's asynchronous operations,
// "ordered after prior instructions in the same thread ... but not part of the program order"): the copy's read
// of global memory and write of shared memory take place at some point after the instruction and no later than
// the completion of its cp.async-group: the first `cp.async.wait_group N` with at least N + 1 groups committed
// after it (its own included), or a `cp.async.wait_all`; without one, at any point until the thread exits.
#pragma once

#include "checker/race/cfg.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace ptxcheck::race {

// Iterations counted past which a span is taken as reaching every later iteration of the loop.
inline constexpr int max_async_iterations = 4;
// States the analysis visits, over all copies of a kernel, before it gives up (an unknown answer with the reason).
inline constexpr std::size_t max_async_states = 100'000;

// A point the copy may be in flight at: while the thread is at `instr` (the completing wait included), in the
// issuing iteration of each loop around the cp.async plus `later` (0: the same iteration), and in iteration
// `entered` (0: the first) of each loop entered since, or in any iteration (`any_iteration`) where the span
// re-enters a loop around the cp.async from outside or runs past max_async_iterations. For a loop that does not
// hold `instr` (the span left it), the entry is the iteration it was left in, and `left_from` its last instruction
// in the loop while no CTA barrier has been passed since. `last_barrier`: the last CTA barrier the thread passed on
// the way from the cp.async (-1: none), which tells its barrier interval.
struct AsyncPosition {
  static constexpr int any_iteration = -1;
  std::uint32_t instr = 0;
  std::map<int, int> later;    // loop around the cp.async (index into Cfg::loops) -> iterations after the issuing one
  std::map<int, int> entered;  // loop entered since the cp.async -> the iteration of it
  std::map<int, std::uint32_t> left_from;  // loop left, no CTA barrier since -> the last instruction in it
  int last_barrier = -1;
};

// Which entries of an AsyncPosition a pair check reads (kernel_check.hpp), per loop; the others are not followed,
// which keeps the states few in kernels whose copies sit in nested loops with spin loops after them (a
// cuda::pipeline's mbarrier try_wait loops, issue 37). The readers: the barrier-loop checks (check_positions.cpp,
// check_search.cpp) read `later`, `entered` and `left_from` only of a loop every iteration of which passes a CTA
// barrier (Analysis::aligned, a subset of the loops that hold one); the own-copy check (check_own_copies.cpp) reads
// `later` and `entered` of a loop L only at a position inside L at a memory access. So, exactly (no consumer sees
// a difference, and no position's instruction is dropped):
//  - `entered` of a loop with neither a CTA barrier nor a memory access is not followed (any iteration);
//  - `left_from`, and `later` and `entered` once the span has left the loop, are not followed for a loop without a
//    CTA barrier (re-entering it starts `entered` at 0 again, `later` at any iteration).
struct LoopsObserved {
  std::vector<bool> after_leaving;  // loop -> holds a CTA barrier
  std::vector<bool> entered;        // loop -> holds a CTA barrier or a memory access
};
LoopsObserved observed_loops(const ptx::ir::Function& f, const Cfg& g);

// Every `cp.async` copy of f (ptx::ir::AsyncCopyRole::copy) -> the positions it may be in flight at, the
// instruction itself first. The group count is followed along each path; branch conditions are not.
std::map<std::uint32_t, std::vector<AsyncPosition>> async_spans(const ptx::ir::Function& f, const Cfg& g);

}  // namespace ptxcheck::race
