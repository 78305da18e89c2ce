// The operation-type rules of operation_types.hpp, each from its section of ISA 9.0 (and 1.4 Table 80/81).
#include "semantics/ir/operation_types.hpp"
#include "semantics/ir/word_sets.hpp"

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <vector>

namespace ptx::ir {
namespace {

using S = ScalarType;


std::string quoted(const Instruction& in) {
  std::string s = "'";
  return (s += opcode_text(in)) += "'";
}

std::string type_list(const std::vector<ScalarType>& types) {
  std::string s;
  for (auto t : types) s += (s.empty() ? "." : ", .") + std::string(scalar_type_name(t));
  return s;
}

// The types one operation takes, and the sentence of the ISA that says so.
struct OperationTypes {
  std::vector<ScalarType> types;  // empty: not an operation of the instruction
  const char* why;
};

// atom and red with a scalar type (9.7.13.5, 9.7.13.6).
OperationTypes scalar_atomic_types(AtomOp op, bool is_red) {
  switch (op) {
    case AtomOp::and_: case AtomOp::or_: case AtomOp::xor_:
      return {{S::b32, S::b64}, "a bit-size operation (64-bit since PTX ISA 3.1)"};
    case AtomOp::cas:
      if (is_red) return {{}, ""};
      return {{S::b16, S::b32, S::b64, S::b128}, "compare-and-swap, a bit-size operation"};
    case AtomOp::exch:
      if (is_red) return {{}, ""};
      return {{S::b32, S::b64, S::b128}, "exchange, a bit-size operation"};
    case AtomOp::add:
      return {{S::u32, S::s32, S::u64, S::f32, S::f64, S::f16, S::f16x2, S::bf16, S::bf16x2},
              "the integer .add on .u32, .s32, .u64 (ISA 1.4 Table 80), the floating-point .add on .f32, .f64 and the .noftz half types"};
    case AtomOp::inc: case AtomOp::dec:
      return {{S::u32}, "ISA 1.4 Table 80: .u32 only"};
    case AtomOp::min: case AtomOp::max:
      return {{S::u32, S::s32, S::u64, S::s64}, "an integer operation: the only scalar floating-point operation is .add"};
  }
  return {{}, ""};
}

// cp.reduce.async.bulk's table of valid .redOp and element types per destination (9.7.9.25.4.2).
OperationTypes bulk_reduction_types(AtomOp op, bool to_global) {
  switch (op) {
    case AtomOp::add:
      if (to_global) return {{S::u32, S::s32, S::u64, S::f32, S::f64, S::f16, S::bf16}, "the .add row for .global"};
      return {{S::u32, S::s32, S::u64}, "the .add row for .shared::cluster"};
    case AtomOp::min: case AtomOp::max:
      if (to_global) return {{S::u32, S::s32, S::u64, S::s64, S::f16, S::bf16}, "the .min, .max row for .global"};
      return {{S::u32, S::s32}, "the .min, .max row for .shared::cluster"};
    case AtomOp::inc: case AtomOp::dec: return {{S::u32}, "the .inc, .dec row"};
    case AtomOp::and_: case AtomOp::or_: case AtomOp::xor_:
      if (to_global) return {{S::b32, S::b64}, "the .and, .or, .xor row for .global"};
      return {{S::b32}, "the .and, .or, .xor row for .shared::cluster"};
    default: return {{}, ""};
  }
}

// red.async (9.7.13.7): the mbarrier forms take what cp.reduce.async.bulk takes into .shared::cluster (its blocks
// repeat that table); the `.release` form (to .global) is .add on .u32, .s32, .u64, .s64.
OperationTypes async_reduction_types(AtomOp op, bool release_form) {
  if (release_form) {
    if (op != AtomOp::add) return {{}, ""};
    return {{S::u32, S::s32, S::u64, S::s64}, "the .release form of the ADD reductions"};
  }
  OperationTypes shared = bulk_reduction_types(op, false);
  shared.why = "its block for the operation, as cp.reduce.async.bulk's rows for .shared::cluster (9.7.9.25.4.2)";
  return shared;
}

// atom and red with a vector qualifier: the table of 9.7.13.5 / 9.7.13.6.
std::string vector_atomic_error(const Instruction& in, AtomOp op, ScalarType t, const char* section) {
  const unsigned width = in.q.vector_width;
  const bool half = is_one_of(t, {S::f16, S::bf16}), packed = is_one_of(t, {S::f16x2, S::bf16x2});
  std::string why;
  if (t == S::f32) {
    if (op != AtomOp::add) why = ".f32 vectors take only .add";
    else if (width == 8) why = ".f32 vectors are .v2 or .v4";
  } else if (half || packed) {
    if (op != AtomOp::add && op != AtomOp::min && op != AtomOp::max) why = "half-precision vectors take .add, .min or .max";
    else if (packed && width == 8) why = ".v8 is not supported for .f16x2 and .bf16x2";
  } else {
    why = "vector types are .f32, .f16, .bf16, .f16x2 and .bf16x2";
  }
  if (why.empty()) return {};
  return quoted(in) + ": " + why + " (the table of vector qualifiers, types and operations, ISA " + section + ")";
}

}  // namespace

std::string comparison_type_error(const Instruction& in) {
  if ((in.op != Opcode::setp_ && in.op != Opcode::set_) || !in.q.compare || in.q.types.empty()) return {};
  const ScalarType t = in.q.types.back().scalar;
  const CompareOp c = *in.q.compare;
  using C = CompareOp;
  const bool equality = c == C::eq || c == C::ne;
  const bool ordered = c == C::lt || c == C::le || c == C::gt || c == C::ge;
  const bool unsigned_op = c == C::lo || c == C::ls || c == C::hi || c == C::hs;
  std::string why;
  if (is_bit_type(t) && !equality)
    why = "bit-size types compare only with eq and ne: \"ordering comparisons are not defined for bit-size types\" (ISA 9.3.1.1, Table 22)";
  else if (is_signed_int(t) && !(equality || ordered))
    why = "signed integers compare with eq, ne, lt, le, gt and ge (ISA 9.3.1.1, Table 22)";
  else if (is_unsigned_int(t) && !(equality || ordered || unsigned_op))
    why = "unsigned integers compare with eq, ne, lo, ls, hi and hs, or lt, le, gt and ge (ISA 9.3.1.1, Table 22)";
  else if (is_float(t) && unsigned_op)
    why = "floating-point values compare with the operators of Tables 23-25: eq ... ge, equ ... geu, num and nan (ISA 9.3.1.2)";
  if (why.empty()) return {};
  return quoted(in) + ": ." + compare_op_name(c) + " does not compare ." + scalar_type_name(t) + ": " + why;
}

std::string atomic_operation_type_error(const Instruction& in) {
  if ((in.op != Opcode::atom_ && in.op != Opcode::red_) || in.q.types.empty()) return {};
  const bool is_red = in.op == Opcode::red_;
  const bool async = is_red && in.q.has(Flag::async);
  const char* section = async ? "9.7.13.7" : is_red ? "9.7.13.6" : "9.7.13.5";
  // The operation is no optional qualifier in any of the syntax lines (`atom{.sem}{.scope}{.space}.op.type`).
  if (!in.q.atom_op) return quoted(in) + ": names no operation (.op, ISA " + section + ")";
  const AtomOp op = *in.q.atom_op;
  const ScalarType t = in.q.types.back().scalar;
  const std::string name = std::string(".") + atom_op_name(op);
  if (!async && in.q.vector_width > 1) return vector_atomic_error(in, op, t, section);
  // "When .sem is .release": the form without [mbar], to .global or generic addresses (9.7.13.7, Conditions).
  const bool release_form = in.q.semantics == MemorySemantics::release;
  const OperationTypes allowed = async ? async_reduction_types(op, release_form) : scalar_atomic_types(op, is_red);
  if (allowed.types.empty())
    return quoted(in) + ": " + (async ? "red.async" : "red") + " has no " + name + " operation (its .op list, ISA " + section + ")";
  if (!is_one_of(t, allowed.types))
    return quoted(in) + ": " + name + " takes " + type_list(allowed.types) + ", not ." + scalar_type_name(t) + ": " + allowed.why +
           " (ISA " + section + ")";
  if (op == AtomOp::add && is_one_of(t, {S::f16, S::f16x2, S::bf16, S::bf16x2}) && !in.q.has(Flag::noftz))
    return quoted(in) + ": .add on ." + scalar_type_name(t) + " requires the .noftz qualifier (ISA " + section + ")";
  return {};
}

std::optional<AtomOp> bulk_reduction_op(const Instruction& in) {
  for (const auto& w : in.q.words)
    if (auto op = atom_op_from_name(w)) return op;
  return std::nullopt;
}

bool bulk_reduction_allowed(AtomOp op, ScalarType t, bool to_global) { return is_one_of(t, bulk_reduction_types(op, to_global).types); }

std::string bulk_reduction_type_error(const Instruction& in) {
  if (in.op != Opcode::cp_ || !in.q.has_word("reduce") || !in.q.has_word("bulk") || in.q.has_word("tensor") || in.q.types.empty())
    return {};
  const std::optional<AtomOp> op = bulk_reduction_op(in);
  if (!op) return {};
  const ScalarType t = in.q.types.back().scalar;
  const bool to_global = in.q.space == StateSpace::global;
  const OperationTypes allowed = bulk_reduction_types(*op, to_global);
  const std::string name = std::string(".") + atom_op_name(*op);
  if (allowed.types.empty()) return quoted(in) + ": " + name + " is no .redOp of cp.reduce.async.bulk (ISA 9.7.9.25.4.2)";
  if (!is_one_of(t, allowed.types))
    return quoted(in) + ": " + name + " takes " + type_list(allowed.types) + ", not ." + scalar_type_name(t) + ": " + allowed.why +
           " (ISA 9.7.9.25.4.2)";
  if (*op == AtomOp::add && is_one_of(t, {S::f16, S::bf16}) && !in.q.has(Flag::noftz))
    return quoted(in) + ": .add on ." + scalar_type_name(t) + " requires the .noftz qualifier (ISA 9.7.9.25.4.2)";
  return {};
}

}  // namespace ptx::ir
