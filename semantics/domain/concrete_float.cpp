// IEEE arithmetic of the concrete domain for every PTX format and rounding mode (ISA 9.7.3 "Rounding
// modifiers", 9.7.9.21 cvt). f16/bf16/f32 results are computed in f64 with round-to-odd, then rounded once.
//
// Why round-to-odd is exact: a value computed in p=53 bits rounded toward zero with the lowest bit forced to 1
// when inexact ("sticky") rounds to any format of precision <= 51 bits exactly as the infinitely precise
// value would (Boldo & Melquiond, "When double rounding is odd"). f64 results use the host's rounding modes
// directly (this file is compiled with -frounding-math).
#include "semantics/domain/concrete.hpp"

#include <bit>
#include <cfenv>
#include <cmath>
#include <cstring>

namespace ptx::domain {

const char* approx_name(Approx a) {
  switch (a) {
    case Approx::rcp: return "rcp.approx";
    case Approx::sqrt: return "sqrt.approx";
    case Approx::rsqrt: return "rsqrt.approx";
    case Approx::sin: return "sin.approx";
    case Approx::cos: return "cos.approx";
    case Approx::lg2: return "lg2.approx";
    case Approx::ex2: return "ex2.approx";
    case Approx::tanh: return "tanh.approx";
    case Approx::div: return "div.approx";
  }
  return "?";
}

std::string to_hex(const CV& x) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  unsigned nibbles = (x.w + 3) / 4;
  for (unsigned i = 0; i < nibbles; ++i) s.insert(s.begin(), digits[static_cast<unsigned>(x.v >> (4 * i)) & 15]);
  return "0x" + s;
}

float bits_to_f32(std::uint32_t b) { return std::bit_cast<float>(b); }
double bits_to_f64(std::uint64_t b) { return std::bit_cast<double>(b); }
std::uint32_t f32_to_bits(float f) { return std::bit_cast<std::uint32_t>(f); }
std::uint64_t f64_to_bits(double d) { return std::bit_cast<std::uint64_t>(d); }

double fp_to_double(FpFormat f, std::uint64_t bits) {
  if (f == FpFormat::f64) return bits_to_f64(bits);
  const FpParams p = fp_params(f);
  const bool sign = (bits >> (p.bits - 1)) & 1;
  const unsigned e = static_cast<unsigned>(bits >> (p.sbits - 1)) & ((1u << p.ebits) - 1);
  const std::uint64_t m = bits & ((std::uint64_t(1) << (p.sbits - 1)) - 1);
  double v;
  if (e == (1u << p.ebits) - 1) v = m ? std::nan("") : INFINITY;
  else if (e == 0) v = std::ldexp(static_cast<double>(m), p.emin - static_cast<int>(p.sbits) + 1);
  else v = std::ldexp(static_cast<double>(m | (std::uint64_t(1) << (p.sbits - 1))), static_cast<int>(e) - p.bias - static_cast<int>(p.sbits) + 1);
  return sign ? -v : v;
}

