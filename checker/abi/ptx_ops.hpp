// The memory-ordering PTX instructions of a module (fences, membar, strong ld/st, atom, red), each with
// the CUDA source position it came from: the innermost position in the user's file along the full
// `.loc ... inlined_at` chain, continued through the call sites of functions nvcc did not inline.
#pragma once

#include "checker/abi/table.hpp"
#include "semantics/ir/ir.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ptxcheck::abi {

struct PtxOp {
  std::optional<PtxClass> cls;  // none: a weak ld/st (kept only to explain a missing mapping)
  MemorySemantics sem = MemorySemantics::weak;  // decoded: membar = fence.sc (ISA 9.7.13.4), volatile and
  Scope scope = Scope::gpu;                     // mmio = relaxed.sys (ISA 8.4.1-8.4.2), atom default relaxed.gpu
  std::optional<ptx::ir::AtomOp> atom_op;
  std::string text;              // the instruction as written: `ld.acquire.gpu.b32`
  std::uint32_t ptx_line = 0;
  std::uint32_t line = 0, column = 0;  // attributed position in the user's file; line 0 = none
  std::string function;          // the function whose body holds it
  bool via_call = false;         // attributed to the site of a `call` to a non-inlined function with branches
};

struct PtxOps {
  std::vector<PtxOp> ops;  // in program order of each kernel, callees expanded at their call sites
  std::vector<std::uint32_t> user_files;  // the `.file` indices that name the user's source
};

// `user_source` is the .cu file the PTX was compiled from: `.file` entries that name it (same path,
// same canonical path, or else same file name) are the user's file.
PtxOps collect_ptx_ops(const ptx::ir::Module& module, const std::string& user_source);

}  // namespace ptxcheck::abi
