// Scalar video instructions (ISA 9.7.18.1: vadd vsub vabsdiff vmin vmax vshl vshr) on full 32-bit words:
// inputs extended to 33 bits, a 34-bit intermediate, optional saturation to the destination type, optional
// secondary operation (.add/.min/.max) with c. Written once over a value domain D (computed in 64 bits).
#pragma once

#include "semantics/ops/integer.hpp"

namespace ptx::ops {

enum class VideoOp : std::uint8_t { add, sub, absdiff, min, max, shl, shr };
enum class VideoSecOp : std::uint8_t { none, add, min, max };

template <class D>
Val<D> video(const D& d, VideoOp op, bool d_signed, bool a_signed, bool b_signed, bool sat, bool clamp_mode, VideoSecOp sec,
             const Val<D>& a, const Val<D>& b, const Val<D>& c) {
  Val<D> ta = a_signed ? d.sext(a, 64) : d.zext(a, 64);
  Val<D> tb = b_signed ? d.sext(b, 64) : d.zext(b, 64);
  Val<D> tmp = ta;
  switch (op) {
    case VideoOp::add: tmp = d.add(ta, tb); break;
    case VideoOp::sub: tmp = d.sub(ta, tb); break;
    case VideoOp::absdiff: tmp = abs(d, d.sub(ta, tb)); break;
    case VideoOp::min: tmp = min(d, true, ta, tb); break;
    case VideoOp::max: tmp = max(d, true, ta, tb); break;
    case VideoOp::shl: case VideoOp::shr: {
      Val<D> n = d.zext(b, 64);  // "tb = partSelectSignExtend(b, .u32, bsel)"
      n = clamp_mode ? d.ite(d.ult(d.lit(64, 32), n), d.lit(64, 32), n) : d.band(n, d.lit(64, 31));
      tmp = op == VideoOp::shl ? d.shl(ta, n) : d.ashr(ta, n);  // ta is already sign/zero-extended
      break;
    }
  }
  if (sat) {
    Val<D> hi = d.lit(64, d_signed ? 0x7fffffffull : 0xffffffffull);
    Val<D> lo = d_signed ? d.lit(64, 0xffffffff80000000ull) : d.lit(64, 0);
    tmp = d.ite(d.slt(hi, tmp), hi, d.ite(d.slt(tmp, lo), lo, tmp));
  }
  Val<D> tc = d_signed ? d.sext(c, 64) : d.zext(c, 64);
  switch (sec) {
    case VideoSecOp::add: tmp = d.add(tmp, tc); break;
    case VideoSecOp::min: tmp = min(d, true, tmp, tc); break;
    case VideoSecOp::max: tmp = max(d, true, tmp, tc); break;
    case VideoSecOp::none: break;
  }
  return d.extract(tmp, 31, 0);
}

}  // namespace ptx::ops
