// Scalar video instructions (ISA 9.7.18.1: vadd vsub vabsdiff vmin vmax vshl vshr, and vset of 9.7.18.1.4) as the
// pseudo-code of 9.7.18.1 writes them: partSelectSignExtend of each source, the operation, optSaturate, then
// optSecondaryOp or optMerge with c. Written once over a value domain D.
#pragma once

#include "semantics/ops/compare.hpp"
#include "semantics/ops/integer.hpp"

#include <optional>

namespace ptx::ops {

// add..shr are the scalar operations (their order is the differential test's); set is vset, vset2 and vset4; avrg
// is vavrg2 and vavrg4 (9.7.18.2).
enum class VideoOp : std::uint8_t { add, sub, absdiff, min, max, shl, shr, set, avrg };
enum class VideoSecOp : std::uint8_t { none, add, min, max };

// One byte (.b0-.b3) or half-word (.h0, .h1) of a 32-bit operand, bits [lsb, lsb + bits); the whole word when the
// operand has no selector.
struct VideoPart {
  unsigned lsb = 0, bits = 32;
};

// The width every intermediate is computed in. 9.7.18.1 extends the inputs to .s33 and calls the result .s34, which
// holds for add, sub, absdiff, min and max; `tmp = ta << tb` with tb up to 32 needs 33 + 32 bits, and 72 holds
// that exactly, so optSaturate clamps the shifted value itself rather than a wrapped one.
inline constexpr unsigned kVideoWide = 72;

// partSelectSignExtend(x, type, sel): the selected part, sign- or zero-extended as the type says.
template <class D> Val<D> part_select_sign_extend(const D& d, const Val<D>& x, bool is_signed, VideoPart p) {
  const Val<D> part = d.extract(x, p.lsb + p.bits - 1, p.lsb);
  return is_signed ? d.sext(part, kVideoWide) : d.zext(part, kVideoWide);
}

// CLAMP(v, MAX, MIN) of the signed or unsigned `bits`-bit range, v read as a signed value of its own width.
template <class D> Val<D> video_clamp(const D& d, const Val<D>& v, unsigned bits, bool is_signed) {
  const unsigned w = d.width(v);
  const domain::u128 top = domain::u128(1) << (is_signed ? bits - 1 : bits);
  const Val<D> hi = d.lit(w, top - 1);
  const Val<D> lo = is_signed ? d.neg(d.lit(w, top)) : d.lit(w, 0);
  return d.ite(d.slt(hi, v), hi, d.ite(d.slt(v, lo), lo, v));
}

// optMerge: the low `p.bits` of r in place of that part of c. (The spec's .b0 mask 0xffffffff00 has a ninth digit;
// only the low 32 bits are written, where it is 0xffffff00.)
template <class D> Val<D> video_merge(const D& d, const Val<D>& r, const Val<D>& c, VideoPart p) {
  Val<D> out = d.extract(r, p.bits - 1, 0);
  if (p.lsb > 0) out = d.concat(out, d.extract(c, p.lsb - 1, 0));
  if (p.lsb + p.bits < 32) out = d.concat(d.extract(c, 31, p.lsb + p.bits), out);
  return out;
}

// One scalar video instruction's form, decoded from its qualifiers and selectors (video_form.hpp).
struct ScalarVideo {
  VideoOp op = VideoOp::add;
  bool d_signed = false, a_signed = false, b_signed = false;
  bool sat = false;
  bool clamp = false;             // vshl/vshr .clamp; .wrap otherwise
  ir::CompareOp cmp = ir::CompareOp::eq;  // vset
  VideoSecOp sec = VideoSecOp::none;
  VideoPart asel, bsel;
  std::optional<VideoPart> dsel;  // d.dsel: merge into c
};

// The primary operation on the extended inputs (9.7.18.1.1, 9.7.18.1.2, 9.7.18.1.4).
template <class D> Val<D> video_primary(const D& d, const ScalarVideo& f, const Val<D>& ta, const Val<D>& tb) {
  switch (f.op) {
    case VideoOp::add: return d.add(ta, tb);
    case VideoOp::sub: return d.sub(ta, tb);
    case VideoOp::absdiff: return abs(d, d.sub(ta, tb));
    case VideoOp::min: return min(d, true, ta, tb);
    case VideoOp::max: return max(d, true, ta, tb);
    case VideoOp::shl: case VideoOp::shr: {
      // "if ( mode == .clamp && tb > 32 ) tb = 32; if ( mode == .wrap ) tb = tb & 0x1f;"
      const Val<D> n = f.clamp ? d.ite(d.ult(d.lit(kVideoWide, 32), tb), d.lit(kVideoWide, 32), tb) : d.band(tb, d.lit(kVideoWide, 31));
      return f.op == VideoOp::shl ? d.shl(ta, n) : d.ashr(ta, n);  // ta carries its sign: >> fills with it
    }
    case VideoOp::set: return d.zext(compare_int(d, f.cmp, true, ta, tb), kVideoWide);  // "compare(ta, tb, cmp) ? 1 : 0"
    case VideoOp::avrg: break;  // SIMD only
  }
  return ta;
}

// vop.dtype.atype.btype{.sat}{.op2} d{.dsel}, a{.asel}, b{.bsel}{, c} (9.7.18.1); c is read only by .op2 and .dsel.
template <class D> Val<D> video(const D& d, const ScalarVideo& f, const Val<D>& a, const Val<D>& b, const Val<D>& c) {
  const bool shift = f.op == VideoOp::shl || f.op == VideoOp::shr;
  const Val<D> ta = part_select_sign_extend(d, a, f.a_signed, f.asel);
  const Val<D> tb = part_select_sign_extend(d, b, f.b_signed && !shift, f.bsel);  // shifts: "partSelectSignExtend(b, .u32, bsel)"
  Val<D> tmp = video_primary(d, f, ta, tb);
  // optSaturate: to dtype's range, or to the byte's or half-word's when merging into one.
  if (f.sat) tmp = video_clamp(d, tmp, f.dsel ? f.dsel->bits : 32, f.d_signed);
  const Val<D> tc = f.d_signed ? d.sext(c, kVideoWide) : d.zext(c, kVideoWide);  // "The sign of the third operand is based on dtype"
  switch (f.sec) {  // optSecondaryOp
    case VideoSecOp::add: tmp = d.add(tmp, tc); break;
    case VideoSecOp::min: tmp = min(d, true, tmp, tc); break;
    case VideoSecOp::max: tmp = max(d, true, tmp, tc); break;
    case VideoSecOp::none: break;
  }
  const Val<D> low = d.extract(tmp, 31, 0);  // "The lower 32-bits are then written to the destination operand."
  return f.dsel ? video_merge(d, low, c, *f.dsel) : low;
}

}  // namespace ptx::ops
