// Values broadcast through shared memory: `if (threadIdx.x == 0) s = v; __syncthreads(); ... = s;`.
//
// A load L of a `.shared` variable's word reads, in every thread of a CTA, the same value: the content left by
// the only store S that may write that word, or the content before it. Why: S is in no loop, L shares no barrier
// interval with S, and one of them reaches the other in the CFG. In a kernel without barrier divergence every
// thread of a CTA passes the same CTA-wide barriers, so all of the CTA's executions of L fall in phases (between
// barrier instances) after S's, or all before it (two threads whose phases at L and S were not so ordered would
// pass a barrier in different order relative to L and S, putting L and S in a cycle of the CFG or in one barrier
// interval). The word changes only in S's phase: the CTA's loads before it read the initial content, those after it
// the last store of that phase (one thread, or two whose stores race, ISA 8.7.1, reported on their own), ordered
// before them by the barrier (8.9.4 item 2; 8.10 Causality makes a race-free load read the latest write ordered
// before it). Barrier divergence is reported on its own as well, so a kernel found free of both is free of them
// under this reading.
//
// Where the word has several stores (or one in a loop without a barrier in every iteration, or a load before the
// store in a loop), a load that shares no barrier interval with any of them still reads one value per CTA and phase
// (the word does not change in its phase), provided each loop around it passes a CTA barrier in every iteration or
// in none: what is known then is only that the CTA's threads agree (a loop's exit test on such a flag is uniform).
//
// A store in loops is allowed when every iteration of each of them passes a CTA barrier (the engine's aligned
// loops: a CTA's threads run their iterations together) and the load is in the same loops, after the store in the
// same iteration: it reads one value per CTA and iteration.
//
// The variable's address must never be taken into a register (every use is an `ld`/`st` naming it), so that no
// pointer can reach it, and it must not be `extern` (dynamic shared arrays share one allocation).
#pragma once

#include "checker/race/cfg.hpp"

#include <functional>
#include <map>
#include <set>
#include <vector>

namespace ptxcheck::race {

struct Broadcast {
  enum class Reads : std::uint8_t {
    stored_value,     // the load comes after `store`, the only store of the word: what it stored
    initial_content,  // the load comes before `store`, the only store of the word: the content before it
    one_per_phase,    // a value the CTA's threads agree on (stores of the word in other barrier intervals only)
  } reads = Reads::one_per_phase;
  std::uint32_t store = 0;
  // The loops whose iteration, with the CTA, tells the phase in which the load reads: for a stored value the
  // loops around the store, for one per phase the loops around the load that pass a barrier in every iteration.
  std::vector<int> phase_loops;
};

// Load instruction -> what it reads. `same_interval(i, j)`: i and j may run in one barrier interval;
// `aligned_loops[L]`: every iteration of loop L passes a CTA barrier.
std::map<std::uint32_t, Broadcast> find_broadcasts(const ptx::ir::Module& m, const ptx::ir::Function& f, const Cfg& g,
                                                   const std::function<bool(std::uint32_t, std::uint32_t)>& same_interval,
                                                   const std::vector<bool>& aligned_loops);

}  // namespace ptxcheck::race
