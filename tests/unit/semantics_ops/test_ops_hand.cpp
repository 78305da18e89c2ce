// Instruction semantics on hand-computed values and values quoted from the ISA text (one check per rule),
// run through the concrete domain and, for the same inputs, through Z3's evaluation of the symbolic term.
#include "semantics/domain/concrete.hpp"
#include "semantics/domain/symbolic.hpp"
#include "semantics/ops/compare.hpp"
#include "semantics/ops/convert.hpp"
#include "semantics/ops/logic.hpp"
#include "semantics/ops/minifloat.hpp"

#include <doctest/doctest.h>

#include <cmath>

using namespace ptx;
using domain::Concrete;
using domain::CV;
using domain::FpFormat;
using domain::Rnd;

namespace {
CV u32(std::uint32_t x) { return Concrete::lit(32, x); }
CV u64(std::uint64_t x) { return Concrete::lit(64, x); }
std::uint32_t f(float x) { return domain::f32_to_bits(x); }
}  // namespace

TEST_CASE("integer: add/sub/mul wrap, mul.hi/wide, mul24") {
  Concrete d;
  CHECK(ops::add(d, u32(0xffffffffu), u32(2)).v == 1);
  CHECK(ops::sub(d, u32(1), u32(2)).v == 0xffffffffu);
  CHECK(ops::mul_hi(d, false, u32(0x80000000u), u32(4)).v == 2);
  CHECK(ops::mul_hi(d, true, u32(0x80000000u), u32(4)).v == 0xfffffffeu);  // -2^31*4 = -2^33
  CHECK(ops::mul_wide(d, true, u32(0xffffffffu), u32(0xffffffffu)).v == 1);
  CHECK(ops::mul_wide(d, false, u32(0xffffffffu), u32(0xffffffffu)).v == 0xfffffffe00000001ull);
  // mul24.hi: bits 47..16 of the 48-bit product. 0xffffff * 0xffffff = 0xfffffe000001.
  CHECK(ops::mul24(d, false, true, u32(0xffffff), u32(0xffffff)).v == 0xfffffe00u);
  CHECK(ops::mul24(d, false, false, u32(0xffffff), u32(0xffffff)).v == 0xfe000001u);
  CHECK(ops::add_sat_s(d, u32(0x7fffffff), u32(1)).v == 0x7fffffffu);
  CHECK(ops::add_sat_s(d, u32(0x80000000u), u32(0xffffffffu)).v == 0x80000000u);
  CHECK(ops::sad(d, true, u32(0xfffffffeu), u32(3), u32(10)).v == 15);
}

TEST_CASE("integer: carry chain (ISA 9.7.2): 128-bit add and subtract") {
  Concrete d;
  auto s0 = ops::add_carry(d, u32(0xffffffffu), u32(1), d.lit(1, 0));
  CHECK(s0.value.v == 0);
  CHECK(s0.carry.v == 1);
  auto s1 = ops::add_carry(d, u32(5), u32(6), s0.carry);
  CHECK(s1.value.v == 12);
  // sub.cc is a + ~b + 1 with the carry kept (nv50 3.1): 0 - 1 borrows, so CC.CF = 0.
  auto b0 = ops::sub_carry(d, u32(0), u32(1), d.lit(1, 1));
  CHECK(b0.value.v == 0xffffffffu);
  CHECK(b0.carry.v == 0);
  auto b1 = ops::sub_carry(d, u32(5), u32(1), b0.carry);  // subc: 5 - 1 - borrow = 3, no borrow out
  CHECK(b1.value.v == 3);
  CHECK(b1.carry.v == 1);
  // The ISA's borrow view of the same operation: 0 - 1 borrows.
  auto b2 = ops::sub_borrow(d, u32(0), u32(1), d.lit(1, 0));
  CHECK(b2.value.v == 0xffffffffu);
  CHECK(b2.carry.v == 1);
}

