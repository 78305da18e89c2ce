// execute_value for mov (scalar, 9.7.9.10), prmt (9.7.9.7) and cvt (9.7.9.21, every form value_form models).
#pragma once

#include "semantics/ops/convert.hpp"
#include "semantics/ops/execute_step.hpp"
#include "semantics/ops/logic.hpp"
#include "semantics/ops/minifloat.hpp"

#include <vector>

namespace ptx::ops {

// Two f32 (or one f16x2) to a narrow pair: d[hi] = convert(a), d[lo] = convert(b); 6-bit values sit in bytes with
// 2 zero MSBs. From .f16x2: a's halves, each widened to f32 first (exact, so the rounding is the direct one).
template <class D> Val<D> cvt_to_narrow_pair(const D& d, const ir::Instruction& in, bool relu, Val<D> a, Val<D> b) {
  const MiniFormat& f = *mini_format(in.q.types[0].scalar);
  if (in.q.types[1].scalar == ir::ScalarType::f16x2) {
    const FpMods exact{};
    b = cvt_f2f(d, domain::FpFormat::f16, domain::FpFormat::f32, exact, d.extract(a, 15, 0));
    a = cvt_f2f(d, domain::FpFormat::f16, domain::FpFormat::f32, exact, d.extract(a, 31, 16));
  }
  const unsigned lane = f.bits == 4 ? 4 : 8;
  return d.concat(d.zext(f32_to_mini(d, f, relu, a), lane), d.zext(f32_to_mini(d, f, relu, b), lane));
}
template <class D> Val<D> cvt_from_narrow_pair(const D& d, const ir::Instruction& in, bool relu, const Val<D>& a) {
  const MiniFormat& f = *mini_format(in.q.types[1].scalar);
  const unsigned lane = f.bits == 4 ? 4 : 8;
  auto one = [&](const Val<D>& x) { return mini_to_f16(d, f, relu, d.extract(x, f.bits - 1, 0)); };
  return d.concat(one(d.extract(a, 2 * lane - 1, lane)), one(d.extract(a, lane - 1, 0)));
}

// The random bits of element i (0..3 = a, b, e, f) from rbits, 9.7.9.21: .f16x2 a: the 13 LSBs of rbits[31:16], b: of
// rbits[15:0]; .bf16x2 a: rbits[31:16], b: rbits[15:0]; .e4m3x4/.e5m2x4/.e2m3x4/.e3m2x4 "lower 16-bits are used for
// operands e, f and upper 16 bits are used for operands a, b": read as written, a and b each use all of rbits[31:16]
// and e and f all of rbits[15:0]; .e2m1x4 "upper 8-bits from both 16-bits half ... for operands a, b" and the lower
// 8 bits for e, f: a: rbits[31:24], b: rbits[15:8], e: rbits[23:16], f: rbits[7:0]. Figures 40 and 41, which draw
// these layouts, are pictures the text does not carry; which upper byte goes to a and which to b is chosen here
// (a from the upper half, in the order the operands are written).
template <class D> Val<D> stochastic_bits(const D& d, ir::ScalarType dt, unsigned i, const Val<D>& rbits) {
  using ST = ir::ScalarType;
  switch (dt) {  // f16x2/bf16x2: i = 0 (a) or 1 (b)
    case ST::f16x2: return d.extract(rbits, i == 0 ? 28 : 12, i == 0 ? 16 : 0);
    case ST::bf16x2: return d.extract(rbits, i == 0 ? 31 : 15, i == 0 ? 16 : 0);
    case ST::e2m1x4: {
      const unsigned lsb = (i < 2 ? 8u : 0u) + (i == 0 || i == 2 ? 16u : 0u);
      return d.extract(rbits, lsb + 7, lsb);
    }
    default: return d.extract(rbits, i < 2 ? 31 : 15, i < 2 ? 16 : 0);
  }
}
// d: the converted elements from the most significant end (9.7.9.21 semantics): a, b for the x2 types, a, b, e, f for
// the x4 types in 8-bit lanes (6-bit formats with two zero MSBs) or, for e2m1x4, 4-bit lanes of a 16-bit d.
template <class D>
Val<D> cvt_stochastic(const D& d, const ir::Instruction& in, const std::vector<Val<D>>& src, const Val<D>& rbits) {
  const ir::ScalarType dt = in.q.types[0].scalar;
  const MiniFormat& f = *mini_format(dt);
  const bool relu = in.q.has(ir::Flag::relu), satfinite = in.q.has(ir::Flag::satfinite);
  const unsigned lane = f.bits == 4 ? 4 : f.bits == 16 ? 16 : 8;
  Val<D> out = d.zext(f32_to_mini_rs(d, f, relu, satfinite, src[0], stochastic_bits(d, dt, 0, rbits)), lane);
  for (unsigned i = 1; i < src.size(); ++i)
    out = d.concat(out, d.zext(f32_to_mini_rs(d, f, relu, satfinite, src[i], stochastic_bits(d, dt, i, rbits)), lane));
  return out;
}

// d[15:8] from a (or a's upper bf16), d[7:0] from b (or a's lower bf16); bf16 -> f32 is exact (bits << 16).
// From .ue8m0x2: d[31:16] from a[15:8], d[15:0] from a[7:0].
template <class D> Val<D> cvt_ue8m0(const D& d, const ir::Instruction& in, Ue8m0Cvt form, const Val<D>& a, const Val<D>& b) {
  if (form == Ue8m0Cvt::to_bf16x2) return d.concat(ue8m0_to_bf16(d, d.extract(a, 15, 8)), ue8m0_to_bf16(d, d.extract(a, 7, 0)));
  const bool up = in.q.rounding == ir::Rounding::rp, satfinite = in.q.has(ir::Flag::satfinite);
  Val<D> hi = a, lo = b;
  if (form == Ue8m0Cvt::from_bf16x2) {
    hi = d.concat(d.extract(a, 31, 16), d.lit(16, 0));
    lo = d.concat(d.extract(a, 15, 0), d.lit(16, 0));
  }
  return d.concat(f32_to_ue8m0(d, up, satfinite, hi), f32_to_ue8m0(d, up, satfinite, lo));
}

// The cvt forms with narrow float types and .tf32 (9.7.9.21); false when `in` is none of them.
template <class D, class F> bool execute_cvt_narrow(ValueStep<D, F>& x) {
  const auto [d, fm, op, w, mods] = x.names();
  const auto& o = x.in.operands;
  const bool relu = mods.relu;
  if (stochastic_cvt(x.in)) {
    std::vector<Val<D>> src;
    if (o[1].kind == ir::Operand::Kind::Vector)
      for (const auto& e : o[1].elements) src.push_back(x.frame.read(e, 32, false));
    else
      src = {x.R(1, 32), x.R(2, 32)};
    x.W(cvt_stochastic(d, x.in, src, x.R(o.size() - 1, 32)));
  } else if (const auto ue = ue8m0_cvt(x.in)) {
    x.W(cvt_ue8m0(d, x.in, *ue, x.R(1, *ue == Ue8m0Cvt::from_f32 ? 32 : fm.w1), o.size() > 2 ? x.R(2, 32) : d.lit(32, 0)));
  } else if (const auto narrow = narrow_cvt(x.in)) {
    x.W(*narrow == NarrowCvt::to_pair ? cvt_to_narrow_pair(d, x.in, relu, x.R(1, 32), o.size() > 2 ? x.R(2, 32) : x.R(1, 32))
                                      : cvt_from_narrow_pair(d, x.in, relu, x.R(1, 16)));
  } else if (tf32_cvt(x.in)) {
    x.W(f32_to_tf32(d, rounding_mode(*x.in.q.rounding), relu, x.in.q.has(ir::Flag::satfinite), x.R(1, 32)));
  } else if (fp8_pair_to_f16x2(x.in)) {
    const Val<D> a = x.R(1, 16);
    const bool e4m3 = fm.t1 == ir::ScalarType::e4m3x2;
    auto one = [&](const Val<D>& byte) { return e4m3 ? e4m3_to_f16(d, byte) : e5m2_to_f16(d, byte); };
    Val<D> r = d.concat(one(d.extract(a, 15, 8)), one(d.extract(a, 7, 0)));
    if (relu) r = packed2(d, r, r, [&](const Val<D>& v, const Val<D>&) { return ops::relu(d, domain::FpFormat::f16, v); });
    x.W(r);
  } else {
    return false;
  }
  return true;
}

// cvt{.rnd}{.ftz}{.sat}{.relu}.dtype.atype d, a; the .f16x2/.bf16x2 destinations take two f32 sources:
// d = {cvt(a), cvt(b)} with a in the upper half.
template <class D, class F> Executed execute_cvt(ValueStep<D, F>& x) {
  const auto [d, fm, op, w, mods] = x.names();
  const auto& o = x.in.operands;
  if (const auto pack = ir::cvt_pack_form(x.in)) {  // cvt.pack.sat (9.7.9.22)
    x.W(cvt_pack(d, pack->size, pack->dst_signed, x.R(1, 32), x.R(2, 32), o.size() > 3 ? x.R(3, 32) : d.lit(32, 0)));
    return Executed::done;
  }
  if (execute_cvt_narrow(x)) return Executed::done;
  if (fm.packed) {  // value_form: an f32 pair
    const domain::FpFormat half = fm.t0 == ir::ScalarType::f16x2 ? domain::FpFormat::f16 : domain::FpFormat::bf16;
    x.W(d.concat(cvt_f2f(d, domain::FpFormat::f32, half, mods, x.R(1, 32)), cvt_f2f(d, domain::FpFormat::f32, half, mods, x.R(2, 32))));
    return Executed::done;
  }
  const Val<D> a = x.R(1, fm.w1, fm.s1);
  if (!fm.f0 && !fm.f1) {
    x.W(cvt_int(d, w, fm.s0, fm.s1, mods.sat, a), fm.s0);
  } else if (fm.f0 && !fm.f1) {
    x.W(cvt_i2f(d, fm.fmt0, fm.s1, mods, a), fm.s0);
  } else if (!fm.f0) {
    FpMods m = mods;
    if (!fm.has_rounding) m.rnd = domain::Rnd::rz;  // float -> integer rounds toward zero by default
    x.W(cvt_f2i(d, fm.fmt1, w, fm.s0, m, a), fm.s0);
  } else if (fm.fmt0 == fm.fmt1 && fm.has_rounding && x.in.q.rounding >= ir::Rounding::rni) {
    x.W(cvt_fround(d, fm.fmt0, mods, a), fm.s0);
  } else {
    x.W(cvt_f2f(d, fm.fmt1, fm.fmt0, mods, a), fm.s0);
  }
  return Executed::done;
}

template <class D, class F> Executed execute_move_convert(ValueStep<D, F>& x) {
  switch (x.in.op) {
    case ir::Opcode::mov_: x.W(x.R(1, x.form.w0), x.form.s0); return Executed::done;  // value_form: scalar forms
    case ir::Opcode::prmt_: {
      const PrmtMode m = x.has(ir::Flag::f4e) ? PrmtMode::f4e : x.has(ir::Flag::b4e) ? PrmtMode::b4e : x.has(ir::Flag::rc8) ? PrmtMode::rc8
                       : x.has(ir::Flag::ecl) ? PrmtMode::ecl : x.has(ir::Flag::ecr) ? PrmtMode::ecr : x.has(ir::Flag::rc16) ? PrmtMode::rc16
                       : PrmtMode::generic;
      x.W(prmt(x.d, m, x.R(1, 32), x.R(2, 32), x.R(3, 32)));
      return Executed::done;
    }
    case ir::Opcode::cvt_: return execute_cvt(x);
    default: return Executed::unmodelled;
  }
}

}  // namespace ptx::ops
