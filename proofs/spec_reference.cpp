// Line-by-line transcriptions of the ISA pseudo-code (ptx-isa-9.0.txt lines 4854-4867 bfe, 4912-4920 bfi,
// 9461-9468 shf, 10104-10160 prmt and its mode table,
// 10042-10066 shfl.sync). Loops over bit positions are unrolled per bit.
#include "proofs/spec_reference.hpp"

namespace ptxcheck::proofs::spec {
namespace {
// Bit `index` of `v` (index is a 32-bit term known to be < width): ((v >> index) & 1) as a 1-bit term.
z3::expr bit_at(const z3::expr& v, const z3::expr& index) {
  const unsigned w = v.get_sort().bv_size();
  z3::expr idx = w == 32 ? index : z3::zext(index, w - 32);
  return z3::lshr(v, idx).extract(0, 0);
}
}  // namespace

z3::expr bfe(const z3::expr& a, const z3::expr& b, const z3::expr& c, bool is_signed) {
  auto& ctx = a.ctx();
  const unsigned w = a.get_sort().bv_size();
  const unsigned msb = w - 1;
  z3::expr pos = b & ctx.bv_val(0xff, 32);
  z3::expr len = c & ctx.bv_val(0xff, 32);
  z3::expr msb_v = ctx.bv_val(msb, 32);
  z3::expr sbit = ctx.bv_val(0, 1);
  if (is_signed) {
    z3::expr top = pos + len - ctx.bv_val(1, 32);
    z3::expr idx = z3::ite(z3::ule(top, msb_v), top, msb_v);  // min(pos+len-1, msb)
    sbit = z3::ite(len == ctx.bv_val(0, 32), ctx.bv_val(0, 1), bit_at(a, idx));
  }
  z3::expr_vector bits(ctx);
  for (unsigned i = msb + 1; i-- > 0;) {  // concat takes the msb first
    z3::expr iv = ctx.bv_val(i, 32);
    z3::expr in_field = z3::ult(iv, len) && z3::ule(pos + iv, msb_v);
    bits.push_back(z3::ite(in_field, bit_at(a, z3::ite(in_field, pos + iv, ctx.bv_val(0, 32))), sbit));
  }
  return z3::concat(bits);
}

z3::expr bfi(const z3::expr& a, const z3::expr& b, const z3::expr& c, const z3::expr& d) {
  auto& ctx = a.ctx();
  const unsigned w = a.get_sort().bv_size();
  z3::expr pos = c & ctx.bv_val(0xff, 32);
  z3::expr len = d & ctx.bv_val(0xff, 32);
  z3::expr msb_v = ctx.bv_val(w - 1, 32);
  z3::expr_vector bits(ctx);
  for (unsigned j = w; j-- > 0;) {
    // f[pos+i] = a[i] for i < len and pos+i <= msb: bit j is written when j = pos+i for such an i.
    z3::expr jv = ctx.bv_val(j, 32);
    z3::expr written = z3::uge(jv, pos) && z3::ult(jv - pos, len) && z3::ule(jv, msb_v);
    bits.push_back(z3::ite(written, bit_at(a, z3::ite(written, jv - pos, ctx.bv_val(0, 32))), b.extract(j, j)));
  }
  return z3::concat(bits);
}

z3::expr shf(const z3::expr& a, const z3::expr& b, const z3::expr& c, bool left, bool clamp) {
  auto& ctx = a.ctx();
  z3::expr k32 = ctx.bv_val(32, 32);
  z3::expr n = clamp ? z3::ite(z3::ult(c, k32), c, k32) : (c & ctx.bv_val(0x1f, 32));
  // C-like shifts by 32 are read as PTX shl/shr (ISA 9.7.8.8-9): amounts >= width give 0.
  if (left) return z3::shl(b, n) | z3::lshr(a, k32 - n);
  return z3::shl(b, k32 - n) | z3::lshr(a, n);
}

z3::expr prmt(const z3::expr& a, const z3::expr& b, const z3::expr& c, int mode) {
  auto& ctx = a.ctx();
  z3::expr tmp64 = z3::concat(b, a);  // tmp64 = (b<<32) | a
  auto byte = [&](unsigned k) { return tmp64.extract(8 * k + 7, 8 * k); };
  // ReadByte for a 3-bit index held in a term: the byte at that position.
  auto read = [&](const z3::expr& idx3) {
    z3::expr r = byte(7);
    for (unsigned k = 7; k-- > 0;) r = z3::ite(idx3 == ctx.bv_val(k, 3), byte(k), r);
    return r;
  };
  z3::expr_vector out(ctx);
  if (mode == 0) {
    for (int k = 3; k >= 0; --k) {
      z3::expr ctl = z3::lshr(c, ctx.bv_val(4 * k, 32)).extract(3, 0);
      z3::expr v = read(ctl.extract(2, 0));
      // msb of the selector set: replicate the byte's sign over all 8 bits.
      z3::expr sign = z3::ite(v.extract(7, 7) == ctx.bv_val(1, 1), ctx.bv_val(0xff, 8), ctx.bv_val(0, 8));
      out.push_back(z3::ite(ctl.extract(3, 3) == ctx.bv_val(1, 1), sign, v));
    }
    return z3::concat(out);
  }
  // The mode table: for selector c[1:0] = 0..3, the source byte of d.b3, d.b2, d.b1, d.b0.
  static const int table[6][4][4] = {
      {{3, 2, 1, 0}, {4, 3, 2, 1}, {5, 4, 3, 2}, {6, 5, 4, 3}},  // f4e
      {{5, 6, 7, 0}, {6, 7, 0, 1}, {7, 0, 1, 2}, {0, 1, 2, 3}},  // b4e
      {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},  // rc8
      {{3, 2, 1, 0}, {3, 2, 1, 1}, {3, 2, 2, 2}, {3, 3, 3, 3}},  // ecl
      {{0, 0, 0, 0}, {1, 1, 1, 0}, {2, 2, 1, 0}, {3, 2, 1, 0}},  // ecr
      {{1, 0, 1, 0}, {3, 2, 3, 2}, {1, 0, 1, 0}, {3, 2, 3, 2}},  // rc16
  };
  z3::expr sel = c.extract(1, 0);
  for (int pos = 0; pos < 4; ++pos) {  // pos 0 = d.b3
    z3::expr v = byte(static_cast<unsigned>(table[mode - 1][3][pos]));
    for (int s = 2; s >= 0; --s) v = z3::ite(sel == ctx.bv_val(s, 2), byte(static_cast<unsigned>(table[mode - 1][s][pos])), v);
    out.push_back(v);
  }
  return z3::concat(out);
}

ShflSource shfl_sync(const z3::expr& lane, const z3::expr& b, const z3::expr& c, int mode) {
  z3::context& ctx = lane.ctx();
  auto num = [](const z3::expr& bits) { return z3::bv2int(bits, false); };
  const z3::expr bval = b.extract(4, 0), cval = c.extract(4, 0), segmask = c.extract(12, 8);
  const z3::expr maxLane = num((lane & segmask) | (cval & ~segmask));
  const z3::expr minLane = lane & segmask;
  z3::expr j = ctx.int_val(0), pval = ctx.bool_val(false);
  switch (mode) {
    case 0: j = num(lane) - num(bval); pval = j >= maxLane; break;  // .up
    case 1: j = num(lane) + num(bval); pval = j <= maxLane; break;  // .down
    case 2: j = num(lane ^ bval); pval = j <= maxLane; break;       // .bfly
    default: j = num(minLane | (bval & ~segmask)); pval = j <= maxLane; break;  // .idx
  }
  return {z3::ite(pval, j, num(lane)), pval};  // if (!pval) j = lane
}

}  // namespace ptxcheck::proofs::spec
