// Floating-point instructions (ISA 9.7.3 f32/f64, 9.7.4 half precision, 9.7.5 mixed) over bit patterns,
// written once over a value domain D: .ftz, .sat, .relu, the f64 NaN-payload rule, min/max NaN rules, testp.
#pragma once

#include "semantics/domain/float_format.hpp"
#include "semantics/ops/integer.hpp"

namespace ptx::ops {

using domain::Approx;
using domain::FpFormat;
using domain::Rnd;

template <class D> Val<D> fp_lit(const D& d, FpFormat f, std::uint64_t bits) { return d.lit(domain::fp_bits(f), bits); }
inline std::uint64_t fp_sign_mask(FpFormat f) { return std::uint64_t(1) << (domain::fp_bits(f) - 1); }
inline std::uint64_t fp_exp_mask(FpFormat f) {
  auto p = domain::fp_params(f);
  return ((std::uint64_t(1) << p.ebits) - 1) << (p.sbits - 1);
}
inline std::uint64_t fp_one(FpFormat f) {
  auto p = domain::fp_params(f);
  return static_cast<std::uint64_t>(p.bias) << (p.sbits - 1);
}

template <class D> Val<D> sign_bit(const D& d, FpFormat f, const Val<D>& a) {
  unsigned w = domain::fp_bits(f);
  return d.extract(a, w - 1, w - 1);
}
template <class D> Val<D> is_subnormal_or_zero(const D& d, FpFormat f, const Val<D>& a) {
  return d.eq(d.band(a, fp_lit(d, f, fp_exp_mask(f))), fp_lit(d, f, 0));
}
// .ftz (ISA 9.7.3 "Subnormal numbers"): a subnormal input or result becomes zero of the same sign.
template <class D> Val<D> flush_subnormal(const D& d, FpFormat f, const Val<D>& a) {
  return d.ite(is_subnormal_or_zero(d, f, a), d.band(a, fp_lit(d, f, fp_sign_mask(f))), a);
}
// A NaN made quiet (the top mantissa bit set), as f64 propagates input NaNs.
template <class D> Val<D> quiet(const D& d, FpFormat f, const Val<D>& a) {
  return d.bor(a, fp_lit(d, f, std::uint64_t(1) << (domain::fp_params(f).sbits - 2)));
}
// ISA 9.7.3: "NaN payloads are supported for double-precision instructions": the first NaN operand, quieted.
template <class D> Val<D> nan_payload(const D& d, FpFormat f, const Val<D>& r, const Val<D>& a, const Val<D>& b) {
  if (f != FpFormat::f64) return r;
  return d.ite(d.fisnan(f, a), quiet(d, f, a), d.ite(d.fisnan(f, b), quiet(d, f, b), r));
}
// .sat: clamp to [0.0, 1.0], NaN -> +0.0 (ISA 9.7.3 "Saturation").
template <class D> Val<D> saturate(const D& d, FpFormat f, const Val<D>& r) {
  Val<D> zero = fp_lit(d, f, 0), one = fp_lit(d, f, fp_one(f));
  Val<D> neg = d.eq(sign_bit(d, f, r), d.lit(1, 1));
  return d.ite(d.fisnan(f, r), zero, d.ite(neg, zero, d.ite(d.ult(one, r), one, r)));
}
// .relu (9.7.4.4 fma.relu, cvt): negative results become +0; NaN stays canonical NaN.
template <class D> Val<D> relu(const D& d, FpFormat f, const Val<D>& r) {
  Val<D> neg = d.eq(sign_bit(d, f, r), d.lit(1, 1));
  return d.ite(d.fisnan(f, r), fp_lit(d, f, domain::canonical_nan(f)), d.ite(neg, fp_lit(d, f, 0), r));
}

// The modifiers every arithmetic instruction shares.
struct FpMods {
  Rnd rnd = Rnd::rn;
  bool ftz = false, sat = false, relu = false;
};
template <class D> Val<D> finish(const D& d, FpFormat f, const FpMods& m, Val<D> r) {
  if (m.ftz) r = flush_subnormal(d, f, r);
  if (m.sat) r = saturate(d, f, r);
  if (m.relu) r = relu(d, f, r);
  return r;
}
template <class D> Val<D> in(const D& d, FpFormat f, const FpMods& m, const Val<D>& a) {
  return m.ftz ? flush_subnormal(d, f, a) : a;
}

// 9.7.3.3 add, 9.7.3.4 sub, 9.7.3.5 mul, 9.7.3.8 div (.rn/.rz/.rm/.rp), 9.7.3.6 fma / 9.7.3.7 mad.
template <class D> Val<D> fadd(const D& d, FpFormat f, const FpMods& m, const Val<D>& a0, const Val<D>& b0) {
  Val<D> a = in(d, f, m, a0), b = in(d, f, m, b0);
  return finish(d, f, m, nan_payload(d, f, d.fadd(f, m.rnd, a, b), a, b));
}
template <class D> Val<D> fsub(const D& d, FpFormat f, const FpMods& m, const Val<D>& a0, const Val<D>& b0) {
  Val<D> a = in(d, f, m, a0), b = in(d, f, m, b0);
  return finish(d, f, m, nan_payload(d, f, d.fsub(f, m.rnd, a, b), a, b));
}
template <class D> Val<D> fmul(const D& d, FpFormat f, const FpMods& m, const Val<D>& a0, const Val<D>& b0) {
  Val<D> a = in(d, f, m, a0), b = in(d, f, m, b0);
  return finish(d, f, m, nan_payload(d, f, d.fmul(f, m.rnd, a, b), a, b));
}
template <class D> Val<D> fdiv(const D& d, FpFormat f, const FpMods& m, const Val<D>& a0, const Val<D>& b0) {
  Val<D> a = in(d, f, m, a0), b = in(d, f, m, b0);
  return finish(d, f, m, nan_payload(d, f, d.fdiv(f, m.rnd, a, b), a, b));
}
template <class D> Val<D> ffma(const D& d, FpFormat f, const FpMods& m, const Val<D>& a0, const Val<D>& b0, const Val<D>& c0) {
  Val<D> a = in(d, f, m, a0), b = in(d, f, m, b0), c = in(d, f, m, c0);
  Val<D> r = d.ffma(f, m.rnd, a, b, c);
  if (f == FpFormat::f64) r = d.ite(d.fisnan(f, c), quiet(d, f, c), nan_payload(d, f, r, a, b));
  return finish(d, f, m, r);
}
// 9.7.5 mixed precision add / sub / fma .f32.{f16,bf16}: "converts input operand a from .atype into .f32" (every
// f16 and bf16 value is an f32 value, so exactly), then the .f32 operation rounds once with .rnd (fma: "product
// ... to infinite precision and then adds c ... again in infinite precision"); .sat as for .f32.
template <class D> Val<D> widen_to_f32(const D& d, FpFormat from, const Val<D>& a) { return d.f2f(from, FpFormat::f32, Rnd::rn, a); }
template <class D> Val<D> fadd_mixed(const D& d, FpFormat atype, const FpMods& m, bool sub, const Val<D>& a, const Val<D>& c) {
  const Val<D> wa = widen_to_f32(d, atype, a);
  return sub ? fsub(d, FpFormat::f32, m, wa, c) : fadd(d, FpFormat::f32, m, wa, c);
}
template <class D> Val<D> ffma_mixed(const D& d, FpFormat abtype, const FpMods& m, const Val<D>& a, const Val<D>& b, const Val<D>& c) {
  return ffma(d, FpFormat::f32, m, widen_to_f32(d, abtype, a), widen_to_f32(d, abtype, b), c);
}

// 9.7.3.15 sqrt (.rn...), 9.7.3.13 rcp (.rn...: 1/a correctly rounded).
template <class D> Val<D> fsqrt(const D& d, FpFormat f, const FpMods& m, const Val<D>& a0) {
  Val<D> a = in(d, f, m, a0);
  return finish(d, f, m, nan_payload(d, f, d.fsqrt(f, m.rnd, a), a, a));
}
template <class D> Val<D> frcp(const D& d, FpFormat f, const FpMods& m, const Val<D>& a0) {
  Val<D> a = in(d, f, m, a0);
  return finish(d, f, m, nan_payload(d, f, d.fdiv(f, m.rnd, fp_lit(d, f, fp_one(f)), a), a, a));
}
// .approx forms (rcp, sqrt, rsqrt, sin, cos, lg2, ex2, tanh, div.approx/div.full): uninterpreted symbolically.
template <class D> Val<D> fapprox(const D& d, Approx k, FpFormat f, const FpMods& m, const Val<D>& a0, const Val<D>& b0) {
  Val<D> a = in(d, f, m, a0), b = in(d, f, m, b0);
  return finish(d, f, m, d.approx(k, f, a, b));
}

// 9.7.3.9 abs / 9.7.3.10 neg / 9.7.3.2 copysign: sign-bit operations (.ftz flushes the input first).
template <class D> Val<D> fabs(const D& d, FpFormat f, bool ftz, const Val<D>& a) {
  Val<D> x = ftz ? flush_subnormal(d, f, a) : a;
  return d.band(x, fp_lit(d, f, ~fp_sign_mask(f) & domain::mask_of(domain::fp_bits(f))));
}
template <class D> Val<D> fneg(const D& d, FpFormat f, bool ftz, const Val<D>& a) {
  Val<D> x = ftz ? flush_subnormal(d, f, a) : a;
  return d.bxor(x, fp_lit(d, f, fp_sign_mask(f)));
}
template <class D> Val<D> copysign(const D& d, FpFormat f, const Val<D>& a, const Val<D>& b) {
  Val<D> s = fp_lit(d, f, fp_sign_mask(f));
  return d.bor(d.band(a, s), d.band(b, d.bnot(s)));
}

// 9.7.3.11 min / 9.7.3.12 max (and 9.7.4.7/9.7.4.8): a NaN operand yields the other one (both NaN: canonical
// NaN; .NaN: any NaN gives canonical NaN); -0.0 < +0.0; .abs compares magnitudes; .xorsign sets the sign to
// the xor of the input signs.
struct MinMaxMods {
  bool ftz = false, nan = false, abs = false, xorsign = false;
};
template <class D> Val<D> fminmax(const D& d, FpFormat f, bool is_max, const MinMaxMods& m, const Val<D>& a0, const Val<D>& b0) {
  Val<D> a = m.ftz ? flush_subnormal(d, f, a0) : a0, b = m.ftz ? flush_subnormal(d, f, b0) : b0;
  Val<D> xs = d.bxor(d.band(a, fp_lit(d, f, fp_sign_mask(f))), d.band(b, fp_lit(d, f, fp_sign_mask(f))));
  if (m.abs) { a = fabs(d, f, false, a); b = fabs(d, f, false, b); }
  Val<D> na = d.fisnan(f, a), nb = d.fisnan(f, b);
  // Both zero: pick by sign (min prefers -0, max prefers +0).
  Val<D> zero = fp_lit(d, f, 0);
  Val<D> both_zero = d.band(d.feq(f, a, zero), d.feq(f, b, zero));
  Val<D> a_neg = d.eq(sign_bit(d, f, a), d.lit(1, 1));
  Val<D> zero_pick = is_max ? d.ite(a_neg, b, a) : d.ite(a_neg, a, b);
  Val<D> pick = is_max ? d.ite(d.flt(f, a, b), b, a) : d.ite(d.flt(f, b, a), b, a);
  Val<D> r = d.ite(both_zero, zero_pick, pick);
  Val<D> canon = fp_lit(d, f, domain::canonical_nan(f));
  if (m.nan) {
    r = d.ite(d.bor(na, nb), canon, r);
  } else {
    r = d.ite(d.band(na, nb), canon, d.ite(na, b, d.ite(nb, a, r)));
  }
  Val<D> rnan = d.fisnan(f, r);
  if (m.xorsign) r = d.ite(rnan, r, d.bor(d.band(r, fp_lit(d, f, ~fp_sign_mask(f) & domain::mask_of(domain::fp_bits(f)))), xs));
  if (m.ftz) r = flush_subnormal(d, f, r);
  return r;
}

// 9.7.3.1 testp: finite, infinite, number, notanumber, normal, subnormal.
enum class TestpOp : std::uint8_t { finite, infinite, number, notanumber, normal, subnormal };
template <class D> Val<D> testp(const D& d, FpFormat f, TestpOp op, const Val<D>& a) {
  Val<D> exp = d.band(a, fp_lit(d, f, fp_exp_mask(f)));
  Val<D> mant = d.band(a, fp_lit(d, f, (std::uint64_t(1) << (domain::fp_params(f).sbits - 1)) - 1));
  Val<D> exp_all = d.eq(exp, fp_lit(d, f, fp_exp_mask(f))), exp_zero = d.eq(exp, fp_lit(d, f, 0));
  Val<D> mant_zero = d.eq(mant, fp_lit(d, f, 0));
  Val<D> nan = d.band(exp_all, d.bnot(mant_zero)), inf = d.band(exp_all, mant_zero);
  switch (op) {
    case TestpOp::finite: return d.bnot(exp_all);
    case TestpOp::infinite: return inf;
    case TestpOp::number: return d.bnot(nan);
    case TestpOp::notanumber: return nan;
    case TestpOp::normal: return d.band(d.bnot(exp_all), d.bnot(exp_zero));
    case TestpOp::subnormal: return d.band(exp_zero, d.bnot(mant_zero));
  }
  return d.boolean(false);
}

// Packed formats (.f16x2, .bf16x2 in 32 bits; .f32x2 in 64): apply a scalar operation to each half of the
// operands' width, element 0 in the low half (ISA 9.7.3.3: fA[0] = a[0:31], fA[1] = a[32:63]).
template <class D, class Fn> Val<D> packed2(const D& d, const Val<D>& a, const Val<D>& b, Fn fn) {
  const unsigned h = d.width(a) / 2;
  Val<D> lo = fn(d.extract(a, h - 1, 0), d.extract(b, h - 1, 0));
  Val<D> hi = fn(d.extract(a, 2 * h - 1, h), d.extract(b, 2 * h - 1, h));
  return d.concat(hi, lo);
}
template <class D, class Fn> Val<D> packed3(const D& d, const Val<D>& a, const Val<D>& b, const Val<D>& c, Fn fn) {
  const unsigned h = d.width(a) / 2;
  Val<D> lo = fn(d.extract(a, h - 1, 0), d.extract(b, h - 1, 0), d.extract(c, h - 1, 0));
  Val<D> hi = fn(d.extract(a, 2 * h - 1, h), d.extract(b, 2 * h - 1, h), d.extract(c, 2 * h - 1, h));
  return d.concat(hi, lo);
}

}  // namespace ptx::ops
