// The whole `ptxcheck abi` pipeline for one input: scan the CUDA source, compile it with nvcc once per
// requested configuration (arch x optimisation level), or read given PTX, then check each result.
#pragma once

#include "checker/abi/check.hpp"
#include "semantics/support/cuda.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ptxcheck::abi {

struct AbiRequest {
  std::string input;                  // a .cu file, or a .ptx file (then `source` names its .cu)
  std::optional<std::string> source;  // the CUDA source of a .ptx input
  CudaOptions cuda;
  std::vector<std::string> archs;       // empty: cuda.arch
  std::vector<std::string> opt_levels;  // NVVM levels for `-Xcicc -O<n>`; empty: nvcc's default
};

struct AbiRun {
  std::vector<AbiReport> reports;     // one per configuration
  std::optional<Diagnostic> error;    // bad input (unreadable file, nvcc or PTX error)
  int exit_code() const;              // 2 on error, else the worst report (1 > 2 > 3 > 0)
};

AbiRun run_abi(const AbiRequest& request);

}  // namespace ptxcheck::abi
