// Barrier intervals: which instructions a thread can reach from the kernel entry or from a barrier without
// passing another barrier, and, for loops that pass a barrier on every iteration, whether reaching an
// instruction from a given barrier crosses the loop header (so two threads there are in the same iteration).
#pragma once

#include "checker/race/cfg.hpp"

#include <vector>

namespace ptxcheck::race {

enum class BarrierSet { cta, cta_and_warp };

bool is_cta_barrier(const ptx::ir::Instruction& in);   // bar.sync / barrier.sync / bar.red, whole CTA, unguarded
bool is_warp_barrier(const ptx::ir::Instruction& in);  // bar.warp.sync with the full mask

struct Regions {
  std::vector<int> starts;                 // -1 = kernel entry, else the barrier instruction
  std::vector<std::vector<char>> reach;    // per start: instruction reachable barrier-free
  // Loops whose every iteration passes a barrier of the set: header block.
  std::vector<int> barrier_loops;
  // [start][loop] -> per instruction: bit 1 = reachable without crossing the header, bit 2 = crossing it.
  std::vector<std::vector<std::vector<char>>> crossing;
};

Regions compute_regions(const ptx::ir::Function& f, const Cfg& g, BarrierSet set);

}  // namespace ptxcheck::race
