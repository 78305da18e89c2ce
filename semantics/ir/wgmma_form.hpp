// The forms of wgmma (ISA 9.7.15): wgmma.fence, commit_group and wait_group (9.7.15.7) and wgmma.mma_async{.sp}
// (9.7.15.5.2, 9.7.15.6.3): shape x types, .satfinite for the integer forms, .and.popc for .b1, and the operands each
// form takes with A from a descriptor or from registers. The IR checker's error at the instruction.
#pragma once

#include "semantics/ir/ir.hpp"

#include <string>

namespace ptx::ir {

// Why a wgmma instruction is no form 9.7.15.5.2, 9.7.15.6.3 and 9.7.15.7 define, or "" (also for other opcodes).
std::string wgmma_form_error(const Instruction& ins);

}  // namespace ptx::ir