TEST_CASE("integer: bit operations against the ISA's pseudo-code") {
  Concrete d;
  CHECK(ops::popc(d, u32(0xf0f0f0f1u)).v == 17);
  CHECK(ops::popc(d, u64(~0ull)).v == 64);
  CHECK(ops::clz(d, u32(0)).v == 32);
  CHECK(ops::clz(d, u32(1)).v == 31);
  CHECK(ops::clz(d, u64(1ull << 40)).v == 23);
  CHECK(ops::bfind(d, false, false, u32(0)).v == 0xffffffffu);
  CHECK(ops::bfind(d, false, false, u32(0x10)).v == 4);
  CHECK(ops::bfind(d, false, true, u32(0x10)).v == 27);
  CHECK(ops::bfind(d, true, false, u32(0xffffffffu)).v == 0xffffffffu);  // -1: no non-sign bit
  CHECK(ops::bfind(d, true, false, u32(0xfffffff0u)).v == 3);
  CHECK(ops::brev(d, u32(1)).v == 0x80000000u);
  // bfe.s32 of 0x000000f0 at 4, len 4 -> field 0xf, sign bit 1 -> -1.
  CHECK(ops::bfe(d, true, u32(0xf0), u32(4), u32(4)).v == 0xffffffffu);
  CHECK(ops::bfe(d, false, u32(0xf0), u32(4), u32(4)).v == 0xf);
  CHECK(ops::bfe(d, false, u32(0xf0), u32(4), u32(0)).v == 0);
  CHECK(ops::bfe(d, true, u32(0x80000000u), u32(40), u32(4)).v == 0xffffffffu);  // beyond msb: sign replicated
  CHECK(ops::bfi(d, u32(0xab), u32(0xffffffffu), u32(8), u32(8)).v == 0xffffabffu);
  CHECK(ops::bfi(d, u32(0xab), u32(0x12345678u), u32(40), u32(8)).v == 0x12345678u);
  CHECK(ops::shf(d, true, true, u32(0x80000000u), u32(1), u32(1)).v == 3);   // {b,a}<<1, top word
  CHECK(ops::shf(d, false, true, u32(0), u32(1), u32(40)).v == 1);            // clamp to 32: d = b
  CHECK(ops::shf(d, false, false, u32(0), u32(1), u32(33)).v == 0x80000000u); // wrap: 33 & 31 = 1
  CHECK(ops::prmt(d, ops::PrmtMode::generic, u32(0x44332211u), u32(0x88776655u), u32(0x3210)).v == 0x44332211u);
  CHECK(ops::prmt(d, ops::PrmtMode::generic, u32(0x44332211u), u32(0x88776655u), u32(0x7654)).v == 0x88776655u);
  CHECK(ops::prmt(d, ops::PrmtMode::generic, u32(0x44332211u), u32(0x88776655u), u32(0x0008)).v == 0x11111100u);
  CHECK(ops::prmt(d, ops::PrmtMode::generic, u32(0x44332211u), u32(0x88776655u), u32(0x000f)).v == 0x111111ffu);
  CHECK(ops::prmt(d, ops::PrmtMode::rc8, u32(0x44332211u), u32(0), u32(1)).v == 0x22222222u);
  CHECK(ops::lop3(d, u32(0xf0f0f0f0u), u32(0xccccccccu), u32(0xaaaaaaaau), 0x80).v == 0x80808080u);  // a&b&c
  CHECK(ops::shl(d, u32(1), u32(32)).v == 0);
  CHECK(ops::shr(d, true, u32(0x80000000u), u32(100)).v == 0xffffffffu);
  CHECK(ops::bmsk(d, false, u32(4), u32(8)).v == 0xff0u);
  CHECK(ops::dp4a(d, true, true, u32(0xff020304u), u32(0x01010101u), u32(10)).v == 10 + 4 + 3 + 2 - 1);
}

TEST_CASE("integer: fns finds the n-th set bit as 9.7.1.17's loop does") {
  Concrete d;
  const CV mask = u32(0xB4);  // bits 2, 4, 5, 7
  auto fns = [&](std::uint32_t base, std::int32_t offset) {
    return ops::fns(d, mask, u32(base), u32(static_cast<std::uint32_t>(offset))).v;
  };
  CHECK(fns(0, 1) == 2);  // upward from bit 0: the first set bit
  CHECK(fns(0, 2) == 4);
  CHECK(fns(0, 4) == 7);
  CHECK(fns(0, 5) == 0xffffffffu);  // only four set bits
  CHECK(fns(3, 1) == 4);
  CHECK(fns(5, -1) == 5);  // downward from bit 5: bit 5 itself is the first
  CHECK(fns(5, -3) == 2);
  CHECK(fns(5, -4) == 0xffffffffu);
  CHECK(fns(4, 0) == 4);  // offset 0: base when mask[base] is set
  CHECK(fns(3, 0) == 0xffffffffu);
  CHECK(fns(31, 1) == 0xffffffffu);
}

