// The forms of wgmma (ISA 9.7.15): wgmma.fence, commit_group and wait_group (9.7.15.7) and wgmma.mma_async{.sp}
// (9.7.15.5.2, 9.7.15.6.3): shape x types, .satfinite for the integer forms, .and.popc for .b1, and the operands each
// form takes with A from a descriptor or from registers. The IR checker's error at the instruction.
#pragma once

#include "semantics/ir/ir.hpp"

#include <string>

namespace ptx::ir {

// Why a wgmma instruction is no form 9.7.15.5.2, 9.7.15.6.3 and 9.7.15.7 define, or "" (also for other opcodes).
std::string wgmma_form_error(const Instruction& ins);

// Whether N is in the .shape list of a wgmma.mma_async line: .m64n8kK ... .m64n256kK by 8, and for the integer and
// .b1 lines 8, 16, 24, 32, then by 16. The text's dense integer list stops at .m64n224k32 while its sparse, .b1 and
// every other list go to 256; ptxas 13.0 takes .m64n240k32 .s8 too, so the integer forms are read to 256
// (docs/front-end.md). One rule for the IR checker and the interpreter (wgmma_supported).
bool wgmma_n_listed(unsigned n, bool integer);

}  // namespace ptx::ir