namespace {

int host_mode(Rnd r) {
  switch (r) {
    case Rnd::rz: return FE_TOWARDZERO;
    case Rnd::rm: return FE_DOWNWARD;
    case Rnd::rp: return FE_UPWARD;
    default: return FE_TONEAREST;
  }
}

struct RoundingScope {  // sets the host rounding mode and restores round-to-nearest
  explicit RoundingScope(int mode) { std::fesetround(mode); std::feclearexcept(FE_ALL_EXCEPT); }
  ~RoundingScope() { std::fesetround(FE_TONEAREST); }
  bool inexact() const { return std::fetestexcept(FE_INEXACT) != 0; }
};

// (-1)^sign * sig * 2^exp (+ nonzero bits below sig's lowest bit when `sticky`), rounded once into `f`.
std::uint64_t round_pack(FpFormat f, bool sign, std::uint64_t sig, int exp, bool sticky, Rnd r) {
  const FpParams p = fp_params(f);
  const std::uint64_t sign_bit = std::uint64_t(sign) << (p.bits - 1);
  const std::uint64_t inf = ((std::uint64_t(1) << p.ebits) - 1) << (p.sbits - 1);
  if (sig == 0 && !sticky) return sign_bit;
  int n = sig ? 64 - std::countl_zero(sig) : 0;
  int E = exp + n - 1;  // the value lies in [2^E, 2^(E+1))
  int kept = static_cast<int>(p.sbits);
  if (E < p.emin) kept -= p.emin - E;
  int d = n - kept;  // bits dropped
  std::uint64_t q;
  bool guard = false, rest = sticky;
  if (d <= 0) {
    q = sig << (-d);
  } else {
    q = d >= 64 ? 0 : sig >> d;
    guard = d - 1 < 64 ? (sig >> (d - 1)) & 1 : false;
    if (d - 1 > 0) rest |= (d - 1 >= 64 ? sig : (sig & ((std::uint64_t(1) << (d - 1)) - 1))) != 0;
  }
  bool inc = false;
  switch (r) {
    case Rnd::rn: inc = guard && (rest || (q & 1)); break;
    case Rnd::rna: inc = guard; break;
    case Rnd::rz: break;
    case Rnd::rp: inc = !sign && (guard || rest); break;
    case Rnd::rm: inc = sign && (guard || rest); break;
  }
  q += inc;
  if (E < p.emin) return sign_bit | q;  // subnormal (q == 2^(p-1) encodes the smallest normal by itself)
  if (q >> p.sbits) { q >>= 1; ++E; }
  if (E > p.emax) {
    bool to_inf = r == Rnd::rn || r == Rnd::rna || (r == Rnd::rp && !sign) || (r == Rnd::rm && sign);
    return sign_bit | (to_inf ? inf : inf - 1);
  }
  return sign_bit | (static_cast<std::uint64_t>(E + p.bias) << (p.sbits - 1)) | (q & ((std::uint64_t(1) << (p.sbits - 1)) - 1));
}

// A finite or infinite double (already rounded toward zero; `inexact` = bits were lost) into format f.
std::uint64_t pack_double(FpFormat f, double x, bool inexact, Rnd r) {
  const FpParams p = fp_params(f);
  if (std::isnan(x)) return canonical_nan(f);
  bool sign = std::signbit(x);
  if (std::isinf(x)) return (std::uint64_t(sign) << (p.bits - 1)) | (((std::uint64_t(1) << p.ebits) - 1) << (p.sbits - 1));
  if (f == FpFormat::f64) return f64_to_bits(x);
  std::uint64_t b = f64_to_bits(x);
  int e = static_cast<int>((b >> 52) & 0x7ff);
  std::uint64_t m = b & ((std::uint64_t(1) << 52) - 1);
  if (e == 0) return round_pack(f, sign, m, -1074, inexact, r);
  return round_pack(f, sign, m | (std::uint64_t(1) << 52), e - 1075, inexact, r);
}

CV make(FpFormat f, std::uint64_t bits) { return Concrete::lit(fp_bits(f), bits); }
double dec(FpFormat f, const CV& a) { return fp_to_double(f, a.u64()); }

// One binary operation: f64 in the requested mode; narrower formats through round-to-odd.
// Operands pass through volatile locals so that the compiler cannot reuse a result computed under another
// rounding mode (GCC does not fully honour -frounding-math across fesetround).
template <class Op>
CV binary(FpFormat f, Rnd r, double x0, double y0, Op op) {
  volatile double x = x0, y = y0;
  if (std::isnan(x) || std::isnan(y)) return make(f, canonical_nan(f));
  if (f == FpFormat::f64) {
    RoundingScope scope(host_mode(r));
    volatile double z = op(x, y);
    return make(f, pack_double(f, z, false, r));
  }
  double z;
  bool inexact;
  {
    RoundingScope scope(FE_TOWARDZERO);
    volatile double t = op(x, y);
    z = t;
    inexact = scope.inexact();
  }
  if (z == 0 && !inexact) {  // an exact zero takes its sign from the mode (x + -x is -0 under .rm)
    RoundingScope scope(host_mode(r));
    volatile double t = op(x, y);
    z = t;
  }
  return make(f, pack_double(f, z, inexact, r));
}

double integral(double x, Rnd r) {
  switch (r) {
    case Rnd::rn: return std::nearbyint(x);  // host default mode is round-to-nearest-even
    case Rnd::rz: return std::trunc(x);
    case Rnd::rm: return std::floor(x);
    case Rnd::rp: return std::ceil(x);
    case Rnd::rna: return std::round(x);
  }
  return x;
}

}  // namespace

// Round-to-nearest-even f32/f64 is what the host computes in its default mode: no mode switch is needed.
// (The host runs with subnormals enabled and round-to-nearest; NaN results still become canonical_nan.)
#define PTX_HOST_RN(F, R, EXPR32, EXPR64)                                                     \
  if ((R) == Rnd::rn && (F) == FpFormat::f32) {                                                \
    volatile float z_ = (EXPR32);                                                              \
    float zz = z_;                                                                             \
    return make(F, zz != zz ? canonical_nan(F) : f32_to_bits(zz));                              \
  }                                                                                            \
  if ((R) == Rnd::rn && (F) == FpFormat::f64) {                                                \
    volatile double z_ = (EXPR64);                                                             \
    double zz = z_;                                                                            \
    return make(F, zz != zz ? canonical_nan(F) : f64_to_bits(zz));                              \
  }
#define F32(x) bits_to_f32(static_cast<std::uint32_t>((x).v))
#define F64(x) bits_to_f64(static_cast<std::uint64_t>((x).v))

CV Concrete::fadd(FpFormat f, Rnd r, CV a, CV b) {
  PTX_HOST_RN(f, r, F32(a) + F32(b), F64(a) + F64(b)) return binary(f, r, dec(f, a), dec(f, b), [](double x, double y) { return x + y; }); }
