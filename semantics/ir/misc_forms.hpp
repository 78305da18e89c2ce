// The form rules of the miscellaneous, stack and control forms the builder checks beyond the generic operand checks:
// setmaxnreg's immediate (ISA 9.7.19.5), alloca's alignment (9.7.17.3).
#pragma once

#include "semantics/ir/ir.hpp"

#include <string>

namespace ptx::ir {

// Why `setmaxnreg.action.sync.aligned.u32 imm-reg-count` is malformed (empty when it is not): .action is .inc or
// .dec, .sync and .aligned are mandatory, and imm-reg-count is an integer constant in 24..256, a multiple of 8.
std::string setmaxnreg_error(const Instruction& in);

// Why `alloca.type ptr, size{, immAlign}`, `stacksave.type d` or `stackrestore.type a` is malformed (empty when it is
// not): .type is .u32 or .u64 (9.7.17.1-3); immAlign "is an integer constant, must be a power of 2 and must not
// exceed 2^23" (9.7.17.3).
std::string stack_form_error(const Instruction& in);

}  // namespace ptx::ir
