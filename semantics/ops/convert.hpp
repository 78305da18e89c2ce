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

// 9.7.9.22 cvt.pack.sat.convertType.s32{.b32} d, a, b{, c}: a and b clamped to convertType's range (`size` bits,
// signed or not), b in d's low `size` bits and a in the next `size`; d's bits from 2*size up are c's low bits
// (the .u16/.s16 forms have no c: a and b fill d). The spec's pseudo-code clamps tb twice and ta only from below;
// its text ("limits the converted values to MIN..MAX") and its example (%r7 = {%r5, %r6, %r8, %r9}) clamp both.
template <class D> Val<D> cvt_pack(const D& d, unsigned size, bool dst_signed, const Val<D>& a, const Val<D>& b, const Val<D>& c) {
  const Val<D> td = d.concat(cvt_int(d, size, dst_signed, true, true, a), cvt_int(d, size, dst_signed, true, true, b));
  if (2 * size >= 32) return td;
  return d.concat(d.extract(c, 31 - 2 * size, 0), td);
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

// 9.7.9.21 cvt.rn.f16x2.{e4m3x2,e5m2x2}: 8-bit floats widened to f16, which is exact (ISA 5.2.5: e4m3 has
// bias 7, no infinities and NaN = S.1111.111; e5m2 has f16's exponent, so its bits are f16's top byte).
// NaN inputs give the canonical f16 NaN 0x7fff.
template <class D> Val<D> e5m2_to_f16(const D& d, const Val<D>& b) {
  Val<D> h = d.concat(b, d.lit(8, 0));
  Val<D> nan = d.band(d.eq(d.extract(b, 6, 2), d.lit(5, 31)), d.ne(d.extract(b, 1, 0), d.lit(2, 0)));
  return d.ite(nan, d.lit(16, 0x7fff), h);
}
template <class D> Val<D> e4m3_to_f16(const D& d, const Val<D>& b) {
  Val<D> s = d.extract(b, 7, 7), e = d.extract(b, 6, 3), m = d.extract(b, 2, 0);
  // normal: f16 exponent = e - 7 + 15, mantissa = m << 7
  Val<D> normal = d.concat(d.concat(s, d.add(d.zext(e, 5), d.lit(5, 8))), d.concat(m, d.lit(7, 0)));
  // subnormal: m * 2^-9, normalised for f16 (m = 1: 2^-9; 2,3: 2^-8 * 1.x; 4..7: 2^-7 * 1.xx)
  Val<D> sub = d.lit(15, 0);
  for (unsigned k = 1; k < 8; ++k) {
    unsigned top = k >= 4 ? 2 : k >= 2 ? 1 : 0;           // position of the leading one
    unsigned exp = static_cast<unsigned>(15 - 9 + static_cast<int>(top));
    unsigned mant = (k & ((1u << top) - 1)) << (10 - top);
    sub = d.ite(d.eq(m, d.lit(3, k)), d.lit(15, (exp << 10) | mant), sub);
  }
  Val<D> subv = d.concat(s, sub);
  Val<D> zero_e = d.eq(e, d.lit(4, 0));
  Val<D> nan = d.band(d.eq(e, d.lit(4, 15)), d.eq(m, d.lit(3, 7)));
  return d.ite(nan, d.lit(16, 0x7fff), d.ite(zero_e, subv, normal));
}

}  // namespace ptx::ops
