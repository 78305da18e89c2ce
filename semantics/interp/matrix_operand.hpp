// Matrix operands in shared memory, as the asynchronous tensor-core instructions read them: wgmma (ISA 9.7.15)
// and tcgen05.mma (9.7.16). Both describe a matrix by a 64-bit shared-memory descriptor over the same canonical
// layouts (9.7.15.5.1.10 = 9.7.16.3.3, in CuTe notation) and differ only in how the descriptor's fields are
// encoded; both take element types whose values are exact in an f64.
#pragma once

#include "semantics/domain/concrete.hpp"
#include "semantics/ir/ir.hpp"
#include "semantics/ir/wmma_form.hpp"
#include "semantics/ops/minifloat.hpp"

#include <cmath>
#include <cstdint>

namespace ptx::interp {

// Bytes of one A/B element of an f16/bf16, tf32, fp8 or 8-bit integer type.
inline unsigned matrix_elem_bytes(ir::ScalarType t) {
  using ST = ir::ScalarType;
  switch (t) {
    case ST::tf32: return 4;
    case ST::f16: case ST::bf16: return 2;
    default: return 1;  // e4m3, e5m2, s8, u8
  }
}

// The value of one A/B element of type t (bits in the low bits), exactly, as a double; integers as themselves
// (.s4/.u4 only in mma.sync); a .b1 element (wmma, mma, wgmma; it stands as ir::kWmmaB1) as its bit.
inline double matrix_element_value(ir::ScalarType t, std::uint32_t b) {
  using ST = ir::ScalarType;
  if (t == ir::kWmmaB1) return b & 1;
  switch (t) {
    case ST::f16: return domain::fp_to_double(domain::FpFormat::f16, b & 0xffff);
    case ST::bf16: return domain::fp_to_double(domain::FpFormat::bf16, b & 0xffff);
    case ST::tf32: return static_cast<double>(domain::bits_to_f32(b & 0xffffe000u));  // 9.7.15.5.2: the low 13 bits are dropped
    case ST::e4m3: {  // 5.2.5: bias 7, no infinity, S.1111.111 is NaN
      const double s = b & 0x80 ? -1 : 1;
      const unsigned e = (b >> 3) & 15, m = b & 7;
      if (e == 15 && m == 7) return std::nan("");
      return s * (e ? std::ldexp(1 + m / 8.0, static_cast<int>(e) - 7) : std::ldexp(m / 8.0, -6));
    }
    case ST::e5m2: {  // bias 15, IEEE-style infinities and NaNs
      const double s = b & 0x80 ? -1 : 1;
      const unsigned e = (b >> 2) & 31, m = b & 3;
      if (e == 31) return m ? std::nan("") : s * HUGE_VAL;
      return s * (e ? std::ldexp(1 + m / 4.0, static_cast<int>(e) - 15) : std::ldexp(m / 4.0, -14));
    }
    // .kind::f8f6f4's 8-bit containers (9.7.14.5.14: .e2m1 "in central 4 bits", .e3m2/.e2m3 in the lower 6 bits; the
    // padding is ignored), named by their x2 types (mma_fragment.hpp); the formats of 5.2.5, exactly via f16.
    case ST::e2m1x2: case ST::e3m2x2: case ST::e2m3x2: {
      const ops::MiniFormat& f = t == ST::e2m1x2 ? ops::kE2M1 : t == ST::e3m2x2 ? ops::kE3M2 : ops::kE2M3;
      const unsigned v = t == ST::e2m1x2 ? (b >> 2) & 0xf : b & 0x3f;
      const domain::CV h = ops::mini_to_f16(domain::Concrete{}, f, false, domain::Concrete::lit(f.bits, v));
      return domain::fp_to_double(domain::FpFormat::f16, static_cast<std::uint32_t>(h.v));
    }
    case ST::s8: return static_cast<std::int8_t>(b & 0xff);
    case ST::s4: return static_cast<double>(static_cast<int>(b & 0xf) - (b & 0x8 ? 16 : 0));  // mma.sync (9.7.14.2)
    case ST::u4: return b & 0xf;
    default: return b & 0xff;  // u8
  }
}

// A shared-memory matrix descriptor, its byte fields decoded: start, leading-dimension byte offset (LBO) and
// stride-dimension byte offset (SBO) are 14-bit fields of (x & 0x3FFFF) >> 4; `width` is the swizzle's bytes, 0
// without swizzling; `base` the matrix base offset.
struct MatrixDescriptor {
  std::uint64_t start = 0, lbo = 0, sbo = 0;
  unsigned base = 0, width = 0;
  bool atom32 = false;  // tcgen05 mode 1: the 128-byte swizzle with 32-byte atomicity (MN-major only)

  // wgmma (9.7.15.5.1.11): layout type in bits 62-63 (1 128B, 2 64B, 3 32B).
  static MatrixDescriptor wgmma(std::uint64_t d) {
    MatrixDescriptor m = fields(d);
    static constexpr unsigned kWidth[4] = {0, 128, 64, 32};
    m.width = kWidth[(d >> 62) & 3];
    return m;
  }
  // tcgen05 (9.7.16.4.1, Table 42): swizzling mode in bits 61-63: 0 none, 1 128B with 32-byte atomicity, 2 128B,
  // 4 64B, 6 32B; 3, 5 and 7 are invalid. The caller checks the fixed fields, bit 52 and mode 1's MN-major.
  static MatrixDescriptor tcgen05(std::uint64_t d) {
    MatrixDescriptor m = fields(d);
    static constexpr unsigned kWidth[8] = {0, 128, 128, 0, 64, 0, 32, 0};
    m.width = kWidth[(d >> 61) & 7];
    m.atom32 = ((d >> 61) & 7) == 1;
    return m;
  }

