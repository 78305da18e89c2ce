// The options of `ptxcheck race`, shared by its two modes: files on the command line (cmd_race.cpp) and a whole
// project from compile_commands.json (`-p BUILD_DIR`, cmd_race_project.cpp).
#pragma once

#include "checker/race/run.hpp"
#include "cli/race_output.hpp"
#include "semantics/support/cuda.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ptxcheck::cli {

struct RaceArgs {
  std::vector<std::string> files, assumptions;
  std::string kernel, block, grid, launch;
  std::uint64_t seed = 0;
  bool json = false, sarif = false, o0 = false, x_only = false, block_level = false, pure_externs = false;
  race::QueryBudget query;
  unsigned memory_mb = race::Options{}.memory_mb;
  double max_seconds = race::Options{}.max_seconds, max_wall_seconds = race::Options{}.max_wall_seconds;
  CudaOptions cuda;
  // Output: --format, or the older --json / --sarif.
  std::string format;
  // Project mode (-p).
  std::string project, shapes, shard;
  unsigned jobs = 1;
};

// The run options the arguments ask for; nullopt after printing the error of a malformed value (exit 2).
std::optional<race::RunOptions> race_run_options(const RaceArgs& a);
// --format (text, json, sarif, jsonl), or --json / --sarif; nullopt after printing the error.
std::optional<RaceFormat> race_format(const RaceArgs& a);

// `race -p BUILD_DIR`: every .cu of the compilation database. Returns the exit code.
int run_race_project(const RaceArgs& a);

}  // namespace ptxcheck::cli
