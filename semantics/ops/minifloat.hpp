// The narrow floating formats of ISA 5.2.5 (e4m3, e5m2, e2m1, e2m3, e3m2, ue8m0) and cvt's conversions to and from
// them (9.7.9.21: cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2,e2m1x2,e2m3x2,e3m2x2}.f32, cvt.rn{.relu}.f16x2.{e2m1x2,
// e2m3x2,e3m2x2}, the stochastic .rs forms to the x4 formats and f16x2/bf16x2, and .ue8m0x2 both ways), written once
// over a value domain on the bit patterns.
#pragma once

#include "semantics/domain/float_format.hpp"
#include "semantics/ops/integer.hpp"

namespace ptx::ops {

struct MiniFormat {
  unsigned bits, mbits;        // total width, stored mantissa bits
  unsigned bias;               // exponent bias
  unsigned max_norm;           // the largest finite magnitude's encoding (no sign)
  bool nan_to_max_norm;        // no NaN encoding: NaN converts to +MAX_NORM (9.7.9.21 .satfinite)
  unsigned nan;                // the canonical NaN's encoding where there is one
  unsigned inf = 0;            // the infinity's encoding where there is one (f16, bf16), else 0
};
// ISA 5.2.5: e4m3 has no infinities and S.1111.111 is NaN (max 448 = 0x7e); e5m2 is IEEE-like (max 57344 = 0x7b,
// NaN 0x7f); e2m1 (max 6), e2m3 (max 7.5) and e3m2 (max 28) have neither infinities nor NaN.
inline constexpr MiniFormat kE4M3{8, 3, 7, 0x7e, false, 0x7f};
inline constexpr MiniFormat kE5M2{8, 2, 15, 0x7b, false, 0x7f};
inline constexpr MiniFormat kE2M1{4, 1, 1, 0x7, true, 0};
inline constexpr MiniFormat kE2M3{6, 3, 1, 0x1f, true, 0};
inline constexpr MiniFormat kE3M2{6, 2, 3, 0x1f, true, 0};
// ISA 5.2.1 f16 (IEEE binary16) and 5.2.2 bf16 (f32's exponent, 7 mantissa bits), as the destinations of
// cvt.rs.{f16x2,bf16x2}.f32; canonical NaN 0x7fff (9.7.9.21 .relu: "NaN results are converted to canonical NaN").
inline constexpr MiniFormat kF16{16, 10, 15, 0x7bff, false, 0x7fff, 0x7c00};
inline constexpr MiniFormat kBF16{16, 7, 127, 0x7f7f, false, 0x7fff, 0x7f80};
// ISA 5.2.5 tf32: "the same range as .f32 and reduced precision (>= 10 bits)"; its layout is implementation defined.
// Modelled as f32's sign and exponent with 10 mantissa bits (19 bits), held in a .b32 register as the f32 encoding
// with the 13 low bits zero: the bits the mma instructions keep ("truncate lower 13 bits", 9.7.15.5.2). NaN 0x3ffff
// (0x7fffe000 in the register: f32's canonical NaN 0x7fffffff so truncated).
inline constexpr MiniFormat kTF32{19, 10, 127, 0x3fbff, false, 0x3ffff, 0x3fc00};

// How f32_to_mini rounds the discarded bits (ISA 6.5.2 table 17): `mode` (.rn, .rna or .rz), or .rs with `width`
// random bits.
// 9.7.9.21 .rs: "rounded in the direction toward zero or away from zero based on the carry out of the integer addition
// of the supplied random bits (rbits) to the truncated off (discarded) bits of mantissa". For f16 (13 random bits)
// and bf16 (16) from a normal f32 with a normal result, the discarded field is exactly as wide as the random bits.
// Where it is wider (the x4 formats: 20-22 discarded bits, 8 or 16 random bits; subnormal results) the spec does not
// say where the random bits are added; they are added at the discarded field's most significant end, the only
// alignment that gives the carry the weight of one quantum of the result. Bits below them cannot carry.
template <class D> struct MiniRounding {
  bool stochastic = false;
  unsigned width = 0;  // random bits used (.rs)
  const Val<D>* rbits = nullptr;  // `width` bits (.rs)
  domain::Rnd mode = domain::Rnd::rn;  // without .rs: rn (ties to even), rna (ties away from zero) or rz
};

// f32 bits -> the format's bits, rounded as `rnd` says. With .satfinite (9.7.9.21) a magnitude above MAX_NORM
// (infinity included) gives sign-preserved MAX_NORM; without it (f16/bf16/tf32 only) infinity stays infinity and a
// finite value beyond MAX_NORM rounds to infinity when rounded away from zero (.rn, .rna: always; .rz: never), else
// to MAX_NORM.
// NaN gives the format's NaN, or +MAX_NORM where it has none. .relu: a negative result is +0 (NaN stays as above).
// f32 subnormals are S = m with f32's least exponent; below every narrow format's least subnormal they round to a
// signed zero (the top discarded bits are zero, so .rs cannot carry either); in bf16 they stay subnormals.
template <class D>
Val<D> f32_to_mini(const D& d, const MiniFormat& f, bool relu, const Val<D>& a, bool satfinite, const MiniRounding<D>& rnd) {
  auto k = [&](std::uint64_t v) { return d.lit(32, v); };
  const Val<D> ea0 = d.zext(d.extract(a, 30, 23), 32), m = d.zext(d.extract(a, 22, 0), 32);
  const Val<D> negative = d.extract(a, 31, 31);
  const Val<D> is_nan = d.band(d.eq(ea0, k(255)), d.ne(m, k(0)));
  const Val<D> is_inf = d.band(d.eq(ea0, k(255)), d.eq(m, k(0)));
  const Val<D> ea = d.ite(d.eq(ea0, k(0)), k(1), ea0);  // a subnormal's exponent is f32's least, 1 - 127
  // |a| = S * 2^(ea - 150). The quantum at a's exponent E = ea - 127 is 2^(E - mbits), or, below the
  // least normal exponent emin = 1 - bias, 2^(emin - mbits): `extra` more bits go.
  const std::uint64_t emin_biased = 127 + 1 - f.bias;  // emin in f32's biased exponent
  const Val<D> extra = d.ite(d.ult(ea, k(emin_biased)), d.sub(k(emin_biased), ea), k(0));
  const Val<D> shift0 = d.add(k(23 - f.mbits), extra);
  const Val<D> shift = d.ite(d.ult(shift0, k(31)), shift0, k(31));  // past 25 bits everything rounds to 0 anyway
  const Val<D> S = d.ite(d.eq(ea0, k(0)), m, d.bor(m, k(1u << 23)));
  const Val<D> q = d.lshr(S, shift);
  const Val<D> rem = d.band(S, d.sub(d.shl(k(1), shift), k(1)));  // the discarded bits (all of S past 24)
  const Val<D> up = [&] {
    if (rnd.stochastic) {  // the carry out of (the discarded field's top `width` bits) + rbits; width <= 23 - mbits
      const Val<D> drop = d.sub(shift0, k(rnd.width));
      const Val<D> top = d.ite(d.ult(drop, k(24)), d.lshr(rem, drop), k(0));
      return d.ule(k(1u << rnd.width), d.add(top, d.zext(*rnd.rbits, 32)));
    }
    if (rnd.mode == domain::Rnd::rz) return d.lit(1, 0);
    const Val<D> half = d.shl(k(1), d.sub(shift, k(1)));
    if (rnd.mode == domain::Rnd::rna) return d.ule(half, rem);  // a tie goes away from zero
    return d.bor(d.ult(half, rem), d.band(d.eq(rem, half), d.extract(q, 0, 0)));
  }();
  const Val<D> qr = d.add(q, d.zext(up, 32));
  // Below emin the rounded quantum count is the encoding itself (a carry into 2^mbits is the least normal);
  // otherwise the exponent field E + bias above the mantissa (a carry into 2^(mbits+1) bumps the exponent).
  const Val<D> normal = d.sub(d.add(d.shl(d.sub(ea, k(127 - f.bias)), k(f.mbits)), qr), k(1u << f.mbits));
  Val<D> mag = d.ite(d.ne(extra, k(0)), qr, normal);
  const Val<D> over = d.bor(is_inf, d.ult(k(f.max_norm), mag));
  const bool directed = rnd.stochastic || rnd.mode == domain::Rnd::rz;
  const Val<D> to_inf = directed ? d.bor(is_inf, up) : d.lit(1, 1);  // rounded away from zero past MAX_NORM
  mag = d.ite(over, satfinite ? k(f.max_norm) : d.ite(to_inf, k(f.inf), k(f.max_norm)), mag);
  const Val<D> sign = relu ? d.lit(1, 0) : negative;
  Val<D> r = d.bor(d.shl(d.zext(sign, 32), k(f.bits - 1)), mag);
  if (relu) r = d.ite(d.eq(negative, d.lit(1, 1)), k(0), r);
  r = d.ite(is_nan, k(f.nan_to_max_norm ? f.max_norm : f.nan), r);
  return d.extract(r, f.bits - 1, 0);
}
// cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2,e2m1x2,e2m3x2,e3m2x2}.f32, one element.
template <class D> Val<D> f32_to_mini(const D& d, const MiniFormat& f, bool relu, const Val<D>& a) {
  return f32_to_mini(d, f, relu, a, true, MiniRounding<D>{});
}
// cvt.rs{.relu}{.satfinite}.{f16x2,bf16x2,e4m3x4,e5m2x4,e2m3x4,e3m2x4,e2m1x4}.f32, one element with its random bits.
template <class D>
Val<D> f32_to_mini_rs(const D& d, const MiniFormat& f, bool relu, bool satfinite, const Val<D>& a, const Val<D>& rbits) {
  return f32_to_mini(d, f, relu, a, satfinite, MiniRounding<D>{true, d.width(rbits), &rbits});
}
// cvt.rna{.satfinite}.tf32.f32 and cvt.{rn,rz}{.satfinite}{.relu}.tf32.f32 (9.7.9.21): the kTF32 bits in the upper 19
// bits of the .b32 destination.
template <class D> Val<D> f32_to_tf32(const D& d, domain::Rnd mode, bool relu, bool satfinite, const Val<D>& a) {
  MiniRounding<D> rnd;
  rnd.mode = mode;
  return d.concat(f32_to_mini(d, kTF32, relu, a, satfinite, rnd), d.lit(13, 0));
}

// ue8m0 (ISA 5.2.3): 8 exponent bits, no mantissa, no sign, no infinity, NaN = 0xff. The spec gives no bias; the one
// of its other formats (2^(ebits-1) - 1, as e4m3's 7 and e5m2's 15) is 127, f32's, so code e is 2^(e - 127) and
// cvt.rn.bf16x2.ue8m0x2 is exact; there is no zero (code 0 is 2^-127).
// cvt.{rz,rp}{.satfinite}.ue8m0x2.{f32,bf16x2}, one element: rz keeps f32's exponent field (truncating the mantissa),
// rp adds one when the mantissa is not zero. NaN -> 0xff. 9.7.9.21 .satfinite: |a| > MAX_NORM (2^127 = 0xfe),
// infinities included, gives +MAX_NORM "for which the destination sign is not supported". Left open by the spec,
// chosen here: the sign of any other input is dropped too (the magnitude is converted, as that rule does); without
// .satfinite an overflow has no infinity to go to and gives NaN 0xff; a magnitude below 2^-126 (zero and f32
// subnormals included) gives the least code 0x00 = 2^-127 under rz, and under rp too unless it exceeds 2^-127
// (a subnormal mantissa above 2^22), which gives 0x01.
template <class D> Val<D> f32_to_ue8m0(const D& d, bool round_up, bool satfinite, const Val<D>& a) {
  auto k = [&](std::uint64_t v) { return d.lit(9, v); };
  const Val<D> ea = d.zext(d.extract(a, 30, 23), 9), m = d.extract(a, 22, 0);
  const Val<D> m_nonzero = d.ne(m, d.lit(23, 0));
  const Val<D> is_nan = d.band(d.eq(ea, k(255)), m_nonzero);
  Val<D> e = round_up ? d.add(ea, d.zext(m_nonzero, 9)) : ea;
  if (round_up) e = d.ite(d.eq(ea, k(0)), d.zext(d.ult(d.lit(23, 1u << 22), m), 9), e);
  else e = d.ite(d.eq(ea, k(0)), k(0), e);
  e = d.ite(d.ule(k(255), e), k(satfinite ? 0xfe : 0xff), e);  // overflow (and infinity)
  e = d.ite(is_nan, k(0xff), e);
  return d.extract(e, 7, 0);
}
// cvt.rn.bf16x2.ue8m0x2, one element: exact. 2^(e-127) is bf16 exponent field e for e >= 1 and the subnormal
// 0x0040 for e = 0; NaN 0xff -> the canonical bf16 NaN 0x7fff (the spec does not say which NaN).
template <class D> Val<D> ue8m0_to_bf16(const D& d, const Val<D>& b) {
  const Val<D> normal = d.concat(d.lit(1, 0), d.concat(b, d.lit(7, 0)));
  return d.ite(d.eq(b, d.lit(8, 0xff)), d.lit(16, 0x7fff), d.ite(d.eq(b, d.lit(8, 0)), d.lit(16, 0x0040), normal));
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
