// How both race engines (symbolic and dynamic) name an instruction in a report: its CUDA and PTX position, the
// strength and scope of its memory operation, and its opcode as written.
#pragma once

#include "checker/race/check.hpp"
#include "semantics/ir/ir.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace ptxcheck::race {

Where where_of(const ptx::ir::Module& m, const ptx::ir::Instruction& in);
const char* scope_name(ptx::ir::Scope s);
// "weak", or "strong.<scope>" / "volatile.<scope>" / "atomic.<scope>" (strength.hpp decides).
std::string strength_text(const ptx::ir::Instruction& in, bool atomic);
// The C++ argument a kernel parameter of `kernel` is ("argument 2, int*" for `_Z1kPKiPi_param_1`); empty for
// another object or a kernel whose PTX name is not mangled.
std::string argument_text(const ptx::ir::Function& kernel, std::string_view object);
// The parameter names of `kernel` in its CUDA source (the .cu or .cuh files of the module's `.loc` map), one per
// PTX parameter, "" where unnamed; empty when the source is not found or does not declare it.
std::vector<std::string> source_parameter_names(const ptx::ir::Module& m, const ptx::ir::Function& kernel);
// How reports name the object an access of `in` reaches at byte `offset`, as the CUDA source does (names.hpp):
// `block_sum::s[16]` for `_ZZ9block_sumPKiPiE1s+64`, `argument 2 (out)[7]` for `_Z1kPKiPi_param_1+28`; empty when
// the object is unknown ("?").
std::string cuda_object_name(const ptx::ir::Module& m, const ptx::ir::Function& kernel, std::string_view object, std::int64_t offset,
                             const ptx::ir::Instruction& in);

}  // namespace ptxcheck::race