  // The shared-memory address of element (mn, k) of an element size of eb bytes: the canonical layouts in bytes
  // (a core matrix is 8 rows of 16 bytes, or of the swizzle width), then the swizzle (Swizzle<1|2|3,4,3>) on the
  // address: bits 4.. of the 16-byte chunk XORed with the 128-byte row's index bits 7...
  // With 32-byte atomicity (tcgen05 mode 1, MN-major only) the swizzle atom is 8 x 4 16-byte elements (Table 55):
  // four k to an atom instead of eight, and 32-byte chunks move, not 16-byte ones: chunk c of 128-byte row r goes to
  // c ^ (r % 4) (ISA 5.5.7, the 128-byte swizzle's 32-byte atomicity sub-mode table).
  std::uint64_t address(unsigned mn, unsigned k, unsigned eb, bool mn_major) const {
    std::uint64_t off;
    if (!mn_major) {  // K-major: ((8,m),(T,2k)) : ((W, SBO), (1, LBO or T))
      const unsigned kb = k * eb;
      off = (mn % 8) * (width ? width : 16) + (mn / 8) * sbo + (width ? kb : (kb % 16) + (kb / 16) * lbo);
    } else if (!width) {  // MN-major interleaved: ((T,1,m),(8,k)) : ((1,T,SBO),(T,LBO))
      const unsigned mb = mn * eb;
      off = mb % 16 + (mb / 16) * sbo + (k % 8) * 16 + (k / 8) * lbo;
    } else {  // MN-major swizzled: ((T,W/16,m),(R,k)) : ((1,T,LBO),(W/16*T,SBO)), R = 8 k to an atom (4 with atom32)
      const unsigned mb = mn * eb, rows = atom32 ? 4 : 8;
      off = mb % width + (mb / width) * lbo + (k % rows) * width + (k / rows) * sbo;
    }
    const std::uint64_t a = start + off;
    if (atom32) return a ^ (((a >> 7) & 3) << 5);
    return width ? a ^ (((a >> 7) & (width / 16 - 1)) << 4) : a;
  }

 private:
  static MatrixDescriptor fields(std::uint64_t d) {
    MatrixDescriptor m;
    m.start = (d & 0x3fff) << 4;
    m.lbo = ((d >> 16) & 0x3fff) << 4;
    m.sbo = ((d >> 32) & 0x3fff) << 4;
    m.base = static_cast<unsigned>((d >> 49) & 7);
    return m;
  }
};

// One k-term of an integer MMA's sum (wmma, mma.sync): the product of the two elements, or for the .b1 forms
// (9.7.14.4.5, 9.7.14.5.14: "the XOR, AND respectively of a k-bit row of A with a k-bit column of B, then counts the
// number of set bits") the XOR or AND of the two bits, whose sum over k is that count.
enum class BitOp { none, xor_, and_ };
inline std::int64_t integer_mma_term(BitOp op, std::int64_t x, std::int64_t y) {
  return op == BitOp::none ? x * y : op == BitOp::and_ ? (x & y) : (x ^ y);
}

// A floating-point accumulation rounded once: `acc` (exact products summed in f64) to an f32 or f16 result's bits,
// to nearest even; NaN as the canonical 0x7fffffff / 0x7fff (docs/tensor-cores.md).
inline std::uint32_t round_accumulator(double acc, bool to_f16) {
  if (to_f16) {
    if (std::isnan(acc)) return 0x7fffu;
    const domain::CV h = domain::Concrete::f2f(domain::FpFormat::f64, domain::FpFormat::f16, domain::Rnd::rn,
                                               domain::Concrete::lit(64, domain::f64_to_bits(acc)));
    return static_cast<std::uint32_t>(h.v & 0xffff);
  }
  return std::isnan(acc) ? 0x7fffffffu : domain::f32_to_bits(static_cast<float>(acc));
}

// The number of registers a fragment operand names (a vector expression, or a lone register), and its r-th.
inline std::size_t operand_regs(const ir::Operand& o) { return o.kind == ir::Operand::Kind::Vector ? o.elements.size() : 1; }
inline const ir::Operand& operand_reg(const ir::Operand& o, std::size_t r) { return o.kind == ir::Operand::Kind::Vector ? o.elements[r] : o; }

// One element of D = A * B + C for the floating-point forms of mma.sync and wmma.mma, C's bits `c` in type `c_type`,
// a(k) and b(k) the exact values of the K products' factors: .f64 as a chain of fused multiply-adds in `rnd` ("identical
// to that of .f64 precision fused multiply-add", 9.7.14.5.14); otherwise the exact products summed in f64 after C and
// rounded once to D's type (round_accumulator; docs/tensor-cores.md).
template <class A, class B>
std::uint64_t float_mma_element(ir::ScalarType d, ir::ScalarType c_type, std::uint64_t c, unsigned K, domain::Rnd rnd, A a, B b) {
  if (d == ir::ScalarType::f64) {
    domain::CV acc = domain::Concrete::lit(64, c);
    for (unsigned k = 0; k < K; ++k)
      acc = domain::Concrete::ffma(domain::FpFormat::f64, rnd, domain::Concrete::lit(64, domain::f64_to_bits(a(k))),
                                   domain::Concrete::lit(64, domain::f64_to_bits(b(k))), acc);
    return acc.u64();
  }
  double acc = c_type == ir::ScalarType::f16 ? domain::fp_to_double(domain::FpFormat::f16, c) : domain::bits_to_f32(static_cast<std::uint32_t>(c));
  for (unsigned k = 0; k < K; ++k) acc += a(k) * b(k);
  return round_accumulator(acc, d == ir::ScalarType::f16);
}

}  // namespace ptx::interp
