// The qualifiers each mbarrier operation takes (ISA 9.7.13.15.9-17): the type .b64, one state space of the
// operation's, and the .scope words of its syntax block (its .sem words are memory_order_error's, misc_forms.hpp).
// The IR checker's error at the instruction.
#pragma once

#include "semantics/ir/ir.hpp"

#include <string>

namespace ptx::ir {

// Why an mbarrier instruction's qualifiers are no form of its syntax block, or "" (also for other opcodes).
std::string mbarrier_form_error(const Instruction& in);

}  // namespace ptx::ir
