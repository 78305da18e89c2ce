// The dynamic engine: runs one launch on the interpreter (semantics/interp) and reports the data races of that
// execution (ISA 8.7.1: conflicting accesses neither morally strong nor ordered by causality order). Causality
// order (8.9.5) is tracked with vector clocks: CTA barriers, bar.warp.sync, fence.sc order, and release patterns
// that synchronize with acquire patterns through observation order (8.8, 8.9.2-8.9.4), each with its scope (8.5).
#pragma once

#include "checker/race/check.hpp"
#include "semantics/interp/launch.hpp"
#include "semantics/interp/observer.hpp"

#include <functional>
#include <string>
#include <vector>

namespace ptxcheck::race {

struct DynamicOptions {
  std::uint64_t seed = 0;                    // interpreter scheduling: 0 deterministic, else randomised
  std::uint64_t max_steps = 200'000'000;     // warp-instruction budget of the run
  std::uint64_t max_threads = 1u << 24;      // larger launches are refused (the time: ~20 s a million threads)
  // Memory of the bytes' access histories (checker/race/shadow.hpp: pages, cells and their read lists). 1 GiB is
  // about what 4 MiB of bytes took with a hash node per byte; it holds about 34 MiB of bytes touched by 4-byte
  // accesses, 97 MiB by 16-byte ones (bench/RESULTS.md). Past it, accesses to bytes not tracked yet go unchecked
  // (DynamicResult::truncated).
  std::uint64_t max_shadow_bytes = std::uint64_t{1} << 30;
  unsigned max_races = 32;
  double max_seconds = 0;                    // CPU time of the run with its checks; 0: no limit
  std::vector<std::array<std::uint32_t, 3>> first_ctas;  // run before the rest (ptx::interp::Options::first_ctas)
  // For a program's launches (ptxcheck exec --racecheck): the device memory they share, the kernel's printf
  // output, and the launch limits of a real GPU (off by default: the user's shape is checked, real or not).
  ptx::interp::DeviceMemory* device = nullptr;
  ptx::interp::TextureRegistry* textures = nullptr;  // the program's textures and surfaces (interp::Options::textures)
  std::function<void(const std::string&)> printf_sink;
  std::function<bool(std::uint64_t, std::uint32_t)> set_conditional;  // interp::Options::set_conditional
  bool gpu_launch_limits = false;
  ptx::interp::Observer* also = nullptr;  // another observer of the same run (ptxcheck exec --memcheck)
};

struct DynamicResult {
  std::vector<RaceReport> races;  // one per pair of source locations, each `confirmed` (seen in this execution)
  std::vector<DivergenceReport> divergences;  // aligned CTA barriers not reached by every thread (one per barrier)
  ptx::interp::RunResult run;     // how the run ended (a problem stops it early) and its statistics
  std::string error;              // the launch could not be run at all
  std::uint64_t accesses = 0;     // memory operations checked
  bool truncated = false;         // max_shadow_bytes reached: later accesses to new bytes went unchecked
  std::uint64_t tracked_bytes = 0;  // the most bytes with an access history at one time
  std::uint64_t shadow_bytes = 0;   // the most memory those histories took (max_shadow_bytes counts it)
  // Where the spec does not say whether two accesses are ordered and the engine took them as ordered: the first
  // such pair, described (a race-free verdict is then unknown).
  std::string unsettled;
};

DynamicResult check_execution(const ptx::ir::Module& m, const ptx::interp::Launch& launch, const DynamicOptions& o);

// A verdict for the dynamic engine's result, in the shape every report renders: race when a race or barrier
// divergence was seen; unknown when the run stopped early or tracking was cut; otherwise race-free, with a note
// saying it holds for this one execution only.
KernelResult dynamic_verdict(const DynamicResult& d, const std::string& kernel, std::uint64_t seed);

}  // namespace ptxcheck::race
