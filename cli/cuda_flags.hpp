// The nvcc pass-through options shared by every subcommand that accepts .cu files (nvcc's own spellings are
// rewritten to these first: cli/nvcc_spellings.hpp).
#pragma once
#include "semantics/support/cuda.hpp"
#include <CLI/CLI.hpp>

namespace ptxcheck::cli {
inline void add_cuda_options(CLI::App* cmd, CudaOptions& o) {
  cmd->add_option("-D", o.defines, "nvcc: define a macro (NAME or NAME=VALUE)")->allow_extra_args(false);
  cmd->add_option("-I", o.include_dirs, "nvcc: include directory")->allow_extra_args(false);
  cmd->add_option("--include", o.include_files, "nvcc: force-include a header")->allow_extra_args(false);
  cmd->add_option("--arch", o.arch, "nvcc: -arch value (nvcc spellings -arch=X, -gencode ...: the last one given)")
      ->capture_default_str()
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  cmd->add_option("--nvcc-flag", o.extra, "nvcc: one more flag, passed as written")->allow_extra_args(false);
}
}  // namespace ptxcheck::cli
