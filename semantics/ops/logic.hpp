// Logic and shift instructions (ISA 9.7.8) and prmt (9.7.9.7), written once over a value domain D.
// Shift amounts are unsigned and saturate: an amount >= the width shifts every bit out (9.7.8.8 shl, 9.7.8.9 shr).
#pragma once

#include "semantics/ops/integer.hpp"

namespace ptx::ops {

template <class D> Val<D> and_(const D& d, const Val<D>& a, const Val<D>& b) { return d.band(a, b); }
template <class D> Val<D> or_(const D& d, const Val<D>& a, const Val<D>& b) { return d.bor(a, b); }
template <class D> Val<D> xor_(const D& d, const Val<D>& a, const Val<D>& b) { return d.bxor(a, b); }
template <class D> Val<D> not_(const D& d, const Val<D>& a) { return d.bnot(a); }
// 9.7.8.5 cnot: d = (a == 0) ? 1 : 0.
template <class D> Val<D> cnot(const D& d, const Val<D>& a) {
  unsigned w = d.width(a);
  return d.ite(d.eq(a, d.lit(w, 0)), d.lit(w, 1), d.lit(w, 0));
}
// 9.7.8.6 lop3: bit i of d is bit (a_i*4 + b_i*2 + c_i) of the 8-bit truth table immLut.
template <class D> Val<D> lop3(const D& d, const Val<D>& a, const Val<D>& b, const Val<D>& c, unsigned lut) {
  unsigned w = d.width(a);
  Val<D> r = d.lit(w, 0);
  for (unsigned i = 0; i < 8; ++i) {
    if (!((lut >> i) & 1)) continue;
    Val<D> ta = (i & 4) ? a : d.bnot(a), tb = (i & 2) ? b : d.bnot(b), tc = (i & 1) ? c : d.bnot(c);
    r = d.bor(r, d.band(ta, d.band(tb, tc)));
  }
  return r;
}
// 9.7.8.8 shl, 9.7.8.9 shr (arithmetic for .s types). The amount is a .u32 operand.
template <class D> Val<D> shl(const D& d, const Val<D>& a, const Val<D>& s) { return d.shl(a, s); }
template <class D> Val<D> shr(const D& d, bool is_signed, const Val<D>& a, const Val<D>& s) {
  return is_signed ? d.ashr(a, s) : d.lshr(a, s);
}
// 9.7.8.7 shf.{l,r}.{clamp,wrap}.b32: funnel shift of the 64-bit {b, a}.
template <class D> Val<D> shf(const D& d, bool left, bool clamp, const Val<D>& a, const Val<D>& b, const Val<D>& c) {
  Val<D> n = clamp ? d.ite(d.ult(c, d.lit(32, 32)), c, d.lit(32, 32)) : d.band(c, d.lit(32, 31));
  Val<D> both = d.concat(b, a);
  Val<D> n64 = d.zext(n, 64);
  return left ? d.extract(d.shl(both, n64), 63, 32) : d.extract(d.lshr(both, n64), 31, 0);
}

// 9.7.9.7 prmt: pick four bytes of {b, a}. mode: 0 = generic (c is four 4-bit selectors, msb = replicate the
// byte's sign), else one of the specialised modes, whose selectors come from c[1:0] and the ISA's table.
enum class PrmtMode : std::uint8_t { generic, f4e, b4e, rc8, ecl, ecr, rc16 };
template <class D> Val<D> prmt(const D& d, PrmtMode mode, const Val<D>& a, const Val<D>& b, const Val<D>& c) {
  Val<D> tmp = d.concat(b, a);
  auto byte_at = [&](const Val<D>& index3) {  // index3: 64-bit value 0..7
    return d.extract(d.lshr(tmp, d.shl(index3, d.lit(64, 3))), 7, 0);
  };
  if (mode == PrmtMode::generic) {
    Val<D> out = d.lit(0 + 8, 0);
    for (unsigned i = 0; i < 4; ++i) {
      Val<D> sel = d.zext(d.extract(c, 4 * i + 3, 4 * i), 64);
      Val<D> byte = byte_at(d.band(sel, d.lit(64, 7)));
      Val<D> rep = d.extract(sel, 3, 3);
      Val<D> sign = d.extract(byte, 7, 7);
      byte = d.ite(rep, d.ite(sign, d.lit(8, 0xff), d.lit(8, 0)), byte);
      out = i == 0 ? byte : d.concat(byte, out);
    }
    return out;
  }
  // The ISA table: for each mode and selector c[1:0], the sources of d.b3 d.b2 d.b1 d.b0.
  static constexpr unsigned char table[6][4][4] = {
      {{3, 2, 1, 0}, {4, 3, 2, 1}, {5, 4, 3, 2}, {6, 5, 4, 3}},  // f4e
      {{5, 6, 7, 0}, {6, 7, 0, 1}, {7, 0, 1, 2}, {0, 1, 2, 3}},  // b4e
      {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},  // rc8
      {{3, 2, 1, 0}, {3, 2, 1, 1}, {3, 2, 2, 2}, {3, 3, 3, 3}},  // ecl
      {{0, 0, 0, 0}, {1, 1, 1, 0}, {2, 2, 1, 0}, {3, 2, 1, 0}},  // ecr
      {{1, 0, 1, 0}, {3, 2, 3, 2}, {1, 0, 1, 0}, {3, 2, 3, 2}},  // rc16
  };
  const auto& t = table[static_cast<unsigned>(mode) - 1];
  Val<D> sel = d.extract(c, 1, 0);
  Val<D> result = d.lit(32, 0);
  for (unsigned s = 4; s-- > 0;) {
    Val<D> v = d.concat(d.concat(byte_at(d.lit(64, t[s][0])), byte_at(d.lit(64, t[s][1]))),
                        d.concat(byte_at(d.lit(64, t[s][2])), byte_at(d.lit(64, t[s][3]))));
    result = s == 3 ? v : d.ite(d.eq(sel, d.lit(2, s)), v, result);
  }
  return result;
}

}  // namespace ptx::ops