CV Concrete::fsub(FpFormat f, Rnd r, CV a, CV b) {
  PTX_HOST_RN(f, r, F32(a) - F32(b), F64(a) - F64(b)) return binary(f, r, dec(f, a), dec(f, b), [](double x, double y) { return x - y; }); }
CV Concrete::fmul(FpFormat f, Rnd r, CV a, CV b) {
  PTX_HOST_RN(f, r, F32(a) * F32(b), F64(a) * F64(b)) return binary(f, r, dec(f, a), dec(f, b), [](double x, double y) { return x * y; }); }
CV Concrete::fdiv(FpFormat f, Rnd r, CV a, CV b) {
  PTX_HOST_RN(f, r, F32(a) / F32(b), F64(a) / F64(b)) return binary(f, r, dec(f, a), dec(f, b), [](double x, double y) { return x / y; }); }

CV Concrete::ffma(FpFormat f, Rnd r, CV a, CV b, CV c) {
  PTX_HOST_RN(f, r, std::fma(F32(a), F32(b), F32(c)), std::fma(F64(a), F64(b), F64(c)))
  volatile double x = dec(f, a), y = dec(f, b), z = dec(f, c);
  if (std::isnan(x) || std::isnan(y) || std::isnan(z)) return make(f, canonical_nan(f));
  if (f == FpFormat::f64) {
    RoundingScope scope(host_mode(r));
    volatile double t = std::fma(x, y, z);
    return make(f, pack_double(f, t, false, r));
  }
  // x*y is exact in f64 for every narrower format (at most 2*24 significant bits), so one addition rounds.
  double prod = x * y;  // exact, so the mode does not matter
  return binary(f, r, prod, z, [](double u, double v) { return u + v; });
}

CV Concrete::fsqrt(FpFormat f, Rnd r, CV a) {
  return binary(f, r, dec(f, a), 0.0, [](double x, double) { return std::sqrt(x); });
}

CV Concrete::flt(FpFormat f, CV a, CV b) { return boolean(dec(f, a) < dec(f, b)); }
CV Concrete::feq(FpFormat f, CV a, CV b) { return boolean(dec(f, a) == dec(f, b)); }
CV Concrete::fisnan(FpFormat f, CV a) { return boolean(std::isnan(dec(f, a))); }

CV Concrete::f2f(FpFormat from, FpFormat to, Rnd r, CV a) {
  double x = dec(from, a);
  return make(to, pack_double(to, x, false, r));
}

CV Concrete::i2f(FpFormat to, Rnd r, CV a, bool is_signed) {
  bool sign = is_signed && negative(a);
  CV mag = sign ? neg(a) : a;
  std::uint64_t m = mag.u64();  // PTX converts integers of at most 64 bits
  return make(to, round_pack(to, sign, m, 0, false, r));
}

CV Concrete::f2i(FpFormat from, Rnd r, CV a, unsigned w, bool is_signed) {
  double x = dec(from, a);
  if (std::isnan(x)) return lit(w, 0);
  double v = integral(x, r);
  if (is_signed) {
    double lim = std::ldexp(1.0, static_cast<int>(w) - 1);
    if (v >= lim) return lit(w, mask_of(w - 1));
    if (v < -lim) return lit(w, u128(1) << (w - 1));
    auto i = static_cast<std::int64_t>(v);
    return lit(w, static_cast<u128>(static_cast<__int128>(i)));
  }
  double lim = std::ldexp(1.0, static_cast<int>(w));
  if (v <= 0) return lit(w, 0);
  if (v >= lim) return lit(w, mask_of(w));
  return lit(w, static_cast<u128>(static_cast<std::uint64_t>(v)));
}

CV Concrete::fround(FpFormat f, Rnd r, CV a) {
  double x = dec(f, a);
  if (std::isnan(x)) return make(f, canonical_nan(f));
  return make(f, pack_double(f, integral(x, r), false, Rnd::rn));
}

CV Concrete::approx(Approx k, FpFormat f, CV a, CV b) {
  double x = dec(f, a), y = dec(f, b), z = 0;
  switch (k) {
    case Approx::rcp: z = 1.0 / x; break;
    case Approx::sqrt: z = std::sqrt(x); break;
    case Approx::rsqrt: z = 1.0 / std::sqrt(x); break;
    case Approx::sin: z = std::sin(x); break;
    case Approx::cos: z = std::cos(x); break;
    case Approx::lg2: z = std::log2(x); break;
    case Approx::ex2: z = std::exp2(x); break;
    case Approx::tanh: z = std::tanh(x); break;
    case Approx::div: z = x / y; break;
  }
  if (std::isnan(z)) return make(f, canonical_nan(f));
  if (f == FpFormat::f64) return make(f, f64_to_bits(z));
  return make(f, pack_double(f, z, false, Rnd::rn));
}

}  // namespace ptx::domain
