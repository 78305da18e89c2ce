// The IEEE binary formats PTX computes in (ISA 5.2.5: f16, bf16, f32, f64) and its rounding modes (ISA 9.7.3
// "Rounding modifiers"): the parameters both value domains need to round, classify and encode floats.
#pragma once

#include <cstdint>

namespace ptx::domain {

enum class FpFormat : std::uint8_t { f16, bf16, f32, f64 };
// .rn nearest-even, .rz toward zero, .rm toward -inf, .rp toward +inf, .rna nearest-away (cvt only).
enum class Rnd : std::uint8_t { rn, rz, rm, rp, rna };

struct FpParams {
  unsigned bits, ebits, sbits;  // sbits counts the implicit bit (IEEE precision p)
  int emin, emax, bias;
};
constexpr FpParams fp_params(FpFormat f) {
  switch (f) {
    case FpFormat::f16: return {16, 5, 11, -14, 15, 15};
    case FpFormat::bf16: return {16, 8, 8, -126, 127, 127};
    case FpFormat::f32: return {32, 8, 24, -126, 127, 127};
    case FpFormat::f64: return {64, 11, 53, -1022, 1023, 1023};
  }
  return {32, 8, 24, -126, 127, 127};
}
constexpr unsigned fp_bits(FpFormat f) { return fp_params(f).bits; }

// The NaN a GPU writes when an operation creates one (ISA 9.7.3: single precision returns an unspecified
// NaN; hardware writes 0x7fffffff; f16/bf16 0x7fff; f64 creates the default NaN 0xfff8000000000000 and
// propagates input payloads, made quiet).
constexpr std::uint64_t canonical_nan(FpFormat f) {
  switch (f) {
    case FpFormat::f16: return 0x7fff;
    case FpFormat::bf16: return 0x7fff;
    case FpFormat::f32: return 0x7fffffff;
    case FpFormat::f64: return 0xfff8000000000000ull;
  }
  return 0;
}

// Functions PTX only approximates (ISA 9.7.3.13-22 .approx forms): their bits are implementation-defined
// within a stated error bound, so the symbolic domain leaves them uninterpreted.
enum class Approx : std::uint8_t { rcp, sqrt, rsqrt, sin, cos, lg2, ex2, tanh, div };
const char* approx_name(Approx a);

}  // namespace ptx::domain
