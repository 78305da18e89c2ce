// Integer and extended-precision arithmetic (ISA 9.7.1, 9.7.2), each written ONCE as a template over a value
// domain D (domain::Concrete or domain::Symbolic): the interpreter and the SMT encoders share these meanings.
#pragma once

#include "semantics/domain/concrete.hpp"

#include <algorithm>
#include <cstdint>

namespace ptx::ops {

template <class D> using Val = typename D::V;

// 9.7.1.1 add / 9.7.1.2 sub / 9.7.1.3 mul.lo: wrap around modulo 2^w.
template <class D> Val<D> add(const D& d, const Val<D>& a, const Val<D>& b) { return d.add(a, b); }
template <class D> Val<D> sub(const D& d, const Val<D>& a, const Val<D>& b) { return d.sub(a, b); }
template <class D> Val<D> mul_lo(const D& d, const Val<D>& a, const Val<D>& b) { return d.mul(a, b); }

// 9.7.1.1 add.sat.s32 (and sub.sat.s32): clamp to [MININT, MAXINT] instead of wrapping.
template <class D> Val<D> add_sat_s(const D& d, const Val<D>& a, const Val<D>& b, bool subtract = false) {
  unsigned w = d.width(a);
  Val<D> wa = d.sext(a, w + 1), wb = d.sext(b, w + 1);
  Val<D> s = subtract ? d.sub(wa, wb) : d.add(wa, wb);
  Val<D> maxv = d.lit(w + 1, (static_cast<domain::u128>(1) << (w - 1)) - 1);
  Val<D> minv = d.neg(d.lit(w + 1, static_cast<domain::u128>(1) << (w - 1)));
  Val<D> clamped = d.ite(d.slt(maxv, s), maxv, d.ite(d.slt(s, minv), minv, s));
  return d.extract(clamped, w - 1, 0);
}

// 9.7.1.3 mul.wide: the full 2w-bit product; mul.hi: its upper w bits.
template <class D> Val<D> mul_wide(const D& d, bool is_signed, const Val<D>& a, const Val<D>& b) {
  unsigned w = d.width(a);
  Val<D> wa = is_signed ? d.sext(a, 2 * w) : d.zext(a, 2 * w);
  Val<D> wb = is_signed ? d.sext(b, 2 * w) : d.zext(b, 2 * w);
  return d.mul(wa, wb);
}
template <class D> Val<D> mul_hi(const D& d, bool is_signed, const Val<D>& a, const Val<D>& b) {
  unsigned w = d.width(a);
  return d.extract(mul_wide(d, is_signed, a, b), 2 * w - 1, w);
}

// 9.7.1.5 mul24: the 48-bit product of the low 24 bits (sign-extended for .s32); .lo = t<31..0>,
// .hi = t<47..16>.
template <class D> Val<D> mul24(const D& d, bool is_signed, bool hi, const Val<D>& a, const Val<D>& b) {
  Val<D> a24 = d.extract(a, 23, 0), b24 = d.extract(b, 23, 0);
  Val<D> wa = is_signed ? d.sext(a24, 64) : d.zext(a24, 64);
  Val<D> wb = is_signed ? d.sext(b24, 64) : d.zext(b24, 64);
  Val<D> t = d.mul(wa, wb);
  return hi ? d.extract(t, 47, 16) : d.extract(t, 31, 0);
}

// 9.7.1.7 sad: d = c + |a - b|.
template <class D> Val<D> sad(const D& d, bool is_signed, const Val<D>& a, const Val<D>& b, const Val<D>& c) {
  Val<D> less = is_signed ? d.slt(a, b) : d.ult(a, b);
  return d.add(c, d.ite(less, d.sub(b, a), d.sub(a, b)));
}

// 9.7.1.8 div / 9.7.1.9 rem. Division by zero is unspecified by PTX; both domains use SMT-LIB's totalisation.
template <class D> Val<D> div(const D& d, bool is_signed, const Val<D>& a, const Val<D>& b) {
  return is_signed ? d.sdiv(a, b) : d.udiv(a, b);
}
template <class D> Val<D> rem(const D& d, bool is_signed, const Val<D>& a, const Val<D>& b) {
  return is_signed ? d.srem(a, b) : d.urem(a, b);
}

// 9.7.1.10 abs / 9.7.1.11 neg (abs of MININT is MININT).
template <class D> Val<D> abs(const D& d, const Val<D>& a) {
  return d.ite(d.slt(a, d.lit(d.width(a), 0)), d.neg(a), a);
}
template <class D> Val<D> neg(const D& d, const Val<D>& a) { return d.neg(a); }

// 9.7.1.12 min / 9.7.1.13 max.
template <class D> Val<D> min(const D& d, bool is_signed, const Val<D>& a, const Val<D>& b) {
  return d.ite(is_signed ? d.slt(b, a) : d.ult(b, a), b, a);
}
template <class D> Val<D> max(const D& d, bool is_signed, const Val<D>& a, const Val<D>& b) {
  return d.ite(is_signed ? d.slt(a, b) : d.ult(a, b), b, a);
}

// 9.7.1.14 popc: number of one bits, as a .u32 (SWAR sum, valid for every width up to 64).
template <class D> Val<D> popc(const D& d, const Val<D>& a) {
  unsigned w = d.width(a);
  Val<D> x = d.zext(a, 64);
  auto sh = [&](unsigned n) { return d.lit(64, n); };
  x = d.sub(x, d.band(d.lshr(x, sh(1)), d.lit(64, 0x5555555555555555ull)));
  x = d.add(d.band(x, d.lit(64, 0x3333333333333333ull)), d.band(d.lshr(x, sh(2)), d.lit(64, 0x3333333333333333ull)));
  x = d.band(d.add(x, d.lshr(x, sh(4))), d.lit(64, 0x0f0f0f0f0f0f0f0full));
  x = d.lshr(d.mul(x, d.lit(64, 0x0101010101010101ull)), sh(56));
  (void)w;
  return d.extract(x, 31, 0);
}

// 9.7.1.15 clz: leading zeros, as a .u32 (w for zero). Binary search over halves.
// 9.7.1.17 fns.b32 d, mask, base, offset: counting set bits of mask from bit `base` upward (offset > 0) or downward
// (offset < 0), the position of the |offset|-th; for offset 0, base itself when mask[base] is set; else 0xffffffff
// (the spec's loop). The bit found at pos is the set bit whose run [base, pos] (or [pos, base]) holds exactly |offset|
// set bits, so at most one pos qualifies. A base above 31 (undefined) finds nothing.
template <class D> Val<D> fns(const D& d, const Val<D>& mask, const Val<D>& base, const Val<D>& offset) {
  const Val<D> ones = d.lit(32, 0xffffffffu), zero = d.lit(32, 0), last = d.lit(32, 31);
  const Val<D> up = d.slt(zero, offset), n = d.ite(d.slt(offset, zero), d.neg(offset), offset);
  Val<D> r = d.ite(d.band(d.eq(offset, zero), d.extract(d.lshr(mask, base), 0, 0)), base, ones);
  for (unsigned pos = 0; pos < 32; ++pos) {
    const Val<D> p = d.lit(32, pos);
    const Val<D> between = d.ite(up, d.band(d.shl(ones, base), d.lshr(ones, d.lit(32, 31 - pos))),
                                 d.band(d.shl(ones, p), d.lshr(ones, d.sub(last, base))));
    const Val<D> in_range = d.band(d.ule(base, last), d.ite(up, d.ule(base, p), d.ule(p, base)));
    const Val<D> counted = d.eq(d.zext(popc(d, d.band(mask, between)), 32), n);
    r = d.ite(d.band(d.band(in_range, d.extract(mask, pos, pos)), d.band(d.ne(offset, zero), counted)), p, r);
  }
  return r;
}
template <class D> Val<D> clz(const D& d, const Val<D>& a) {
  unsigned w = d.width(a);
  Val<D> x = a, n = d.lit(32, 0);
  for (unsigned step = w / 2; step >= 1; step /= 2) {
    Val<D> top_zero = d.eq(d.lshr(x, d.lit(w, w - step)), d.lit(w, 0));
    n = d.ite(top_zero, d.add(n, d.lit(32, step)), n);
    x = d.ite(top_zero, d.shl(x, d.lit(w, step)), x);
  }
  // After the search x's top bit is set unless a was zero.
  Val<D> top = d.extract(x, w - 1, w - 1);
  return d.ite(d.eq(top, d.lit(1, 0)), d.lit(32, w), n);
}

// 9.7.1.16 bfind: bit position of the most significant non-sign bit; 0xffffffff when none.
// .shiftamt returns the left shift that would normalise instead (w-1-pos).
template <class D> Val<D> bfind(const D& d, bool is_signed, bool shiftamt, const Val<D>& a) {
  unsigned w = d.width(a);
  Val<D> x = is_signed ? d.ite(d.slt(a, d.lit(w, 0)), d.bnot(a), a) : a;
  Val<D> lz = clz(d, x);
  Val<D> none = d.eq(lz, d.lit(32, w));
  Val<D> pos = d.sub(d.lit(32, w - 1), lz);
  return d.ite(none, d.lit(32, 0xffffffffu), shiftamt ? lz : pos);
}

// 9.7.1.18 brev: reverse the bits.
template <class D> Val<D> brev(const D& d, const Val<D>& a) {
  unsigned w = d.width(a);
  Val<D> r = d.extract(a, 0, 0);
  for (unsigned i = 1; i < w; ++i) r = d.concat(r, d.extract(a, i, i));
  return r;
}

// Helpers: a mask of the low k bits (k may be >= w), in width w.
template <class D> Val<D> low_mask(const D& d, unsigned w, const Val<D>& k) {
  Val<D> ones = d.lit(w, domain::mask_of(w));
  return d.bnot(d.shl(ones, k));
}

// 9.7.1.19 bfe: extract `len` bits at `pos` (both b,c & 0xff), zero- or sign-extended.
template <class D> Val<D> bfe(const D& d, bool is_signed, const Val<D>& a, const Val<D>& b, const Val<D>& c) {
  unsigned w = d.width(a);
  Val<D> pos = d.zext(d.extract(b, 7, 0), w), len = d.zext(d.extract(c, 7, 0), w);
  Val<D> W = d.lit(w, w), zero = d.lit(w, 0), one = d.lit(w, 1);
  Val<D> room = d.ite(d.ult(pos, W), d.sub(W, pos), zero);          // bits available above pos
  Val<D> k = d.ite(d.ult(len, room), len, room);                      // valid bits = min(len, room)
  Val<D> field = d.band(d.lshr(a, pos), low_mask(d, w, k));
  if (!is_signed) return field;
  Val<D> last = d.sub(d.add(pos, len), one);                          // pos+len-1 (no overflow: < 512)
  Val<D> at = d.ite(d.ult(last, W), last, d.lit(w, w - 1));
  Val<D> sbit = d.band(d.ne(len, zero), d.extract(d.lshr(a, at), 0, 0));
  return d.bor(field, d.ite(sbit, d.shl(d.lit(w, domain::mask_of(w)), k), zero));
}

// 9.7.1.20 bfi: insert the low `len` bits of a into b at `pos`.
template <class D> Val<D> bfi(const D& d, const Val<D>& a, const Val<D>& b, const Val<D>& c, const Val<D>& e) {
  unsigned w = d.width(a);
  Val<D> pos = d.zext(d.extract(c, 7, 0), w), len = d.zext(d.extract(e, 7, 0), w);
  Val<D> W = d.lit(w, w), zero = d.lit(w, 0);
  Val<D> room = d.ite(d.ult(pos, W), d.sub(W, pos), zero);
  Val<D> k = d.ite(d.ult(len, room), len, room);
  Val<D> m = d.shl(low_mask(d, w, k), pos);
  return d.bor(d.band(b, d.bnot(m)), d.band(d.shl(a, pos), m));
}

// 9.7.1.21 szext.{wrap,clamp}.{u32,s32}: sign- or zero-extend the low b bits of a.
template <class D> Val<D> szext(const D& d, bool is_signed, bool clamp, const Val<D>& a, const Val<D>& b) {
  Val<D> b1 = d.band(b, d.lit(32, 0x1f));
  Val<D> too_large = clamp ? d.ule(d.lit(32, 32), b) : d.boolean(false);
  Val<D> mask = d.ite(too_large, d.lit(32, 0), d.shl(d.lit(32, 0xffffffffu), b1));
  Val<D> sign_pos = d.band(d.sub(b1, d.lit(32, 1)), d.lit(32, 0x1f));
  Val<D> sign_bit = is_signed ? d.band(d.band(d.ne(b1, d.lit(32, 0)), d.bnot(too_large)), d.extract(d.lshr(a, sign_pos), 0, 0))
                              : d.boolean(false);
  return d.bor(d.band(a, d.bnot(mask)), d.ite(sign_bit, mask, d.lit(32, 0)));
}

// 9.7.1.22 bmsk.{wrap,clamp}.b32: a mask of b bits starting at bit a.
template <class D> Val<D> bmsk(const D& d, bool clamp, const Val<D>& a, const Val<D>& b) {
  Val<D> ones = d.lit(32, 0xffffffffu), zero = d.lit(32, 0), c32 = d.lit(32, 32);
  Val<D> a1 = d.band(a, d.lit(32, 0x1f)), b1 = d.band(b, d.lit(32, 0x1f));
  Val<D> mask0 = d.shl(ones, a1);
  Val<D> sum = d.add(a1, b1);
  Val<D> mask1 = d.shl(ones, sum);
  Val<D> overflow = d.ule(c32, sum);
  if (clamp) {
    Val<D> pos_over = d.ule(c32, a), width_over = d.ule(c32, b);
    mask0 = d.ite(pos_over, zero, mask0);
    overflow = d.bor(overflow, d.bor(pos_over, width_over));
  }
  mask1 = d.ite(overflow, zero, d.ite(d.eq(b1, zero), ones, mask1));
  return d.band(mask0, d.bnot(mask1));
}

// 9.7.1.23 dp4a: c + the dot product of the four bytes of a and b (each sign- or zero-extended).
template <class D> Val<D> dp4a(const D& d, bool a_signed, bool b_signed, const Val<D>& a, const Val<D>& b, const Val<D>& c) {
  Val<D> acc = c;
  for (unsigned i = 0; i < 4; ++i) {
    Val<D> ai = d.extract(a, 8 * i + 7, 8 * i), bi = d.extract(b, 8 * i + 7, 8 * i);
    acc = d.add(acc, d.mul(a_signed ? d.sext(ai, 32) : d.zext(ai, 32), b_signed ? d.sext(bi, 32) : d.zext(bi, 32)));
  }
  return acc;
}
// 9.7.1.24 dp2a.{lo,hi}: two 16-bit halves of a times bytes 0,1 (lo) or 2,3 (hi) of b.
template <class D> Val<D> dp2a(const D& d, bool a_signed, bool b_signed, bool hi, const Val<D>& a, const Val<D>& b, const Val<D>& c) {
  Val<D> acc = c;
  unsigned sel = hi ? 2 : 0;
  for (unsigned i = 0; i < 2; ++i) {
    Val<D> ai = d.extract(a, 16 * i + 15, 16 * i), bi = d.extract(b, 8 * (sel + i) + 7, 8 * (sel + i));
    acc = d.add(acc, d.mul(a_signed ? d.sext(ai, 32) : d.zext(ai, 32), b_signed ? d.sext(bi, 32) : d.zext(bi, 32)));
  }
  return acc;
}

// 9.7.2 extended precision: a value and the carry (or borrow) flag CC.CF, 1 bit.
template <class D> struct WithCarry {
  Val<D> value, carry;
};
// add.cc / addc{.cc}: d = a + b (+ CC.CF); carry-out = bit w of the exact sum.
template <class D> WithCarry<D> add_carry(const D& d, const Val<D>& a, const Val<D>& b, const Val<D>& cin) {
  unsigned w = d.width(a);
  Val<D> s = d.add(d.add(d.zext(a, w + 1), d.zext(b, w + 1)), d.zext(cin, w + 1));
  return {d.extract(s, w - 1, 0), d.extract(s, w, w)};
}
// sub.cc / subc{.cc}: ISA 9.7.2.3-4 describe d = a - (b + borrow). The hardware keeps the flag as a carry, not
// a borrow: nv50 seed 3.1 "sub: s1 = SRC1, s2 = ~SRC2, c = 1; res = s1+s2+c; CDST.C = res >> 32", and subc
// adds ~b with the carry in. So CC.CF = 1 means "no borrow", which is observable when addc reads the flag
// after sub.cc (zluda-ptx subc_cc_s32, measured on a GPU, agrees). sub.cc passes cin = 1, subc passes CC.CF.
template <class D> WithCarry<D> sub_carry(const D& d, const Val<D>& a, const Val<D>& b, const Val<D>& cin) {
  return add_carry(d, a, d.bnot(b), cin);
}
// The ISA's own view of the same chain (9.7.2.3-4): d = a - (b + borrow_in), borrow-out = the exact difference
// is negative. Defined through sub_carry with the flag inverted (borrow = !carry), so the two views are one
// semantics; proofs/ can check that a chain of these equals the wide subtraction.
template <class D> WithCarry<D> sub_borrow(const D& d, const Val<D>& a, const Val<D>& b, const Val<D>& borrow_in) {
  WithCarry<D> r = sub_carry(d, a, b, d.bnot(borrow_in));
  return {r.value, d.bnot(r.carry)};
}

// 9.7.1.4 mad.{lo,hi,wide} (9.7.2.5 mad.cc / 9.7.2.6 madc add a carry): the product's selected part plus c.
enum class MulPart : std::uint8_t { lo, hi, wide };
template <class D> Val<D> mul_part(const D& d, MulPart part, bool is_signed, const Val<D>& a, const Val<D>& b) {
  switch (part) {
    case MulPart::lo: return d.mul(a, b);
    case MulPart::hi: return mul_hi(d, is_signed, a, b);
    case MulPart::wide: return mul_wide(d, is_signed, a, b);
  }
  return d.mul(a, b);
}

}  // namespace ptx::ops
