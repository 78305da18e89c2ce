// Z3 encodings of the symbolic domain's operations (see symbolic.hpp). Each mirrors Concrete exactly; the
// differential test (tests/unit/semantics_ops) checks that Z3's evaluation equals the concrete result.
#include "semantics/domain/symbolic.hpp"

#include <cmath>
#include <string>

namespace ptx::domain {

namespace {
std::string u128_decimal(u128 x) {
  if (x == 0) return "0";
  std::string s;
  while (x) { s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(x % 10))); x /= 10; }
  return s;
}
}  // namespace

Symbolic::V Symbolic::lit(unsigned w, u128 x) const {
  x &= mask_of(w);
  if (x <= ~std::uint64_t(0)) return c_->bv_val(static_cast<std::uint64_t>(x), w);
  return c_->bv_val(u128_decimal(x).c_str(), w);
}

bool Symbolic::known(const V& a) {
  V s = a.simplify();
  return s.is_numeral();
}

CV Symbolic::evaluate(const V& a, const z3::model* m) {
  V s = m ? m->eval(a, true) : a.simplify();
  unsigned w = width(a);
  CV out{0, w};
  std::string digits = s.get_decimal_string(0);
  for (char ch : digits) out.v = out.v * 10 + static_cast<unsigned>(ch - '0');
  out.v &= mask_of(w);
  return out;
}

// A shift amount narrower than the value is zero-extended; a wider one is compared first, so that a large
// amount is never truncated to a small one.
#define PTX_SHIFT(NAME, Z3FN, ALL)                                                      \
  Symbolic::V Symbolic::NAME(const V& a, const V& s) const {                           \
    unsigned w = width(a), sw = width(s);                                                \
    if (sw == w) return Z3FN(a, s);                                                      \
    if (sw < w) return Z3FN(a, z3::zext(s, w - sw));                                     \
    V big = z3::uge(s, c_->bv_val(w, sw));                                               \
    return z3::ite(big, ALL, Z3FN(a, s.extract(w - 1, 0)));                              \
  }
PTX_SHIFT(shl, z3::shl, lit(w, 0))
PTX_SHIFT(lshr, z3::lshr, lit(w, 0))
PTX_SHIFT(ashr, z3::ashr, z3::ashr(a, c_->bv_val(w - 1, w)))
#undef PTX_SHIFT

z3::sort Symbolic::fp_sort(FpFormat f) const {
  FpParams p = fp_params(f);
  return c_->fpa_sort(p.ebits, p.sbits);
}

z3::expr Symbolic::rounding(Rnd r) const {
  Z3_ast a = nullptr;
  switch (r) {
    case Rnd::rn: a = Z3_mk_fpa_rne(*c_); break;
    case Rnd::rz: a = Z3_mk_fpa_rtz(*c_); break;
    case Rnd::rm: a = Z3_mk_fpa_rtn(*c_); break;
    case Rnd::rp: a = Z3_mk_fpa_rtp(*c_); break;
    case Rnd::rna: a = Z3_mk_fpa_rna(*c_); break;
  }
  return z3::expr(*c_, a);
}

z3::expr Symbolic::to_fp(FpFormat f, const V& bits) const {
  return z3::expr(*c_, Z3_mk_fpa_to_fp_bv(*c_, bits, fp_sort(f)));
}

Symbolic::V Symbolic::from_fp(FpFormat f, const z3::expr& x) const {
  z3::expr bits(*c_, Z3_mk_fpa_to_ieee_bv(*c_, x));
  return z3::ite(x.mk_is_nan(), lit(fp_bits(f), canonical_nan(f)), bits);
}

#define PTX_FBIN(NAME, Z3FN)                                                            \
  Symbolic::V Symbolic::NAME(FpFormat f, Rnd r, const V& a, const V& b) const {        \
    z3::expr x = to_fp(f, a), y = to_fp(f, b);                                           \
    return from_fp(f, z3::expr(*c_, Z3FN(*c_, rounding(r), x, y)));                      \
  }
PTX_FBIN(fadd, Z3_mk_fpa_add)
PTX_FBIN(fsub, Z3_mk_fpa_sub)
PTX_FBIN(fmul, Z3_mk_fpa_mul)
PTX_FBIN(fdiv, Z3_mk_fpa_div)
#undef PTX_FBIN

