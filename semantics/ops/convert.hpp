// Conversions (ISA 9.7.9.21 cvt): integer <-> integer (truncate or extend, .sat clamps), float <-> float,
// integer <-> float and float -> integral float, with every rounding mode, .ftz, .sat and .relu.
#pragma once

#include "semantics/ops/float.hpp"
#include "semantics/ops/integer.hpp"

namespace ptx::ops {

// Integer -> integer of width `w` (ISA 6.5 table 15: extend per the source's signedness, or chop); .sat clamps
// the source value to the destination's range.
template <class D> Val<D> cvt_int(const D& d, unsigned w, bool dst_signed, bool src_signed, bool sat, const Val<D>& a) {
  unsigned sw = d.width(a);
  if (!sat) return src_signed ? d.sext(a, w) : d.zext(a, w);
  unsigned big = std::max(sw, w) + 1;
  Val<D> x = src_signed ? d.sext(a, big) : d.zext(a, big);
  domain::u128 maxv = dst_signed ? (domain::u128(1) << (w - 1)) - 1 : domain::mask_of(w);
  Val<D> hi = d.lit(big, maxv);
  Val<D> lo = dst_signed ? d.neg(d.lit(big, domain::u128(1) << (w - 1))) : d.lit(big, 0);
  Val<D> r = d.ite(d.slt(hi, x), hi, d.ite(d.slt(x, lo), lo, x));
  return d.extract(r, w - 1, 0);
}

// Float -> float (.rn... for narrowing; widening is exact), with .ftz/.sat/.relu.
template <class D> Val<D> cvt_f2f(const D& d, FpFormat from, FpFormat to, const FpMods& m, const Val<D>& a0) {
  Val<D> a = m.ftz ? flush_subnormal(d, from, a0) : a0;
  Val<D> r = d.f2f(from, to, m.rnd, a);
  if (from == FpFormat::f64 && to == FpFormat::f64) r = d.ite(d.fisnan(from, a), quiet(d, from, a), r);
  return finish(d, to, m, r);
}
// Float -> integral float (.rni .rzi .rmi .rpi with the same format).
template <class D> Val<D> cvt_fround(const D& d, FpFormat f, const FpMods& m, const Val<D>& a0) {
  Val<D> a = m.ftz ? flush_subnormal(d, f, a0) : a0;
  return finish(d, f, m, d.fround(f, m.rnd, a));
}
// Integer -> float (.rn .rz .rm .rp).
template <class D> Val<D> cvt_i2f(const D& d, FpFormat to, bool src_signed, const FpMods& m, const Val<D>& a) {
  return finish(d, to, m, d.i2f(to, m.rnd, a, src_signed));
}
// Float -> integer (.rni .rzi .rmi .rpi; always saturating, NaN -> 0).
template <class D> Val<D> cvt_f2i(const D& d, FpFormat from, unsigned w, bool dst_signed, const FpMods& m, const Val<D>& a0) {
  Val<D> a = m.ftz ? flush_subnormal(d, from, a0) : a0;
  return d.f2i(from, m.rnd, a, w, dst_signed);
}

}  // namespace ptx::ops
