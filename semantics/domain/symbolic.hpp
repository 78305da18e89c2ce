// The symbolic value domain: every value is a Z3 bit-vector term (predicates are 1-bit vectors). Floats stay
// bit patterns; each float operation converts to Z3's FP sort, computes, and converts back with the GPU's
// canonical NaN, because SMT-LIB's FP sort has a single NaN (semantics/ops is written against this interface).
//
// Use from other modules (litmus, memmodel, proofs):
//   z3::context ctx; ptx::domain::Symbolic d(ctx);
//   auto r1 = d.var("r1", 32), r2 = d.lit(32, 5);
//   auto sum = ptx::ops::add(d, r1, r2);                                    // semantics/ops/integer.hpp
//   auto p   = ptx::ops::compare_int(d, ir::CompareOp::lt, true, r1, r2);  // ops/compare.hpp: 1-bit result
//   auto v   = ptx::ops::selp(d, sum, r2, p);                              // d.to_bool(p): a Z3 Boolean
// Link ptxcheck_domain. Every operation of semantics/ops takes (domain, operands...) and works the same on
// domain::Concrete (bit-exact values) and domain::Symbolic (Z3 terms).
#pragma once

#include "semantics/domain/concrete.hpp"
#include "semantics/domain/float_format.hpp"

#include <z3++.h>

#include <string>

namespace ptx::domain {

class Symbolic {
 public:
  using V = z3::expr;
  static constexpr bool is_symbolic = true;

  explicit Symbolic(z3::context& c) : c_(&c) {}
  z3::context& ctx() const { return *c_; }

  // ---- construction and shape
  V lit(unsigned w, u128 x) const;
  V boolean(bool b) const { return c_->bv_val(b ? 1 : 0, 1); }
  V var(const std::string& name, unsigned w) const { return c_->bv_const(name.c_str(), w); }
  static unsigned width(const V& a) { return a.get_sort().bv_size(); }
  // A 1-bit value as a Z3 Boolean, and back.
  V to_bool(const V& a) const { return a == c_->bv_val(1, 1); }
  V from_bool(const V& b) const { return z3::ite(b, boolean(true), boolean(false)); }
  // The value of a closed term (after simplification) as a concrete value, if it is a numeral.
  static bool known(const V& a);
  static CV evaluate(const V& a, const z3::model* m = nullptr);

  // ---- integer arithmetic (SMT-LIB semantics, the same as Concrete)
  V add(const V& a, const V& b) const { return a + b; }
  V sub(const V& a, const V& b) const { return a - b; }
  V mul(const V& a, const V& b) const { return a * b; }
  V neg(const V& a) const { return -a; }
  V udiv(const V& a, const V& b) const { return z3::udiv(a, b); }
  V urem(const V& a, const V& b) const { return z3::urem(a, b); }
  V sdiv(const V& a, const V& b) const { return a / b; }
  V srem(const V& a, const V& b) const { return z3::srem(a, b); }

  // ---- bitwise and shifts (any amount width; amounts >= width shift everything out)
  V band(const V& a, const V& b) const { return a & b; }
  V bor(const V& a, const V& b) const { return a | b; }
  V bxor(const V& a, const V& b) const { return a ^ b; }
  V bnot(const V& a) const { return ~a; }
  V shl(const V& a, const V& s) const;
  V lshr(const V& a, const V& s) const;
  V ashr(const V& a, const V& s) const;

  // ---- comparisons (1-bit results)
  V eq(const V& a, const V& b) const { return from_bool(a == b); }
  V ne(const V& a, const V& b) const { return from_bool(a != b); }
  V ult(const V& a, const V& b) const { return from_bool(z3::ult(a, b)); }
  V ule(const V& a, const V& b) const { return from_bool(z3::ule(a, b)); }
  V slt(const V& a, const V& b) const { return from_bool(z3::slt(a, b)); }
  V sle(const V& a, const V& b) const { return from_bool(z3::sle(a, b)); }

  // ---- selection and reshaping
  V ite(const V& c, const V& a, const V& b) const { return z3::ite(to_bool(c), a, b); }
  V zext(const V& a, unsigned w) const { return w == width(a) ? a : w < width(a) ? a.extract(w - 1, 0) : z3::zext(a, w - width(a)); }
  V sext(const V& a, unsigned w) const { return w == width(a) ? a : w < width(a) ? a.extract(w - 1, 0) : z3::sext(a, w - width(a)); }
  V extract(const V& a, unsigned hi, unsigned lo) const { return a.extract(hi, lo); }
  V concat(const V& hi, const V& lo) const { return z3::concat(hi, lo); }

  // ---- floating point on bit patterns (same contract as Concrete)
  V fadd(FpFormat f, Rnd r, const V& a, const V& b) const;
  V fsub(FpFormat f, Rnd r, const V& a, const V& b) const;
  V fmul(FpFormat f, Rnd r, const V& a, const V& b) const;
  V fdiv(FpFormat f, Rnd r, const V& a, const V& b) const;
  V ffma(FpFormat f, Rnd r, const V& a, const V& b, const V& c) const;
  V fsqrt(FpFormat f, Rnd r, const V& a) const;
  V flt(FpFormat f, const V& a, const V& b) const;
  V feq(FpFormat f, const V& a, const V& b) const;
  V fisnan(FpFormat f, const V& a) const;
  V f2f(FpFormat from, FpFormat to, Rnd r, const V& a) const;
  V i2f(FpFormat to, Rnd r, const V& a, bool is_signed) const;
  V f2i(FpFormat from, Rnd r, const V& a, unsigned w, bool is_signed) const;
  V fround(FpFormat f, Rnd r, const V& a) const;
  // Uninterpreted: `.approx` results are implementation-defined bits (ISA 9.7.3.13-22).
  V approx(Approx k, FpFormat f, const V& a, const V& b) const;

  // Z3 FP helpers, public for proofs that want to state float facts directly.
  z3::sort fp_sort(FpFormat f) const;
  z3::expr rounding(Rnd r) const;
  z3::expr to_fp(FpFormat f, const V& bits) const;
  V from_fp(FpFormat f, const z3::expr& x) const;  // NaN -> canonical_nan(f)

 private:
  z3::context* c_;
};

}  // namespace ptx::domain
