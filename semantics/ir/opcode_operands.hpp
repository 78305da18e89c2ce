// How many operands an opcode takes, as semantics/ir/opcodes.def lists it (the IR checker's rule), for front ends
// that build instructions without the PTX parser (the litmus builder's cells).
#pragma once

#include "semantics/ir/ir.hpp"

#include <utility>

namespace ptx::ir {
std::pair<unsigned, unsigned> opcode_operand_range(Opcode op);  // (min, max)
}  // namespace ptx::ir
