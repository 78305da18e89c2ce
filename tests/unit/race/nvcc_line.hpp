// The `// nvcc: FLAGS` line of a test kernel (as tests/exec/exec.sh reads it): the flags it is compiled with, for
// the race tests that compile tests/unit/race/dynamic/*.cu (sm_100a kernels say `// nvcc: -arch=sm_100a`).
#pragma once

#include "semantics/support/cuda.hpp"

#include <filesystem>
#include <fstream>
#include <string>

namespace ptxcheck::test {

inline CudaOptions with_nvcc_line(const std::filesystem::path& file, CudaOptions base) {
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("// nvcc: ", 0) == 0) return parse_nvcc_flags(line.substr(9), base);
  return base;
}

}  // namespace ptxcheck::test
