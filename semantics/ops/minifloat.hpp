// The narrow floating formats of ISA 5.2.5 (e4m3, e5m2, e2m1, e2m3, e3m2) and cvt's conversions to and from them
// (9.7.9.21: cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2,e2m1x2,e2m3x2,e3m2x2}.f32 and cvt.rn{.relu}.f16x2.{e2m1x2,
// e2m3x2,e3m2x2}), written once over a value domain on the bit patterns.
#pragma once

#include "semantics/ops/integer.hpp"

namespace ptx::ops {

struct MiniFormat {
  unsigned bits, mbits;        // total width, stored mantissa bits
  unsigned bias;               // exponent bias
  unsigned max_norm;           // the largest finite magnitude's encoding (no sign)
  bool nan_to_max_norm;        // no NaN encoding: NaN converts to +MAX_NORM (9.7.9.21 .satfinite)
  unsigned nan;                // the canonical NaN's encoding where there is one
};
// ISA 5.2.5: e4m3 has no infinities and S.1111.111 is NaN (max 448 = 0x7e); e5m2 is IEEE-like (max 57344 = 0x7b,
// NaN 0x7f); e2m1 (max 6), e2m3 (max 7.5) and e3m2 (max 28) have neither infinities nor NaN.
inline constexpr MiniFormat kE4M3{8, 3, 7, 0x7e, false, 0x7f};
inline constexpr MiniFormat kE5M2{8, 2, 15, 0x7b, false, 0x7f};
inline constexpr MiniFormat kE2M1{4, 1, 1, 0x7, true, 0};
inline constexpr MiniFormat kE2M3{6, 3, 1, 0x1f, true, 0};
inline constexpr MiniFormat kE3M2{6, 2, 3, 0x1f, true, 0};

// f32 bits -> the format's bits, rounded to nearest even, with .satfinite (9.7.9.21): a magnitude above MAX_NORM
// (infinity included) gives sign-preserved MAX_NORM; NaN gives the format's NaN, or +MAX_NORM where it has none.
// .relu: a negative result is +0 (NaN stays as above). f32 subnormals lie far below every format's least
// subnormal (2^-16 at most) and round to a signed zero.
template <class D> Val<D> f32_to_mini(const D& d, const MiniFormat& f, bool relu, const Val<D>& a) {
  auto k = [&](std::uint64_t v) { return d.lit(32, v); };
  const Val<D> ea = d.zext(d.extract(a, 30, 23), 32), m = d.zext(d.extract(a, 22, 0), 32);
  const Val<D> negative = d.extract(a, 31, 31);
  const Val<D> is_nan = d.band(d.eq(ea, k(255)), d.ne(m, k(0)));
  const Val<D> is_inf = d.band(d.eq(ea, k(255)), d.eq(m, k(0)));
  // |a| = S * 2^(ea - 150) for a normal a. The quantum at a's exponent E = ea - 127 is 2^(E - mbits), or, below the
  // least normal exponent emin = 1 - bias, 2^(emin - mbits): `extra` more bits go.
  const std::uint64_t emin_biased = 127 + 1 - f.bias;  // emin in f32's biased exponent
  const Val<D> extra = d.ite(d.ult(ea, k(emin_biased)), d.sub(k(emin_biased), ea), k(0));
  const Val<D> shift0 = d.add(k(23 - f.mbits), extra);
  const Val<D> shift = d.ite(d.ult(shift0, k(31)), shift0, k(31));  // past 25 bits everything rounds to 0 anyway
  const Val<D> S = d.bor(m, k(1u << 23));
  const Val<D> q = d.lshr(S, shift);
  const Val<D> rem = d.band(S, d.sub(d.shl(k(1), shift), k(1)));
  const Val<D> half = d.shl(k(1), d.sub(shift, k(1)));
  const Val<D> up = d.bor(d.ult(half, rem), d.band(d.eq(rem, half), d.extract(q, 0, 0)));
  const Val<D> qr = d.add(q, d.zext(up, 32));
  // Below emin the rounded quantum count is the encoding itself (a carry into 2^mbits is the least normal);
  // otherwise the exponent field E + bias above the mantissa (a carry into 2^(mbits+1) bumps the exponent).
  const Val<D> normal = d.sub(d.add(d.shl(d.sub(ea, k(127 - f.bias)), k(f.mbits)), qr), k(1u << f.mbits));
  Val<D> mag = d.ite(d.ne(extra, k(0)), qr, normal);
  mag = d.ite(d.eq(ea, k(0)), k(0), mag);  // zero and f32 subnormals
  mag = d.ite(d.bor(is_inf, d.ult(k(f.max_norm), mag)), k(f.max_norm), mag);
  const Val<D> sign = relu ? d.lit(1, 0) : negative;
  Val<D> r = d.bor(d.shl(d.zext(sign, 32), k(f.bits - 1)), mag);
  if (relu) r = d.ite(d.eq(negative, d.lit(1, 1)), k(0), r);
  r = d.ite(is_nan, k(f.nan_to_max_norm ? f.max_norm : f.nan), r);
  return d.extract(r, f.bits - 1, 0);
}

// The format's bits -> f16 bits, exactly (every value of e2m1, e2m3 and e3m2 is an f16 normal or zero).
template <class D> Val<D> mini_to_f16(const D& d, const MiniFormat& f, bool relu, const Val<D>& b) {
  const unsigned ebits = f.bits - 1 - f.mbits;
  const Val<D> s = d.extract(b, f.bits - 1, f.bits - 1), e = d.extract(b, f.bits - 2, f.mbits), m = d.extract(b, f.mbits - 1, 0);
  auto bits16 = [&](std::uint64_t exp16, std::uint64_t mant16) { return d.lit(15, (exp16 << 10) | mant16); };
  // normal: f16 exponent e - bias + 15, mantissa m << (10 - mbits)
  const Val<D> normal = d.concat(d.add(d.zext(e, 5), d.lit(5, 15 - f.bias)), d.concat(m, d.lit(10 - f.mbits, 0)));
  // subnormal: m * 2^(1 - bias - mbits), normalised for f16
  Val<D> sub = d.lit(15, 0);
  for (unsigned v = 1; v < (1u << f.mbits); ++v) {
    unsigned top = 31 - static_cast<unsigned>(__builtin_clz(v));
    const std::uint64_t exp16 = top + 1 - f.bias - f.mbits + 15;
    const std::uint64_t mant16 = static_cast<std::uint64_t>(v - (1u << top)) << (10 - top);
    sub = d.ite(d.eq(m, d.lit(f.mbits, v)), bits16(exp16, mant16), sub);
  }
  const Val<D> mag = d.ite(d.eq(e, d.lit(ebits, 0)), sub, normal);
  const Val<D> sign = relu ? d.lit(1, 0) : s;
  const Val<D> r = d.concat(sign, mag);
  return relu ? d.ite(d.eq(s, d.lit(1, 1)), d.lit(16, 0), r) : r;
}

}  // namespace ptx::ops
