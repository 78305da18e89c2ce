// The forms of the warp-level wmma instructions (ISA 9.7.14.4): what one does (load, store, mma), its shape, the
// matrix and memory layout of a load or store, the types of an mma, and which forms the text defines
// (9.7.14.4.3-5). One definition for the interpreter (semantics/interp/wmma.cpp) and the race encoder (which bytes
// a wmma.load / wmma.store touches, checker/race/encode.cpp).
#pragma once

#include "semantics/ir/ir.hpp"

#include <optional>
#include <string>

namespace ptx::ir {

struct WmmaForm {
  enum class Op { load, store, mma } op = Op::load;
  char matrix = 'a';  // load: a, b, c; store: d
  unsigned m = 0, n = 0, k = 0;
  bool row = true;                   // load/store layout
  ScalarType type = ScalarType::f16;  // load/store element type; .b1 stands as kWmmaB1
  ScalarType d = ScalarType::f32, a = ScalarType::f16, b = ScalarType::f16, c = ScalarType::f32;  // mma
  bool satfinite = false, popc_and = false;
  std::optional<Rounding> rounding;  // mma .f64: .rn .rz .rm .rp
};

// .b1 (9.7.14.4: single-bit elements) is no IR type; the form stands it in as .pred, which wmma has no use for.
constexpr ScalarType kWmmaB1 = ScalarType::pred;

// Bits of one element of type t (.b1: 1).
unsigned wmma_element_bits(ScalarType t);

// The rows and columns of matrix x (a: m x k, b: k x n, c and d: m x n, 9.7.14.4.1).
struct WmmaDims {
  unsigned rows, cols;
};
WmmaDims wmma_dims(const WmmaForm& f, char x);

// The form of `ins`, or nothing when it is not one 9.7.14.4.3-5 define: any unknown qualifier refuses it.
std::optional<WmmaForm> wmma_form(const Instruction& ins);

// Why a wmma instruction is no form 9.7.14.4.3-5 define (the IR checker's error), or "" (also for other opcodes).
// `ptx_version` is the module's (major * 10 + minor; 0 when unknown): .aligned is required from 6.3.
std::string wmma_form_error(const Instruction& ins, unsigned ptx_version);

}  // namespace ptx::ir