TEST_CASE("compare and select") {
  Concrete d;
  CHECK(ops::compare_int(d, ops::CompareOp::lt, true, u32(0xffffffffu), u32(0)).v == 1);
  CHECK(ops::compare_int(d, ops::CompareOp::lt, false, u32(0xffffffffu), u32(0)).v == 0);
  CHECK(ops::compare_int(d, ops::CompareOp::hs, true, u32(0xffffffffu), u32(0)).v == 1);
  CV nan = u32(0x7fc00000u);
  CHECK(ops::compare_float(d, FpFormat::f32, ops::CompareOp::ne, nan, u32(f(1.0f))).v == 0);
  CHECK(ops::compare_float(d, FpFormat::f32, ops::CompareOp::neu, nan, u32(f(1.0f))).v == 1);
  CHECK(ops::compare_float(d, FpFormat::f32, ops::CompareOp::eq, u32(0x80000000u), u32(0)).v == 1);
  CHECK(ops::selp(d, u32(1), u32(2), d.lit(1, 0)).v == 2);
}

TEST_CASE("float: rounding modes, ftz, sat, NaN (ISA 9.7.3)") {
  Concrete d;
  ops::FpMods rn, rz{Rnd::rz}, rm{Rnd::rm}, rp{Rnd::rp};
  // 1 + 2^-24 is a tie between 1 and 1+2^-23: rn -> 1 (even), rp -> 1+2^-23.
  CV one = u32(f(1.0f)), tiny = u32(f(0x1p-24f));
  CHECK(ops::fadd(d, FpFormat::f32, rn, one, tiny).v == f(1.0f));
  CHECK(ops::fadd(d, FpFormat::f32, rp, one, tiny).v == f(1.0f + 0x1p-23f));
  CHECK(ops::fadd(d, FpFormat::f32, rz, one, tiny).v == f(1.0f));
  CHECK(ops::fsub(d, FpFormat::f32, rm, one, one).v == 0x80000000u);  // x - x = -0 toward -inf
  CHECK(ops::fsub(d, FpFormat::f32, rn, one, one).v == 0);
  CHECK(ops::fadd(d, FpFormat::f32, rz, u32(f(3.0e38f)), u32(f(3.0e38f))).v == 0x7f7fffffu);  // rz: max finite
  CHECK(ops::fadd(d, FpFormat::f32, rn, u32(f(3.0e38f)), u32(f(3.0e38f))).v == 0x7f800000u);
  // NaN results are the canonical 0x7fffffff for f32.
  CHECK(ops::fadd(d, FpFormat::f32, rn, u32(0x7f800000u), u32(0xff800000u)).v == 0x7fffffffu);
  CHECK(ops::fmul(d, FpFormat::f32, rn, u32(0x7fc00001u), one).v == 0x7fffffffu);
  // f64 keeps the payload of a NaN input (made quiet).
  CHECK(ops::fadd(d, FpFormat::f64, rn, u64(0x7ff0000000000001ull), u64(0)).v == 0x7ff8000000000001ull);
  // .ftz: subnormal input 2^-140 flushed, so 2^-140 + 0 = +0.
  ops::FpMods ftz;
  ftz.ftz = true;
  CHECK(ops::fadd(d, FpFormat::f32, ftz, u32(f(0x1p-140f)), u32(0)).v == 0);
  CHECK(ops::fadd(d, FpFormat::f32, rn, u32(f(0x1p-140f)), u32(0)).v == f(0x1p-140f));
  ops::FpMods sat;
  sat.sat = true;
  CHECK(ops::fadd(d, FpFormat::f32, sat, u32(f(0.75f)), u32(f(0.75f))).v == f(1.0f));
  CHECK(ops::fadd(d, FpFormat::f32, sat, u32(f(-0.75f)), u32(f(0.25f))).v == 0);
  CHECK(ops::fadd(d, FpFormat::f32, sat, u32(0x7fc00000u), u32(0)).v == 0);
  // f16: 1 + 2^-11 ties to 1; 65504 + 8 rounds back to 65504; 65504 + 16 = 65520 is the tie with 2^16 and
  // rounds to the even significand, i.e. overflows to +inf (IEEE 754 7.4).
  CHECK(ops::fadd(d, FpFormat::f16, rn, d.lit(16, 0x3c00), d.lit(16, 0x1000)).v == 0x3c00);
  CHECK(ops::fadd(d, FpFormat::f16, rn, d.lit(16, 0x7bff), d.lit(16, 0x4800)).v == 0x7bff);
  CHECK(ops::fadd(d, FpFormat::f16, rn, d.lit(16, 0x7bff), d.lit(16, 0x4c00)).v == 0x7c00);
  CHECK(ops::fadd(d, FpFormat::f16, rp, d.lit(16, 0x7bff), d.lit(16, 0x3c00)).v == 0x7c00);
  // bf16 rounding of 1 + 2^-8 (tie) -> 1.0 = 0x3f80.
  CHECK(ops::fadd(d, FpFormat::bf16, rn, d.lit(16, 0x3f80), d.lit(16, 0x3b80)).v == 0x3f80);
  // min/max: NaN operand ignored; -0 < +0.
  CHECK(ops::fminmax(d, FpFormat::f32, false, {}, u32(0x7fc00000u), one).v == f(1.0f));
  CHECK(ops::fminmax(d, FpFormat::f32, false, {}, u32(0), u32(0x80000000u)).v == 0x80000000u);
  CHECK(ops::fminmax(d, FpFormat::f32, true, {}, u32(0x80000000u), u32(0)).v == 0);
}

