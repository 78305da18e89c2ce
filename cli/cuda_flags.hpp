// The nvcc pass-through options shared by every subcommand that accepts .cu files.
#pragma once
#include "semantics/support/cuda.hpp"
#include <CLI/CLI.hpp>

namespace ptxcheck::cli {
inline void add_cuda_options(CLI::App* cmd, CudaOptions& o) {
  cmd->add_option("-D", o.defines, "nvcc: define a macro (NAME or NAME=VALUE)")->allow_extra_args(false);
  cmd->add_option("-I", o.include_dirs, "nvcc: include directory")->allow_extra_args(false);
  cmd->add_option("--include", o.include_files, "nvcc: force-include a header")->allow_extra_args(false);
  cmd->add_option("--arch", o.arch, "nvcc: -arch value")->capture_default_str();
  cmd->add_option("--nvcc-flag", o.extra, "nvcc: one more flag, passed as written")->allow_extra_args(false);
}
}  // namespace ptxcheck::cli
