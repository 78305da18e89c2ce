// vmad (ISA 9.7.18.1.3): (a * b) + c on selected, extended parts, with the product or c negated, plus-one mode,
// scaling by .shr7 or .shr15, and saturation, as the section's pseudo-code writes it. Written once over a domain D.
#pragma once

#include "semantics/ops/video.hpp"

namespace ptx::ops {

struct VideoMad {
  bool a_signed = false, b_signed = false;
  bool negate_product = false;  // a.negate ^ b.negate
  bool negate_c = false;
  bool po = false;              // plus one
  unsigned shift = 0;           // .shr7, .shr15
  bool sat = false;
  VideoPart asel, bsel;
};

// The pseudo-code computes tmp in 128 bits. ta * tb of two .s33 values fits in 66 signed bits and tmp + c128 + lsb
// in 67, so kVideoWide (72) holds every value exactly; `(tmp >> 7) & 0xffffffffffffffff` keeps all of the shifted
// value, which the description says is "sign-extended if the final result is signed, and zero-extended otherwise"
// (read that way, the 64-bit mask cannot turn a negative result into a large positive one before CLAMP).
template <class D> Val<D> vmad(const D& d, const VideoMad& f, const Val<D>& a, const Val<D>& b, const Val<D>& c) {
  const unsigned w = kVideoWide;
  const Val<D> ta = part_select_sign_extend(d, a, f.a_signed, f.asel);
  const Val<D> tb = part_select_sign_extend(d, b, f.b_signed, f.bsel);
  const bool signed_final = f.a_signed || f.b_signed || f.negate_product || f.negate_c;
  Val<D> tmp = d.mul(ta, tb);
  Val<D> tc = c;
  unsigned lsb = 0;
  if (f.po) {
    lsb = 1;
  } else if (f.negate_product) {
    tmp = d.bnot(tmp);
    lsb = 1;
  } else if (f.negate_c) {
    tc = d.bnot(tc);
    lsb = 1;
  }
  const Val<D> c_wide = signed_final ? d.sext(tc, w) : d.zext(tc, w);  // "(signedFinal) sext32( c ) : zext ( c )"
  tmp = d.add(d.add(tmp, c_wide), d.lit(w, lsb));
  if (f.shift) tmp = signed_final ? d.ashr(tmp, d.lit(w, f.shift)) : d.lshr(tmp, d.lit(w, f.shift));
  if (f.sat) tmp = video_clamp(d, tmp, 32, signed_final);  // CLAMP(result, S32_MAX, S32_MIN) or the U32 range
  return d.extract(tmp, 31, 0);
}

}  // namespace ptx::ops
