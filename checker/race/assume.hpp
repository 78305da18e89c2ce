// Preconditions the user states for the symbolic race check (`ptxcheck race --assume EXPR`), as GPUVerify's
// `__requires` does: C expressions over the kernel's integer arguments (`arg1`, `arg2`, ... in the order of the
// kernel's parameters, as the reports number them) and the launch shape (`blockDim.x`, `gridDim.y`, ...), for
// example `arg3 == blockDim.x` or `arg2 > 0 && arg2 <= 4096`. The check then covers only the launches that
// satisfy every assumption, and the report says so.
//
// `argN[E]` is the element at index E of the buffer pointer argument N points to, as it is before the launch (its
// C++ element type, an integer, from the kernel's mangled name; `E` an expression as above): kernels that pass
// messages through a flag need `arg2[0] == 0` (memory is otherwise an arbitrary input). `argN[*]` stands for every
// index: `arg2[*] == 0` says every element is 0 (all `[*]` of one assumption are one index). Only the flag rule
// (flags.hpp) reads initial memory, and it instantiates an assumption with `[*]` at the index it asks about
// (`for_each_index`); a condition on memory is a precondition on the launch like the others.
//
// A module-scope `.global` variable of an integer type (a CUDA `__device__` variable) is named as PTX names it:
// `retired` is its content before the launch (its element 0), `retired[E]` and `retired[*]` its elements, as for
// arguments; its type is the PTX declaration's. The last-block ticket rule (tickets.hpp) reads a counter's initial
// content, and a `__device__` counter is one (`--assume 'retirementCount == 0'`).
//
// Semantics: C's operators and precedence over 64-bit two's-complement integers (an argument of a signed C++ type
// sign-extended, others zero-extended; comparisons, division, remainder and `>>` signed); a comparison or logical
// operator gives 0 or 1, and an assumption holds when its value is not 0. Division by zero is defined as in
// SMT-LIB bit-vectors (Z3), not undefined as in C.
#pragma once

#include "semantics/ir/ir.hpp"

#include <z3++.h>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ptxcheck::race {

struct AssumeExpr {
  enum class Kind { number, argument, element, variable, each_index, block_dim, grid_dim, unary, binary };
  Kind kind = Kind::number;
  // number: its value; argument, element: the argument's 1-based index (element: operands[0] the index); block_dim,
  // grid_dim: 0 x, 1 y, 2 z
  std::uint64_t value = 0;
  std::string name;         // variable: the module variable's PTX name (operands[0], if any, the index)
  std::string op;           // unary: - ! ~; binary: one of C's binary operators but the assignments and `,`
  std::vector<std::shared_ptr<const AssumeExpr>> operands;
};

struct Assumption {
  std::string text;  // as the user wrote it
  std::shared_ptr<const AssumeExpr> expr;
  bool for_each_index = false;  // it has `argN[*]`: it holds for every index
};

// The assumption `text` means, or nullopt with "column N: expected ..." in `error`.
std::optional<Assumption> parse_assumption(const std::string& text, std::string& error);

// Whether argument k (1-based) of `kernel` is a signed integer (true) or an unsigned one (false), by its C++ type
// when the kernel's name is mangled (nvcc passes an `int` as .u32), else its PTX type; nullopt with the reason in
// `error` when the kernel has no such argument or it is not an integer.
std::optional<bool> integer_argument(const ptx::ir::Function& kernel, std::uint64_t k, std::string& error);

// The element type of pointer argument k (1-based) of `kernel` when it is an integer: its size in bytes and whether it
// is signed, from the C++ type of the mangled name (`int volatile*`: 4, signed); nullopt with the reason in `error`.
struct ElementType {
  unsigned bytes = 0;
  bool is_signed = false;
};
std::optional<ElementType> integer_element(const ptx::ir::Function& kernel, std::uint64_t k, std::string& error);
// The element type of module-scope `.global` variable `name` of `module` when it is an integer (its PTX type);
// nullopt with the reason in `error` (no module, no such variable, another state space or type).
std::optional<ElementType> integer_variable(const ptx::ir::Module* module, const std::string& name, std::string& error);

// The content of pointer parameter (or module variable) `param`'s buffer before the launch, `bytes` wide at byte
// `offset` (64-bit): one uninterpreted function per parameter and width, which `argN[E]` assumptions constrain.
z3::expr initial_memory(z3::context& c, const std::string& param, unsigned bytes, const z3::expr& offset);

// Why the assumption does not apply to `kernel` ("--assume 'TEXT': arg4: the kernel k(int*, int) has 2 arguments,
// ..."): an argument the kernel does not have or one that is not an integer; empty when it applies.
// `module`: the kernel's module, for the variables an assumption names (nullptr: none can be named).
std::string assumption_error(const Assumption& a, const ptx::ir::Function& kernel, const ptx::ir::Module* module);

// The assumption's 64-bit value, and the facts that tie the encoding's reads of the arguments it names to them (see
// assumption_term).
struct AssumptionValue {
  z3::expr value, ties;
};
// `index`: the index `[*]` stands for (64-bit), for an assumption for_each_index.
std::optional<AssumptionValue> assumption_value(z3::context& c, const Assumption& a, const ptx::ir::Function& kernel, const ptx::ir::Module* module,
                                                const std::vector<z3::expr>& ntid, const std::vector<z3::expr>& nctaid,
                                                const std::vector<z3::expr>& reads, std::string& error,
                                                const std::optional<z3::expr>& index = std::nullopt);

// The assumption as a Z3 condition on the launch shape (`ntid`, `nctaid`: 32-bit x y z, encode.hpp Launch) and the
// arguments of `kernel`, whose encoding read the argument symbols `reads` (encode.hpp argument_symbol, of any width
// and offset: each is tied to the bytes of its argument);
// nullopt with the reason in `error` when it names an argument the kernel does not have or one that is not an
// integer.
std::optional<z3::expr> assumption_term(z3::context& c, const Assumption& a, const ptx::ir::Function& kernel, const ptx::ir::Module* module,
                                        const std::vector<z3::expr>& ntid, const std::vector<z3::expr>& nctaid,
                                        const std::vector<z3::expr>& reads, std::string& error,
                                        const std::optional<z3::expr>& index = std::nullopt);

// What a concrete launch gives an assumption (the replay's, replay.hpp): the shape, integer argument k's bits (its
// width from the kernel), and `bytes` bytes of the buffer pointer argument k points to at a byte offset, nullopt
// where the launch has none.
struct ConcreteLaunch {
  std::array<std::uint32_t, 3> block{1, 1, 1}, grid{1, 1, 1};
  std::function<std::optional<std::uint64_t>(std::uint64_t k)> argument;
  std::function<std::optional<std::uint64_t>(std::uint64_t k, std::uint64_t offset, unsigned bytes)> element;
  // `bytes` bytes of module variable `name` at a byte offset.
  std::function<std::optional<std::uint64_t>(const std::string& name, std::uint64_t offset, unsigned bytes)> variable;
};
// Whether the launch satisfies the assumption, by the semantics above (the same as assumption_term's: Z3's
// bit-vector division by zero included), at `index` for one for_each_index; nullopt when a value it names is
// missing or the assumption does not apply.
std::optional<bool> assumption_holds(const Assumption& a, const ptx::ir::Function& kernel, const ptx::ir::Module* module, const ConcreteLaunch& launch,
                                     std::uint64_t index = 0);

}  // namespace ptxcheck::race
