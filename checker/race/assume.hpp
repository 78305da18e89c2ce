// Preconditions the user states for the symbolic race check (`ptxcheck race --assume EXPR`), as GPUVerify's
// `__requires` does: C expressions over the kernel's integer arguments (`arg1`, `arg2`, ... in the order of the
// kernel's parameters, as the reports number them) and the launch shape (`blockDim.x`, `gridDim.y`, ...), for
// example `arg3 == blockDim.x` or `arg2 > 0 && arg2 <= 4096`. The check then covers only the launches that
// satisfy every assumption, and the report says so.
//
// Semantics: C's operators and precedence over 64-bit two's-complement integers (an argument of a signed C++ type
// sign-extended, others zero-extended; comparisons, division, remainder and `>>` signed); a comparison or logical
// operator gives 0 or 1, and an assumption holds when its value is not 0. Division by zero is defined as in
// SMT-LIB bit-vectors (Z3), not undefined as in C.
#pragma once

#include "semantics/ir/ir.hpp"

#include <z3++.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ptxcheck::race {

struct AssumeExpr {
  enum class Kind { number, argument, block_dim, grid_dim, unary, binary };
  Kind kind = Kind::number;
  std::uint64_t value = 0;  // number: its value; argument: its 1-based index; block_dim/grid_dim: 0 x, 1 y, 2 z
  std::string op;           // unary: - ! ~; binary: one of C's binary operators but the assignments and `,`
  std::vector<std::shared_ptr<const AssumeExpr>> operands;
};

struct Assumption {
  std::string text;  // as the user wrote it
  std::shared_ptr<const AssumeExpr> expr;
};

// The assumption `text` means, or nullopt with "column N: expected ..." in `error`.
std::optional<Assumption> parse_assumption(const std::string& text, std::string& error);

// Whether argument k (1-based) of `kernel` is a signed integer (true) or an unsigned one (false), by its C++ type
// when the kernel's name is mangled (nvcc passes an `int` as .u32), else its PTX type; nullopt with the reason in
// `error` when the kernel has no such argument or it is not an integer.
std::optional<bool> integer_argument(const ptx::ir::Function& kernel, std::uint64_t k, std::string& error);

// Why the assumption does not apply to `kernel` ("--assume 'TEXT': arg4: the kernel k(int*, int) has 2 arguments,
// ..."): an argument the kernel does not have or one that is not an integer; empty when it applies.
std::string assumption_error(const Assumption& a, const ptx::ir::Function& kernel);

// The assumption's 64-bit value, and the facts that tie the encoding's reads of the arguments it names to them (see
// assumption_term).
struct AssumptionValue {
  z3::expr value, ties;
};
std::optional<AssumptionValue> assumption_value(z3::context& c, const Assumption& a, const ptx::ir::Function& kernel,
                                                const std::vector<z3::expr>& ntid, const std::vector<z3::expr>& nctaid,
                                                const std::vector<z3::expr>& reads, std::string& error);

// The assumption as a Z3 condition on the launch shape (`ntid`, `nctaid`: 32-bit x y z, encode.hpp Launch) and the
// arguments of `kernel`, whose encoding read the argument symbols `reads` (encode.hpp argument_symbol, of any width
// and offset: each is tied to the bytes of its argument);
// nullopt with the reason in `error` when it names an argument the kernel does not have or one that is not an
// integer.
std::optional<z3::expr> assumption_term(z3::context& c, const Assumption& a, const ptx::ir::Function& kernel,
                                        const std::vector<z3::expr>& ntid, const std::vector<z3::expr>& nctaid,
                                        const std::vector<z3::expr>& reads, std::string& error);

}  // namespace ptxcheck::race
