// SIMD video instructions (ISA 9.7.18.2: vadd2 vsub2 vavrg2 vabsdiff2 vmin2 vmax2 vset2 and their quad-byte x4
// forms) as the sections' pseudo-code writes them: extractAndSignExt of selected lanes of {b, a}, the operation per
// lane, optional clamp to the lane's range, then the SIMD merge with c under the mask or the .add accumulate into c.
// Written once over a value domain D.
#pragma once

#include "semantics/ops/video.hpp"

#include <array>

namespace ptx::ops {

struct SimdVideo {
  VideoOp op = VideoOp::add;  // add sub absdiff min max avrg set
  unsigned lanes = 2;         // 2: half-words (vop2), 4: bytes (vop4)
  bool d_signed = false, a_signed = false, b_signed = false;
  bool sat = false;
  bool accumulate = false;    // .add
  ir::CompareOp cmp = ir::CompareOp::eq;  // vset2, vset4
  // Lane i of Va (Vb) is lane asel[i] (bsel[i]) of the 64 bits {b, a}: a's lanes are 0..lanes-1, b's the next ones
  // (.asel defaults to .h10 / .b3210, .bsel to .h32 / .b7654: simd_video_form sets them).
  std::array<std::uint8_t, 4> asel{}, bsel{};
  unsigned mask = 0xf;        // bit i: lane i of d is a result (.h10 / .b3210 by default)
};

// The lanes' values are .s33 inputs (9.7.18.2: "extracted and sign- or zero-extended internally to .s33 values").
inline constexpr unsigned kSimdWide = 33;

// t[i] for one lane (9.7.18.2.1-4 Semantics).
template <class D> Val<D> simd_lane_op(const D& d, const SimdVideo& f, const Val<D>& va, const Val<D>& vb) {
  switch (f.op) {
    case VideoOp::add: return d.add(va, vb);
    case VideoOp::sub: return d.sub(va, vb);
    case VideoOp::absdiff: return abs(d, d.sub(va, vb));
    case VideoOp::min: return min(d, true, va, vb);
    case VideoOp::max: return max(d, true, va, vb);
    case VideoOp::avrg: {  // "if ((Va[i] + Vb[i]) >= 0) t = (Va + Vb + 1) >> 1; else t = (Va + Vb) >> 1"
      const Val<D> s = d.add(va, vb), one = d.lit(kSimdWide, 1);
      return d.ite(d.slt(s, d.lit(kSimdWide, 0)), d.ashr(s, one), d.ashr(d.add(s, one), one));
    }
    case VideoOp::set: return d.zext(compare_int(d, f.cmp, true, va, vb), kSimdWide);  // "compare(...) ? 1 : 0"
    default: return va;  // no SIMD shifts
  }
}

// vop2/vop4.dtype.atype.btype{.sat}{.add} d{.mask}, a{.asel}, b{.bsel}, c (vset2/vset4: .atype.btype.cmp).
template <class D> Val<D> video_simd(const D& d, const SimdVideo& f, const Val<D>& a, const Val<D>& b, const Val<D>& c) {
  const unsigned lw = 32 / f.lanes;
  const Val<D> ba = d.concat(b, a);
  auto lane = [&](const Val<D>& x, unsigned k) { return d.extract(x, k * lw + lw - 1, k * lw); };
  auto extend = [&](const Val<D>& x, bool s) { return s ? d.sext(x, kSimdWide) : d.zext(x, kSimdWide); };
  Val<D> sum = c;           // .add: "d = c; d += mask[i] ? t[i] : 0"
  // merge: "d |= mask[i] ? t[i] : Vc[i]", each in its lane. (The prose of vset2/vset4 says the other lanes come
  // from b; their pseudo-code, like every other SIMD form's, takes c, and that is what is computed here.)
  Val<D> merged = c;
  for (unsigned i = 0; i < f.lanes; ++i) {
    Val<D> t = simd_lane_op(d, f, extend(lane(ba, f.asel[i]), f.a_signed), extend(lane(ba, f.bsel[i]), f.b_signed));
    if (f.sat) t = video_clamp(d, t, lw, f.d_signed);  // S16/U16 (x2) or S8/U8 (x4) by dtype
    if (!((f.mask >> i) & 1)) continue;
    if (f.accumulate) sum = d.add(sum, d.extract(t, 31, 0));  // t[i] as a signed value: its low 32 bits
    else merged = video_merge(d, t, merged, VideoPart{i * lw, lw});
  }
  return f.accumulate ? sum : merged;
}

}  // namespace ptx::ops
