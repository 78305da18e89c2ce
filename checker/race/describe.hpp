// How both race engines (symbolic and dynamic) name an instruction in a report: its CUDA and PTX position, the
// strength and scope of its memory operation, and its opcode as written.
#pragma once

#include "checker/race/check.hpp"
#include "semantics/ir/ir.hpp"

#include <string>

namespace ptxcheck::race {

Where where_of(const ptx::ir::Module& m, const ptx::ir::Instruction& in);
const char* scope_name(ptx::ir::Scope s);
// "weak", or "strong.<scope>" / "volatile.<scope>" / "atomic.<scope>" (strength.hpp decides).
std::string strength_text(const ptx::ir::Instruction& in, bool atomic);
// The C++ argument a kernel parameter of `kernel` is ("argument 2, int*" for `_Z1kPKiPi_param_1`); empty for
// another object or a kernel whose PTX name is not mangled.
std::string argument_text(const ptx::ir::Function& kernel, std::string_view object);

}  // namespace ptxcheck::race
