// The forms of mma (ISA 9.7.14.5.14) and mma.sp / mma.sp::ordered_metadata (9.7.14.6.3): an instruction's
// qualifiers decoded, and whether they are one of the forms the syntax blocks and their restrictions define (shape x
// types x layouts, .kind, .block_scale with Table 37's .scale_vec_size and .stype, .satfinite for the integer forms,
// a rounding for .f64, .xor/.and .popc for .b1). One definition for the IR checker (an error at the instruction) and
// the interpreter (semantics/interp/mma_sync.cpp runs the dense forms it models from this decoding).
#pragma once

#include "semantics/ir/ir.hpp"

#include <optional>
#include <string>

namespace ptx::ir {

struct MmaSyntax {
  bool sparse = false;            // .sp or .sp::ordered_metadata
  bool ordered_metadata = false;  // .sp::ordered_metadata
  unsigned m = 0, n = 0, k = 0;
  bool a_row = true, b_row = false;  // .alayout, .blayout
  std::string d, a, b, c;            // element type words as written (`e2m1`, `tf32`, `b1`)
  std::string kind;                  // after `.kind::`, or ""
  bool block_scale = false;
  unsigned scale_vec = 0;  // .scale_vec::1X / 2X / 4X; 0 when not written
  std::string stype;       // .block_scale's scale type (`ue8m0`, `ue4m3`)
  bool satfinite = false;
  std::optional<Rounding> rounding;
  std::string bit_op;  // "xor" / "and" (with .popc), the .b1 forms
};

// The decoded form of an mma instruction, or nothing when it is not one the text defines.
std::optional<MmaSyntax> mma_syntax(const Instruction& ins);

// Why an mma instruction is no form 9.7.14.5.14 / 9.7.14.6.3 define, or "" (also for other opcodes).
std::string mma_form_error(const Instruction& ins);

}  // namespace ptx::ir
