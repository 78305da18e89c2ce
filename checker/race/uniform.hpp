// Uniformity within a CTA: which registers hold the same value in every thread of a CTA at the same point
// of a barrier-synchronised execution, and which blocks only some threads of a CTA may reach (divergence).
#pragma once

#include "checker/race/cfg.hpp"

#include <set>
#include <vector>

namespace ptxcheck::race {

struct Uniformity {
  std::vector<bool> reg;        // register -> uniform across the CTA
  std::vector<bool> divergent;  // block -> reached under a thread-dependent condition
  std::vector<int> cause;       // block -> the thread-dependent branch (instruction) it diverges under, -1 none
};

// Special registers that hold one value in every thread of a CTA.
bool special_uniform(ptx::ir::SpecialRegister s);

// `uniform_loads`: loads known to read one value in every thread of a CTA (broadcast.hpp).
Uniformity analyse_uniformity(const ptx::ir::Function& f, const Cfg& g, const std::set<std::uint32_t>& uniform_loads = {});

// The same within a warp: registers that hold one value in every lane of a warp, blocks only some lanes of a warp may
// reach. Beyond what is uniform across the CTA, a broadcast from lane 0 to the whole warp (`shfl.sync.idx` with source
// lane 0 and membermask 0xffffffff, in a block the warp reaches alike) gives every lane one value (ISA 9.7.9.6: the
// lanes wait for each other, and all read lane 0's operand), so a loop whose exit tests it keeps the warp together
// (`base = __shfl_sync(~0u, base, 0); if (base >= n) break;`).
Uniformity analyse_warp_uniformity(const ptx::ir::Function& f, const Cfg& g, const std::set<std::uint32_t>& uniform_loads = {});

}  // namespace ptxcheck::race
