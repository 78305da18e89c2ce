// Which types an instruction's operation admits: the comparison operators of setp and set, and the operations of
// atom, red and red.async, each list from ISA 9.0 (and, where 9.0 only names an operation's kind, the per-operation
// comments of ISA 1.4 Table 80/81 that 9.0 extends). The instruction's syntax type list alone admits more.
#pragma once

#include "semantics/ir/ir.hpp"

#include <optional>
#include <string>

namespace ptx::ir {

// Why the comparison of a setp or set does not apply to the type it compares (empty when it does). ISA 9.3.1:
// - bit-size types: eq and ne, "ordering comparisons are not defined for bit-size types" (Table 22);
// - signed integers: eq, ne, lt, le, gt, ge (Table 22);
// - unsigned integers: eq, ne, lo, ls, hi, hs (Table 22), and lt, le, gt, ge as well: the ISA's own example in
//   9.7.13.15.16 writes `setp.lt.u32 p, i, IterMax;`, nvcc emits it and ptxas takes it (docs/front-end.md);
// - floating point: eq, ne, lt, le, gt, ge, the unordered equ ... geu, num and nan (Tables 23-25).
// set compares its source type, the last type word (`set.CmpOp.dtype.stype`, 9.7.6.1).
std::string comparison_type_error(const Instruction& in);

// Why the operation of an atom, red or red.async does not take the instruction's type (empty when it does):
// - atom (9.7.13.5): "The bit-size operations are .and, .or, .xor, .cas and .exch": .b types (.and/.or/.xor .b32
//   and .b64, .cas also .b16 and .b128, .exch also .b128); .inc and .dec .u32 only (1.4 Table 80); .add .u32, .s32,
//   .u64 (1.4 Table 80), .f32, .f64 and the .noftz half types; .min and .max .u32, .s32, .u64, .s64 ("64-bit
//   atom.{and, or, xor, min, max}", PTX ISA 3.1), since "The floating-point operation .add" is the only scalar
//   floating-point one. With a vector qualifier, the section's table: .f32 takes .add (.v2, .v4), .f16/.bf16 .add,
//   .min, .max (.v2, .v4, .v8), .f16x2/.bf16x2 the same without .v8; the half types need .noftz.
// - red (9.7.13.6): the same lists over its .op set, which has no .cas or .exch;
// - red.async (9.7.13.7): .inc/.dec .u32, .min/.max .u32 and .s32, .and/.or/.xor .b32, .add .u32, .s32, .u64
//   (cp.reduce.async.bulk's rows for .shared::cluster), and .add .u32, .s32, .u64, .s64 in the `.release` form
//   (.global or generic addresses; ptxas 13 also takes .min there, which the block does not write).
std::string atomic_operation_type_error(const Instruction& in);

// cp.reduce.async.bulk's table of valid .redOp and element types (9.7.9.25.4.2): into .shared::cluster .add .u32,
// .s32, .u64; .min/.max .u32, .s32; .inc/.dec .u32; .and/.or/.xor .b32; into .global .add .u32, .s32, .u64, .f32,
// .f64, .f16, .bf16; .min/.max .u32, .s32, .u64, .s64, .f16, .bf16; .inc/.dec .u32; .and/.or/.xor .b32, .b64.
bool bulk_reduction_allowed(AtomOp op, ScalarType t, bool to_global);
// The .redOp a cp.reduce.async.bulk{.tensor} names (its one operation word), if any.
std::optional<AtomOp> bulk_reduction_op(const Instruction& in);
// Why a cp.reduce.async.bulk (not .tensor) names an operation and type that table lacks, or .add on .f16/.bf16
// without .noftz ("require .noftz qualifier"); empty when it does not.
std::string bulk_reduction_type_error(const Instruction& in);

}  // namespace ptx::ir