TEST_CASE("convert (ISA 9.7.9.21)") {
  Concrete d;
  ops::FpMods rni{Rnd::rn}, rzi{Rnd::rz}, rmi{Rnd::rm}, rpi{Rnd::rp};
  CHECK(ops::cvt_f2i(d, FpFormat::f32, 32, true, rni, u32(f(2.5f))).v == 2);
  CHECK(ops::cvt_f2i(d, FpFormat::f32, 32, true, rni, u32(f(3.5f))).v == 4);
  CHECK(ops::cvt_f2i(d, FpFormat::f32, 32, true, rmi, u32(f(-2.5f))).v == 0xfffffffdu);
  CHECK(ops::cvt_f2i(d, FpFormat::f32, 32, true, rpi, u32(f(-2.5f))).v == 0xfffffffeu);
  CHECK(ops::cvt_f2i(d, FpFormat::f32, 32, true, rzi, u32(f(1e10f))).v == 0x7fffffffu);
  CHECK(ops::cvt_f2i(d, FpFormat::f32, 32, false, rzi, u32(f(-5.0f))).v == 0);
  CHECK(ops::cvt_f2i(d, FpFormat::f32, 16, false, rzi, u32(0x7fc00000u)).v == 0);
  CHECK(ops::cvt_i2f(d, FpFormat::f32, false, rzi, u32(0xffffffffu)).v == f(4294967040.0f));
  CHECK(ops::cvt_i2f(d, FpFormat::f32, false, rni, u32(0xffffffffu)).v == f(4294967296.0f));
  CHECK(ops::cvt_f2f(d, FpFormat::f32, FpFormat::f16, rni, u32(f(65520.0f))).v == 0x7c00);  // rounds up to inf
  CHECK(ops::cvt_f2f(d, FpFormat::f32, FpFormat::f16, rzi, u32(f(65520.0f))).v == 0x7bff);
  CHECK(ops::cvt_f2f(d, FpFormat::f32, FpFormat::bf16, rni, u32(0x3f808000u)).v == 0x3f80);  // tie to even
  CHECK(ops::cvt_f2f(d, FpFormat::f32, FpFormat::bf16, rni, u32(0x3f818000u)).v == 0x3f82);
  CHECK(ops::cvt_f2f(d, FpFormat::f32, FpFormat::f16, rni, u32(f(0x1p-25f))).v == 0);      // tie to even 0
  CHECK(ops::cvt_f2f(d, FpFormat::f32, FpFormat::f16, rni, u32(f(0x1.8p-25f))).v == 1);
  CHECK(ops::cvt_fround(d, FpFormat::f32, rni, u32(f(-0.5f))).v == 0x80000000u);
  CHECK(ops::cvt_int(d, 8, false, true, true, u32(0xffffff00u)).v == 0);     // .sat u8 of -256
  CHECK(ops::cvt_int(d, 8, true, false, true, u32(200)).v == 127);
  CHECK(ops::cvt_int(d, 64, true, true, false, u32(0x80000000u)).v == 0xffffffff80000000ull);
}

