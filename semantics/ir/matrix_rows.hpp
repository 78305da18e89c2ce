// ldmatrix / stmatrix (ISA 9.7.14.5.15-16): one or more matrices of eight lines (rows; with .trans, columns) whose
// start addresses lanes 8j .. 8j+7 give for matrix j. One definition of the forms the engines run, for the
// interpreter (semantics/interp/warp_matrix.cpp) and the race encoder (each lane's line, checker/race/encode.cpp).
#pragma once

#include "semantics/ir/ir.hpp"

#include <optional>

namespace ptx::ir {

struct MatrixRows {
  unsigned matrices = 1;     // .x1 / .x2 / .x4
  unsigned line_bytes = 16;  // bytes from each lane's address: eight .b16 (.m8n8) or sixteen .b8 (.m16n8 .trans)
  bool trans = false;
  bool b8 = false;  // stmatrix .m16n8 .trans .b8
};

// The form of an ldmatrix / stmatrix the engines run: `.sync.aligned`, the shape, a `.num`, `{.trans}`,
// `{.shared{::cta}}` and the type; ldmatrix .m8n8 .b16 (its .m16n16 / .m8n16 .b8x16 forms are not modelled),
// stmatrix .m8n8 .b16 and .m16n8 .trans .b8 (".m16n8 shape is valid only for .b8 type"; the layout of Figure 108 is
// given for .trans); the register vector one 32-bit register a matrix. Nothing for another word or operand shape.
std::optional<MatrixRows> matrix_rows_form(const Instruction& in);

}  // namespace ptx::ir
