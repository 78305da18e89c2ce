// The concrete value domain: bit-exact bit-vectors of width 1..128 (an unsigned __int128 plus a width) and
// IEEE f16/bf16/f32/f64 arithmetic with every PTX rounding mode, computed exactly in software where the host
// cannot (concrete_float.cpp). semantics/ops is written against this interface and against Symbolic.
#pragma once

#include "semantics/domain/float_format.hpp"

#include <cstdint>
#include <string>

namespace ptx::domain {

using u128 = unsigned __int128;

constexpr u128 mask_of(unsigned w) { return w >= 128 ? ~u128(0) : ((u128(1) << w) - 1); }

// A concrete bit-vector: `v` always holds exactly `w` bits (the rest are zero).
struct CV {
  u128 v = 0;
  unsigned w = 32;
  std::uint64_t u64() const { return static_cast<std::uint64_t>(v); }
  std::int64_t s64() const {  // sign-extended value of the low 64 bits
    if (w >= 64) return static_cast<std::int64_t>(static_cast<std::uint64_t>(v));
    std::uint64_t x = static_cast<std::uint64_t>(v);
    std::uint64_t sign = std::uint64_t(1) << (w - 1);
    return static_cast<std::int64_t>((x ^ sign) - sign);
  }
  bool is_true() const { return v != 0; }
  bool operator==(const CV&) const = default;
};
std::string to_hex(const CV& x);

// Every operation is a static function so that the domain object costs nothing; the symbolic domain has the
// same names as member functions of an object that owns a z3::context.
struct Concrete {
  using V = CV;
  static constexpr bool is_symbolic = false;

  // ---- construction and shape
  static V lit(unsigned w, u128 x) { return {x & mask_of(w), w}; }
  static V boolean(bool b) { return {b ? u128(1) : u128(0), 1}; }
  static unsigned width(const V& a) { return a.w; }
  // The value as a host integer when it is known (always, here).
  static bool known(const V&) { return true; }

  // ---- integer arithmetic (SMT-LIB bit-vector semantics, including division by zero:
  //      udiv x 0 = all ones, urem x 0 = x, sdiv x 0 = (x<0 ? 1 : -1), srem x 0 = x)
  static V add(V a, V b) { return lit(a.w, a.v + b.v); }
  static V sub(V a, V b) { return lit(a.w, a.v - b.v); }
  static V mul(V a, V b) { return lit(a.w, a.v * b.v); }
  static V neg(V a) { return lit(a.w, u128(0) - a.v); }
  static V udiv(V a, V b) { return b.v == 0 ? lit(a.w, ~u128(0)) : lit(a.w, a.v / b.v); }
  static V urem(V a, V b) { return b.v == 0 ? a : lit(a.w, a.v % b.v); }
  static bool negative(const V& a) { return (a.v >> (a.w - 1)) & 1; }
  static V sdiv(V a, V b) {
    if (b.v == 0) return negative(a) ? lit(a.w, 1) : lit(a.w, ~u128(0));
    bool na = negative(a), nb = negative(b);
    u128 ma = na ? neg(a).v : a.v, mb = nb ? neg(b).v : b.v;
    V q = lit(a.w, ma / mb);
    return na != nb ? neg(q) : q;
  }
  static V srem(V a, V b) {
    if (b.v == 0) return a;
    bool na = negative(a), nb = negative(b);
    u128 ma = na ? neg(a).v : a.v, mb = nb ? neg(b).v : b.v;
    V r = lit(a.w, ma % mb);
    return na ? neg(r) : r;
  }

  // ---- bitwise
  static V band(V a, V b) { return {a.v & b.v, a.w}; }
  static V bor(V a, V b) { return {a.v | b.v, a.w}; }
  static V bxor(V a, V b) { return {a.v ^ b.v, a.w}; }
  static V bnot(V a) { return lit(a.w, ~a.v); }
  // Shifts: `s` may have any width; an amount >= width(a) shifts everything out (ashr fills with the sign).
  static V shl(V a, V s) { return s.v >= a.w ? lit(a.w, 0) : lit(a.w, a.v << static_cast<unsigned>(s.v)); }
  static V lshr(V a, V s) { return s.v >= a.w ? lit(a.w, 0) : V{a.v >> static_cast<unsigned>(s.v), a.w}; }
  static V ashr(V a, V s) {
    unsigned n = s.v >= a.w ? a.w - 1 : static_cast<unsigned>(s.v);
    V r = lshr(a, lit(32, n));
    if (negative(a) && n > 0) r.v |= mask_of(a.w) & ~(mask_of(a.w) >> n);
    return r;
  }

  // ---- comparisons (1-bit results)
  static V eq(V a, V b) { return boolean(a.v == b.v); }
  static V ne(V a, V b) { return boolean(a.v != b.v); }
  static V ult(V a, V b) { return boolean(a.v < b.v); }
  static V ule(V a, V b) { return boolean(a.v <= b.v); }
  static V slt(V a, V b) {
    bool na = negative(a), nb = negative(b);
    return boolean(na != nb ? na : a.v < b.v);
  }
  static V sle(V a, V b) { return bor(slt(a, b), eq(a, b)); }

  // ---- selection and reshaping
  static V ite(V c, V a, V b) { return c.v ? a : b; }
  static V zext(V a, unsigned w) { return lit(w, a.v); }
  static V sext(V a, unsigned w) { return negative(a) ? lit(w, a.v | ~mask_of(a.w)) : lit(w, a.v); }
  static V extract(V a, unsigned hi, unsigned lo) { return lit(hi - lo + 1, a.v >> lo); }
  static V concat(V hi, V lo) { return lit(hi.w + lo.w, (hi.v << lo.w) | lo.v); }

  // ---- floating point on bit patterns (concrete_float.cpp). A NaN result is canonical_nan(fmt); the ops
  //      layer adds the f64 payload rule, .ftz and .sat on top, written once for both domains.
  static V fadd(FpFormat f, Rnd r, V a, V b);
  static V fsub(FpFormat f, Rnd r, V a, V b);
  static V fmul(FpFormat f, Rnd r, V a, V b);
  static V fdiv(FpFormat f, Rnd r, V a, V b);
  static V ffma(FpFormat f, Rnd r, V a, V b, V c);
  static V fsqrt(FpFormat f, Rnd r, V a);
  static V flt(FpFormat f, V a, V b);  // IEEE <, false when unordered
  static V feq(FpFormat f, V a, V b);  // IEEE ==, so -0 == +0
  static V fisnan(FpFormat f, V a);
  // Conversions (ISA 9.7.9.21): float -> float, integer -> float, float -> integer (rounded per `r`, clamped
  // to the destination range, NaN -> 0), float -> integral float (cvt.rni.f32.f32 ...).
  static V f2f(FpFormat from, FpFormat to, Rnd r, V a);
  static V i2f(FpFormat to, Rnd r, V a, bool is_signed);
  static V f2i(FpFormat from, Rnd r, V a, unsigned w, bool is_signed);
  static V fround(FpFormat f, Rnd r, V a);
  // .approx functions: a model (libm in the format's precision), not the hardware's exact bits.
  static V approx(Approx k, FpFormat f, V a, V b);
};

// Host helpers for tests and the interpreter.
float bits_to_f32(std::uint32_t b);
double bits_to_f64(std::uint64_t b);
std::uint32_t f32_to_bits(float f);
std::uint64_t f64_to_bits(double d);
// Value of a float bit pattern of format `f` as a double (exact for every format).
double fp_to_double(FpFormat f, std::uint64_t bits);

}  // namespace ptx::domain