TEST_CASE("cvt f16 from e4m3/e5m2: every byte against its value (ISA 5.2.5 formats)") {
  Concrete d;
  for (unsigned b = 0; b < 256; ++b) {
    // e4m3: bias 7, 3 mantissa bits, S.1111.111 is NaN, no infinities.
    unsigned e = (b >> 3) & 15, m = b & 7;
    double v = e == 0 ? std::ldexp(m, -9) : std::ldexp(8 + m, static_cast<int>(e) - 10);
    if (b & 0x80) v = -v;
    CV h = ops::e4m3_to_f16(d, d.lit(8, b));
    if (e == 15 && m == 7) CHECK(h.v == 0x7fff);
    else CHECK(domain::fp_to_double(FpFormat::f16, h.u64()) == v);
    // e5m2 is f16's top byte.
    CV g = ops::e5m2_to_f16(d, d.lit(8, b));
    double w = domain::fp_to_double(FpFormat::f16, b << 8);
    if (w != w) CHECK(g.v == 0x7fff);
    else CHECK(g.v == (b << 8));
  }
}

TEST_CASE("cvt.rs (ISA 9.7.9.21, 6.5.2): carry out of random bits + discarded bits rounds away from zero") {
  Concrete d;
  auto rs = [&](const ops::MiniFormat& f, bool relu, bool satfinite, std::uint32_t a, unsigned width, std::uint32_t r) {
    return static_cast<unsigned>(ops::f32_to_mini_rs(d, f, relu, satfinite, u32(a), Concrete::lit(width, r)).v);
  };
  // e4m3 (bias 7, 3 mantissa bits): 1.0625 = 1 + half a quantum (2^-3). 20 mantissa bits are discarded, the top one
  // set (0x80000); the 16 random bits add to its top 16 (0x8000): a carry iff rbits >= 0x8000. 1.0 = 0x38,
  // 1.125 = 0x39; the sign rides along (0xb9); an exact 1.0 never carries; .relu: negative -> 0.
  CHECK(rs(ops::kE4M3, false, true, 0x3F880000u, 16, 0x7fff) == 0x38);
  CHECK(rs(ops::kE4M3, false, true, 0x3F880000u, 16, 0x8000) == 0x39);
  CHECK(rs(ops::kE4M3, false, true, 0xBF880000u, 16, 0x8000) == 0xb9);
  CHECK(rs(ops::kE4M3, false, true, 0x3F800000u, 16, 0xffff) == 0x38);
  CHECK(rs(ops::kE4M3, true, true, 0xBF880000u, 16, 0x8000) == 0x00);
  // .satfinite: 460 lies between MAX_NORM 448 and 480: both directions give 0x7e; +-inf -> +-MAX_NORM; NaN -> 0x7f.
  CHECK(rs(ops::kE4M3, false, true, 0x43E60000u, 16, 0xffff) == 0x7e);
  CHECK(rs(ops::kE4M3, false, true, 0x43E60000u, 16, 0) == 0x7e);
  CHECK(rs(ops::kE4M3, false, true, 0xFF800000u, 16, 0) == 0xfe);
  CHECK(rs(ops::kE4M3, false, true, 0x7FC00000u, 16, 0) == 0x7f);
  // 2^-10 is half the least subnormal 2^-9: 24 discarded bits, value 2^23; their top 16 bits are 0x8000.
  CHECK(rs(ops::kE4M3, false, true, 0x3A800000u, 16, 0x7fff) == 0x00);
  CHECK(rs(ops::kE4M3, false, true, 0x3A800000u, 16, 0x8000) == 0x01);
  // e2m1 (8 random bits): 2.5 = 2 + half a quantum (1): top 8 discarded bits 0x80, carry iff rbits >= 0x80 -> 3.0
  // = 0x5, else 2.0 = 0x4. 5.0 = 4 + half a quantum (2): 6.0 = 0x7 or 4.0 = 0x6. 7 > MAX 6: 0x7 either way, -7 ->
  // 0xf; NaN -> +MAX_NORM 0x7 (no NaN in e2m1).
  CHECK(rs(ops::kE2M1, false, true, 0x40200000u, 8, 0x80) == 0x5);
  CHECK(rs(ops::kE2M1, false, true, 0x40200000u, 8, 0x7f) == 0x4);
  CHECK(rs(ops::kE2M1, false, true, 0x40A00000u, 8, 0x80) == 0x7);
  CHECK(rs(ops::kE2M1, false, true, 0x40A00000u, 8, 0x7f) == 0x6);
  CHECK(rs(ops::kE2M1, false, true, 0x40E00000u, 8, 0) == 0x7);
  CHECK(rs(ops::kE2M1, false, true, 0xC0E00000u, 8, 0xff) == 0xf);
  CHECK(rs(ops::kE2M1, false, true, 0x7FC00000u, 8, 0) == 0x7);
  // f16 (13 random bits = the 13 discarded bits): 1 + 2^-11 is half a quantum (2^-10) above 1.0 (0x3c00).
  CHECK(rs(ops::kF16, false, false, 0x3F801000u, 13, 0x0fff) == 0x3c00);
  CHECK(rs(ops::kF16, false, false, 0x3F801000u, 13, 0x1000) == 0x3c01);
  // 65520 = MAX_NORM 65504 + half a quantum (32): away -> inf 0x7c00 without .satfinite, MAX_NORM with it; toward
  // zero -> 0x7bff. 1e5 (beyond f16's range, discarded bits 0x1000): toward zero is MAX_NORM (0x1000 + 0 carries
  // nothing), away (0x1000 + 0x1fff carries) is inf. inf stays inf without .satfinite; .satfinite: +-MAX_NORM.
  CHECK(rs(ops::kF16, false, false, 0x477FF000u, 13, 0x1000) == 0x7c00);
  CHECK(rs(ops::kF16, false, true, 0x477FF000u, 13, 0x1000) == 0x7bff);
  CHECK(rs(ops::kF16, false, false, 0x477FF000u, 13, 0x0fff) == 0x7bff);
  CHECK(rs(ops::kF16, false, false, 0x47C35000u, 13, 0) == 0x7bff);
  CHECK(rs(ops::kF16, false, false, 0x47C35000u, 13, 0x1fff) == 0x7c00);
  CHECK(rs(ops::kF16, false, false, 0x7F800000u, 13, 0) == 0x7c00);
  CHECK(rs(ops::kF16, false, true, 0xFF800000u, 13, 0) == 0xfbff);
  CHECK(rs(ops::kF16, false, true, 0x7FC00000u, 13, 0) == 0x7fff);
  CHECK(rs(ops::kF16, true, false, 0xFFC00000u, 13, 0) == 0x7fff);  // .relu: NaN -> canonical NaN
  // 2^-25 is half f16's least subnormal 2^-24: 24 discarded bits (2^23), top 13 = 0x1000.
  CHECK(rs(ops::kF16, false, false, 0x33000000u, 13, 0x1000) == 0x0001);
  CHECK(rs(ops::kF16, false, false, 0x33000000u, 13, 0x0fff) == 0x0000);
  // bf16 (16 random bits = the 16 discarded bits): 1 + 2^-8 is half a quantum above 1.0 (0x3f80). The f32 subnormal
  // 0x00008000 = 2^-134 is half bf16's least subnormal 2^-133 (0x0001); 0x00010000 = 2^-133 is exact.
  CHECK(rs(ops::kBF16, false, false, 0x3F808000u, 16, 0x7fff) == 0x3f80);
  CHECK(rs(ops::kBF16, false, false, 0x3F808000u, 16, 0x8000) == 0x3f81);
  CHECK(rs(ops::kBF16, false, false, 0x00008000u, 16, 0x8000) == 0x0001);
  CHECK(rs(ops::kBF16, false, false, 0x00008000u, 16, 0x7fff) == 0x0000);
  CHECK(rs(ops::kBF16, false, false, 0x00010000u, 16, 0xffff) == 0x0001);
  CHECK(rs(ops::kBF16, false, true, 0xFF800000u, 16, 0) == 0xff7f);
}

