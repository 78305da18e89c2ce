// Symbolic finds, concrete confirms (DESIGN principle 5): a symbolic race's witness (launch shape and kernel
// arguments) is run on the interpreter by the dynamic engine (dynamic.hpp); a race that execution exhibits
// between the same two instructions is marked confirmed, and a race it exhibits between two other instructions is
// added as a confirmed report of its own.
#pragma once

#include "checker/race/check.hpp"
#include "semantics/runtime/device_limits.hpp"

namespace ptxcheck::race {

struct ReplayOptions {
  unsigned max_runs = 4;                  // interpreter runs per kernel (up to three fills per race, certain races first)
  std::uint64_t max_steps = 1'000'000;    // warp instructions per run (a replay is a check, not a workload)
  double max_seconds = 3;                 // CPU time per run
  std::uint64_t max_shadow_bytes = std::uint64_t{1} << 28;  // history memory per run (DynamicOptions::max_shadow_bytes)
  std::uint64_t max_threads = 1u << 16;   // larger witness launches are not replayed
  std::uint64_t max_buffer_bytes = 1u << 24;
  bool cooperative = false;               // a cooperative launch (the kernel synchronises its grid)
  // Dynamic shared memory per CTA when the module has an `extern .shared` array: 48 KiB, what a CUDA launch may
  // ask for without opting in to more (the symbolic engine bounds no such array).
  std::uint32_t dynamic_shared_bytes = ptx::runtime::kSharedPerBlock;
  // The user's preconditions (--assume): a fill whose launch breaks one is not run (a flag assumed clear at launch
  // must not start set).
  std::vector<Assumption> assumptions;
};

// Replays the witnesses of `races` (found in `kernel` of `m`), marking those seen as confirmed (no longer
// possible), saying in each other one's note why it is not, and appending the other races the replays showed.
void replay_races(const ptx::ir::Module& m, const ptx::ir::Function& kernel, std::vector<RaceReport>& races,
                  const ReplayOptions& o = {});

}  // namespace ptxcheck::race
