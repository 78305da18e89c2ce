// The instruction forms of the opcodes the interpreter's fast path handles (semantics/interp/fast.cpp), each
// with what the fast path should run it as, for test_fast_path.cpp: every type the ISA's syntax block allows,
// every qualifier combination, and every operand shape the planner tells apart.
#pragma once

#include "semantics/interp/fast_path.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace fast_forms {

// How the values of an input are drawn (test_fast_path.cpp): integer bits with the edges of a width, shift
// amounts, f32 bit patterns, predicates.
enum class Draw : std::uint8_t { bits, shift, f32, pred };
struct Input {
  Draw draw = Draw::bits;
  unsigned width = 32;  // the instruction type's width: where the edges lie (bits above it are random)
};

// One form in its own PTX: `decls` declare its registers, `lines` load its inputs (input slot k, 16 bytes per
// thread, is written IN{k}), run it (the line starting "=> "), and store its results (output slot k, 8 bytes,
// OUT{k}). `$` is the form's own register prefix. A form that is not `runnable` is one semantics/ops does not
// model (the interpreter refuses the kernel): only the fast path's decision is asked.
struct Form {
  std::string name;
  std::vector<std::string> decls, lines;
  std::vector<Input> inputs;
  unsigned outputs = 0;
  ptx::interp::FastKind expected = ptx::interp::FastKind::none;
  bool runnable = true;
};

std::vector<Form> fast_path_forms();

}  // namespace fast_forms