TEST_CASE("cvt to .tf32 (ISA 9.7.9.21): .rna, .rn, .rz; .satfinite, .relu, NaN; 10 mantissa bits in a .b32") {
  Concrete d;
  auto tf = [&](Rnd r, bool relu, bool satfinite, std::uint32_t a) {
    return static_cast<std::uint32_t>(ops::f32_to_tf32(d, r, relu, satfinite, u32(a)).v);
  };
  // tf32 keeps f32's sign, exponent and top 10 mantissa bits (the 13 low bits are zero, as mma reads them): one
  // quantum at 1.0 is 0x2000, half a quantum 0x1000.
  for (Rnd r : {Rnd::rna, Rnd::rn, Rnd::rz}) CHECK(tf(r, false, false, 0x3F800000u) == 0x3F800000u);
  // A tie above an even result: .rn keeps it (ties to even), .rna goes away from zero, .rz truncates.
  CHECK(tf(Rnd::rn, false, false, 0x3F801000u) == 0x3F800000u);
  CHECK(tf(Rnd::rna, false, false, 0x3F801000u) == 0x3F802000u);
  CHECK(tf(Rnd::rz, false, false, 0x3F801000u) == 0x3F800000u);
  // A tie above an odd result: .rn and .rna both round up; .rz does not.
  CHECK(tf(Rnd::rn, false, false, 0x3F803000u) == 0x3F804000u);
  CHECK(tf(Rnd::rna, false, false, 0x3F803000u) == 0x3F804000u);
  CHECK(tf(Rnd::rz, false, false, 0x3F803000u) == 0x3F802000u);
  // Just above and just below half a quantum.
  CHECK(tf(Rnd::rn, false, false, 0x3F801001u) == 0x3F802000u);
  CHECK(tf(Rnd::rz, false, false, 0x3F801001u) == 0x3F800000u);
  CHECK(tf(Rnd::rna, false, false, 0x3F800FFFu) == 0x3F800000u);
  // Negative ties: .rna away from zero (more negative), .rn to even, .rz toward zero.
  CHECK(tf(Rnd::rna, false, false, 0xBF801000u) == 0xBF802000u);
  CHECK(tf(Rnd::rn, false, false, 0xBF801000u) == 0xBF800000u);
  CHECK(tf(Rnd::rz, false, false, 0xBF803000u) == 0xBF802000u);
  // f32's largest finite 0x7F7FFFFF is above tf32's MAX_NORM 0x7F7FE000: rounding to nearest overflows to infinity,
  // with .satfinite to sign-preserved MAX_NORM; .rz gives MAX_NORM either way.
  CHECK(tf(Rnd::rna, false, false, 0x7F7FFFFFu) == 0x7F800000u);
  CHECK(tf(Rnd::rna, false, true, 0x7F7FFFFFu) == 0x7F7FE000u);
  CHECK(tf(Rnd::rn, false, false, 0xFF7FFFFFu) == 0xFF800000u);
  CHECK(tf(Rnd::rn, false, true, 0xFF7FFFFFu) == 0xFF7FE000u);
  CHECK(tf(Rnd::rz, false, false, 0x7F7FFFFFu) == 0x7F7FE000u);
  // Infinities stay infinite without .satfinite; with it, "the absolute value of input ... greater than MAX_NORM"
  // gives sign-preserved MAX_NORM.
  CHECK(tf(Rnd::rn, false, false, 0x7F800000u) == 0x7F800000u);
  CHECK(tf(Rnd::rz, false, false, 0xFF800000u) == 0xFF800000u);
  CHECK(tf(Rnd::rna, false, true, 0x7F800000u) == 0x7F7FE000u);
  CHECK(tf(Rnd::rz, false, true, 0xFF800000u) == 0xFF7FE000u);
  // NaN: "the result is NaN in the specified destination format" (.satfinite); .relu: "canonical NaN".
  CHECK(tf(Rnd::rna, false, true, 0x7FC00001u) == 0x7FFFE000u);
  CHECK(tf(Rnd::rn, true, false, 0xFFC00000u) == 0x7FFFE000u);
  CHECK(tf(Rnd::rz, false, false, 0x7F800001u) == 0x7FFFE000u);
  // .relu "clamps the result to 0 if negative".
  CHECK(tf(Rnd::rn, true, false, 0xBFC00000u) == 0u);
  CHECK(tf(Rnd::rz, true, true, 0xFF800000u) == 0u);
  CHECK(tf(Rnd::rn, true, false, 0x3FC00000u) == 0x3FC00000u);
  // Subnormals keep f32's least exponent: half a quantum 0x1000 ties to 0 (.rn) or away (.rna); the largest f32
  // subnormal rounds up to the least normal 0x00800000.
  CHECK(tf(Rnd::rn, false, false, 0x00001000u) == 0u);
  CHECK(tf(Rnd::rna, false, false, 0x00001000u) == 0x00002000u);
  CHECK(tf(Rnd::rn, false, false, 0x00003000u) == 0x00004000u);
  CHECK(tf(Rnd::rn, false, false, 0x007FFFFFu) == 0x00800000u);
  CHECK(tf(Rnd::rz, false, false, 0x007FFFFFu) == 0x007FE000u);
}

