// The form rules of the miscellaneous, stack and control forms the builder checks beyond the generic operand checks:
// setmaxnreg's immediate (ISA 9.7.19.5).
#pragma once

#include "semantics/ir/ir.hpp"

#include <string>

namespace ptx::ir {

// Why `setmaxnreg.action.sync.aligned.u32 imm-reg-count` is malformed (empty when it is not): .action is .inc or
// .dec, .sync and .aligned are mandatory, and imm-reg-count is an integer constant in 24..256, a multiple of 8.
std::string setmaxnreg_error(const Instruction& in);

}  // namespace ptx::ir