Symbolic::V Symbolic::ffma(FpFormat f, Rnd r, const V& a, const V& b, const V& c) const {
  return from_fp(f, z3::expr(*c_, Z3_mk_fpa_fma(*c_, rounding(r), to_fp(f, a), to_fp(f, b), to_fp(f, c))));
}
Symbolic::V Symbolic::fsqrt(FpFormat f, Rnd r, const V& a) const {
  return from_fp(f, z3::expr(*c_, Z3_mk_fpa_sqrt(*c_, rounding(r), to_fp(f, a))));
}
Symbolic::V Symbolic::flt(FpFormat f, const V& a, const V& b) const {
  return from_bool(z3::expr(*c_, Z3_mk_fpa_lt(*c_, to_fp(f, a), to_fp(f, b))));
}
Symbolic::V Symbolic::feq(FpFormat f, const V& a, const V& b) const {
  return from_bool(z3::expr(*c_, Z3_mk_fpa_eq(*c_, to_fp(f, a), to_fp(f, b))));
}
Symbolic::V Symbolic::fisnan(FpFormat f, const V& a) const { return from_bool(to_fp(f, a).mk_is_nan()); }

Symbolic::V Symbolic::f2f(FpFormat from, FpFormat to, Rnd r, const V& a) const {
  return from_fp(to, z3::expr(*c_, Z3_mk_fpa_to_fp_float(*c_, rounding(r), to_fp(from, a), fp_sort(to))));
}

Symbolic::V Symbolic::i2f(FpFormat to, Rnd r, const V& a, bool is_signed) const {
  Z3_ast x = is_signed ? Z3_mk_fpa_to_fp_signed(*c_, rounding(r), a, fp_sort(to))
                       : Z3_mk_fpa_to_fp_unsigned(*c_, rounding(r), a, fp_sort(to));
  return from_fp(to, z3::expr(*c_, x));
}

// ISA 9.7.9.21: float -> integer rounds per the mode, clamps to the destination range, and maps NaN to 0.
// The rounded value is compared in f64 (exact for every source format and every bound 2^k, k <= 64).
Symbolic::V Symbolic::f2i(FpFormat from, Rnd r, const V& a, unsigned w, bool is_signed) const {
  z3::expr x = to_fp(from, a);
  z3::expr rv(*c_, Z3_mk_fpa_round_to_integral(*c_, rounding(r), x));
  z3::expr X = from == FpFormat::f64 ? rv : z3::expr(*c_, Z3_mk_fpa_to_fp_float(*c_, rounding(Rnd::rn), rv, fp_sort(FpFormat::f64)));
  auto num = [&](double v) { return c_->fpa_val(v); };
  auto ge = [&](const z3::expr& p, const z3::expr& q) { return z3::expr(*c_, Z3_mk_fpa_geq(*c_, p, q)); };
  auto lt = [&](const z3::expr& p, const z3::expr& q) { return z3::expr(*c_, Z3_mk_fpa_lt(*c_, p, q)); };
  auto le = [&](const z3::expr& p, const z3::expr& q) { return z3::expr(*c_, Z3_mk_fpa_leq(*c_, p, q)); };
  z3::expr zero = lit(w, 0);
  if (is_signed) {
    double lim = std::ldexp(1.0, static_cast<int>(w) - 1);
    z3::expr conv(*c_, Z3_mk_fpa_to_sbv(*c_, rounding(Rnd::rz), X, w));
    return z3::ite(x.mk_is_nan(), zero,
                   z3::ite(ge(X, num(lim)), lit(w, mask_of(w - 1)),
                           z3::ite(lt(X, num(-lim)), lit(w, u128(1) << (w - 1)), conv)));
  }
  double lim = std::ldexp(1.0, static_cast<int>(w));
  z3::expr conv(*c_, Z3_mk_fpa_to_ubv(*c_, rounding(Rnd::rz), X, w));
  return z3::ite(x.mk_is_nan(), zero,
                 z3::ite(le(X, num(0.0)), zero, z3::ite(ge(X, num(lim)), lit(w, mask_of(w)), conv)));
}

Symbolic::V Symbolic::fround(FpFormat f, Rnd r, const V& a) const {
  return from_fp(f, z3::expr(*c_, Z3_mk_fpa_round_to_integral(*c_, rounding(r), to_fp(f, a))));
}

Symbolic::V Symbolic::approx(Approx k, FpFormat f, const V& a, const V& b) const {
  unsigned w = fp_bits(f);
  std::string name = std::string("ptx.") + approx_name(k) + ".b" + std::to_string(w);
  z3::sort bv = c_->bv_sort(w);
  if (k == Approx::div) {
    z3::func_decl fn = c_->function(name.c_str(), bv, bv, bv);
    return fn(a, b);
  }
  z3::func_decl fn = c_->function(name.c_str(), bv, bv);
  return fn(a);
}

}  // namespace ptx::domain