TEST_CASE("cvt to and from ue8m0 (ISA 5.2.3, 9.7.9.21): rz/rp on the exponent, .satfinite, NaN 0xff") {
  Concrete d;
  auto to = [&](bool up, bool satfinite, std::uint32_t a) { return static_cast<unsigned>(ops::f32_to_ue8m0(d, up, satfinite, u32(a)).v); };
  // Code e is 2^(e-127). 1.0 -> 0x7f both ways; 1.5: rz 2^0 = 0x7f, rp 2^1 = 0x80; -3 (sign dropped): 0x80 / 0x81.
  CHECK(to(false, true, 0x3F800000u) == 0x7f);
  CHECK(to(true, true, 0x3F800000u) == 0x7f);
  CHECK(to(false, true, 0x3FC00000u) == 0x7f);
  CHECK(to(true, true, 0x3FC00000u) == 0x80);
  CHECK(to(false, true, 0xC0400000u) == 0x80);
  CHECK(to(true, true, 0xC0400000u) == 0x81);
  // MAX_NORM 2^127 = 0xfe. f32's largest (just under 2^128): rz 0xfe; rp overflows: .satfinite +MAX_NORM, else NaN.
  CHECK(to(false, false, 0x7F7FFFFFu) == 0xfe);
  CHECK(to(true, true, 0x7F7FFFFFu) == 0xfe);
  CHECK(to(true, false, 0x7F7FFFFFu) == 0xff);
  CHECK(to(true, true, 0x7F000000u) == 0xfe);
  CHECK(to(false, true, 0xFF800000u) == 0xfe);  // -inf: "a positive MAX_NORM in .ue8m0x2"
  CHECK(to(false, false, 0x7F800000u) == 0xff);
  CHECK(to(false, true, 0x7FC00000u) == 0xff);
  CHECK(to(true, true, 0xFFC00000u) == 0xff);
  // Below 2^-126 (no zero code): 0 and 2^-127 (f32 subnormal 0x00400000) -> 0x00 both ways; just above 2^-127 rp
  // gives 0x01; 2^-126 is 0x01 exactly.
  CHECK(to(false, true, 0x00000000u) == 0x00);
  CHECK(to(true, true, 0x00000000u) == 0x00);
  CHECK(to(true, true, 0x00400000u) == 0x00);
  CHECK(to(true, true, 0x00400001u) == 0x01);
  CHECK(to(false, true, 0x00400001u) == 0x00);
  CHECK(to(false, true, 0x00800000u) == 0x01);
  // Every code to bf16 is exact (NaN 0xff -> 0x7fff), and rz/rp of that value give the code back.
  for (unsigned e = 0; e < 256; ++e) {
    const CV h = ops::ue8m0_to_bf16(d, Concrete::lit(8, e));
    if (e == 0xff) { CHECK(h.v == 0x7fff); continue; }
    CHECK(domain::fp_to_double(FpFormat::bf16, h.u64()) == std::ldexp(1.0, static_cast<int>(e) - 127));
    const std::uint32_t f = static_cast<std::uint32_t>(h.v) << 16;
    CHECK(to(false, true, f) == e);
    CHECK(to(true, true, f) == e);
  }
}
