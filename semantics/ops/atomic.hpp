// What atom / red / atom.cas write (ISA 9.7.13.5 atom, 9.7.13.6 red), written once over a value domain D for the
// interpreter, the race encoder and the litmus builder.
#pragma once

#include "semantics/ir/ir.hpp"
#include "semantics/ops/float.hpp"
#include "semantics/ops/integer.hpp"

#include <optional>

namespace ptx::ops {

// The value format of a floating-point type qualifier (.f16x2 / .bf16x2 are pairs of .f16 / .bf16).
inline FpFormat fp_format_of(ir::ScalarType t) {
  switch (t) {
    case ir::ScalarType::f16: case ir::ScalarType::f16x2: return FpFormat::f16;
    case ir::ScalarType::bf16: case ir::ScalarType::bf16x2: return FpFormat::bf16;
    case ir::ScalarType::f64: return FpFormat::f64;
    default: return FpFormat::f32;
  }
}

// The operation and the type it computes in, decoded from the instruction's qualifiers.
struct AtomicForm {
  ir::AtomOp op = ir::AtomOp::exch;
  unsigned bits = 32;                // the type's width (one element of a packed pair: the pair's width)
  bool is_signed = false;            // .s32 / .s64: min and max compare signed
  std::optional<FpFormat> fp;        // .f16 / .bf16 / .f32 / .f64 and the packed pairs
  bool packed = false;               // .f16x2 / .bf16x2: the operation applies to each half
  bool f32_ftz = true;               // atom.add.f32 on global memory flushes subnormals; on shared memory not
};
inline AtomicForm atomic_form(ir::AtomOp op, ir::ScalarType t) {
  AtomicForm f;
  f.op = op;
  f.bits = ir::scalar_bits(t);
  f.is_signed = ir::is_signed_int(t);
  if (ir::is_float(t)) f.fp = fp_format_of(t);
  f.packed = t == ir::ScalarType::f16x2 || t == ir::ScalarType::bf16x2;
  return f;
}
// The instruction's form; an atom/red without an operation word is .exch (there is none in valid PTX).
inline AtomicForm atomic_form(const ir::Instruction& in) {
  return atomic_form(in.q.atom_op.value_or(ir::AtomOp::exch), in.q.types.empty() ? ir::ScalarType::b32 : in.q.types.back().scalar);
}

// The value written in place of `old`, with operand b and, for .cas, the new value c (ISA 9.7.13.5 pseudo-code):
//   .and/.or/.xor: old op b;  .exch: b;  .cas: old == b ? c : old;  .add: old + b;
//   .inc: (old >= b) ? 0 : old + 1;  .dec: (old == 0 || old > b) ? b : old - 1  (unsigned comparisons);
//   .min/.max: by the type, signed for .s32/.s64, IEEE min/max for the float types (9.7.3.10-11).
// Float .add rounds to nearest even; atom.add.f32 on global memory flushes subnormal inputs and results to
// sign-preserving zero, on shared memory it keeps them, and .f16/.bf16 (.noftz) and .f64 keep them (9.7.13.5).
template <class D>
Val<D> atomic_written(const D& d, const AtomicForm& f, const Val<D>& old, const Val<D>& b, const Val<D>& c) {
  using ir::AtomOp;
  const unsigned w = d.width(old);
  switch (f.op) {
    case AtomOp::and_: return d.band(old, b);
    case AtomOp::or_: return d.bor(old, b);
    case AtomOp::xor_: return d.bxor(old, b);
    case AtomOp::exch: return b;
    case AtomOp::cas: return d.ite(d.eq(old, b), c, old);
    case AtomOp::inc: return d.ite(d.ule(b, old), d.lit(w, 0), d.add(old, d.lit(w, 1)));
    case AtomOp::dec: return d.ite(d.bor(d.eq(old, d.lit(w, 0)), d.ult(b, old)), b, d.sub(old, d.lit(w, 1)));
    case AtomOp::add: {
      if (!f.fp) return d.add(old, b);
      FpMods m;
      m.ftz = *f.fp == FpFormat::f32 && f.f32_ftz;
      const FpFormat fmt = *f.fp;
      auto one = [&](const Val<D>& x, const Val<D>& y) { return fadd(d, fmt, m, x, y); };
      return f.packed ? packed2(d, old, b, one) : one(old, b);
    }
    case AtomOp::min: case AtomOp::max: {
      const bool is_max = f.op == AtomOp::max;
      if (!f.fp) return is_max ? max(d, f.is_signed, old, b) : min(d, f.is_signed, old, b);
      const FpFormat fmt = *f.fp;
      auto one = [&](const Val<D>& x, const Val<D>& y) { return fminmax(d, fmt, is_max, MinMaxMods{}, x, y); };
      return f.packed ? packed2(d, old, b, one) : one(old, b);
    }
  }
  return b;
}

// Whether the memory models see a write: every form but a .cas whose comparison fails, which writes back the value
// it read (cas(r, s, t) = (r == s) ? t : r) and is taken as a read only.
template <class D> Val<D> atomic_writes(const D& d, const AtomicForm& f, const Val<D>& old, const Val<D>& b) {
  return f.op == ir::AtomOp::cas ? d.eq(old, b) : d.boolean(true);
}

}  // namespace ptx::ops
