// Checking one file end to end: .cu through nvcc (default optimisation or -Xcicc -O0) or .ptx as is, parse,
// build the IR, then every kernel (or the one named). Used by `ptxcheck race` and the corpus driver.
#pragma once

#include "checker/race/report.hpp"
#include "semantics/support/cuda.hpp"

#include <optional>
#include <string>

namespace ptxcheck::race {

struct RunOptions {
  Options check;
  CudaOptions cuda;
  bool o0 = false;             // source-faithful mode: -Xcicc -O0
  std::optional<std::string> kernel;
  std::optional<std::string> launch_file;  // the dynamic engine on this launch (dynamic.hpp) instead of the symbolic one
  std::uint64_t seed = 0;                  // its interpreter schedule
  double nvcc_seconds = 0;     // out: time spent producing PTX
};

FileResult run_file(const std::string& path, RunOptions& o);

// GPUVerify's spellings "64", "64,2", "[64,2]", "{64,2}", "64,2,1" -> {x, y, z}; nullopt on a malformed value.
std::optional<std::array<std::uint32_t, 3>> parse_dim(const std::string& s);

}  // namespace ptxcheck::race
