// nvcc's own spellings of the flags that matter for device compilation, accepted wherever a .cu file is (issue
// 38): users paste them from their build. The command line is rewritten before CLI11 reads it:
//   -include F              -> --include F          -arch=X, -arch X, --gpu-architecture[=]X -> --arch X
//   -gencode arch=compute_X,code=sm_Y -> --arch sm_Y (the code, else the arch; -ptx compiles for one target)
//   a flag nvcc takes alone or with `=` (-G, -lineinfo, -std=c++17, --expt-relaxed-constexpr, -use_fast_math,
//   -ftz=true, -rdc=true, -maxrregcount=N, -O3, -w, ...) or with its value in the next word (-Xcompiler X,
//   -Xptxas X, -Xcicc X, -std X, -isystem D, -maxrregcount N, --diag-suppress N) -> --nvcc-flag=... as written.
// -D and -I are ptxcheck's own options already, and `abi -O LEVELS` keeps its meaning. Anything else is left to
// CLI11 (an unknown flag is an error).
#pragma once

#include <string>
#include <vector>

namespace ptxcheck::cli {
std::vector<std::string> nvcc_spellings(const std::vector<std::string>& args);
}  // namespace ptxcheck::cli
