// The nvcc options of one compile_commands.json entry, for compiling its .cu to PTX as `ptxcheck race FILE.cu`
// does: the build's own flags, with the ones that choose an output or a phase (-c, -o, -x, -M*, -dc ...) left out
// and nvcc's spellings read as cli/nvcc_spellings.hpp reads them on ptxcheck's command line.
#pragma once

#include "cli/compile_db.hpp"
#include "semantics/support/cuda.hpp"

namespace ptxcheck::cli {

// BASE supplies what the entry leaves unsaid (the default --arch). Relative paths of -I, -isystem and -include
// are read against the entry's directory; other flags are passed as written.
CudaOptions entry_cuda_options(const CompileEntry& entry, const CudaOptions& base);

}  // namespace ptxcheck::cli
