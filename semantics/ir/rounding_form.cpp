// The rounding rules of rounding_form.hpp, each quoted from its instruction's section of ISA 9.0 chapter 9.7.
#include "semantics/ir/rounding_form.hpp"
#include "semantics/ir/word_sets.hpp"

#include <algorithm>
#include <initializer_list>

namespace ptx::ir {
namespace {

bool is_integer_rounding(Rounding r) { return r == Rounding::rni || r == Rounding::rzi || r == Rounding::rmi || r == Rounding::rpi; }

// cvt's .dtype = .atype list (9.7.9.21): the plain integers and floats of the first two syntax lines.
bool is_plain_integer(ScalarType t) {
  using S = ScalarType;
  return is_one_of(t, {S::u8, S::u16, S::u32, S::u64, S::s8, S::s16, S::s32, S::s64});
}
bool is_plain_float(ScalarType t) { return is_one_of(t, {ScalarType::f16, ScalarType::bf16, ScalarType::f32, ScalarType::f64}); }

// "All conversions involving .f16x2, .e4m3x2, ... and .ue8m0x2 instruction types" need a rounding (9.7.9.21).
bool is_packed_format(ScalarType t) {
  using S = ScalarType;
  return is_one_of(t, {S::f16x2, S::bf16x2, S::tf32, S::e4m3x2, S::e5m2x2, S::e2m1x2, S::e2m3x2, S::e3m2x2, S::e4m3x4,
                    S::e5m2x4, S::e2m1x4, S::e2m3x4, S::e3m2x4, S::ue8m0x2});
}
// ".satfinite modifier is mandatory for such conversions": to the .e*m*x2 and .e*m*x4 types (9.7.9.21).
bool needs_satfinite(ScalarType t) { return is_packed_format(t) && !is_one_of(t, {ScalarType::f16x2, ScalarType::bf16x2, ScalarType::tf32, ScalarType::ue8m0x2}); }

std::string quoted(const Instruction& in) { return "'" + opcode_text(in) + "'"; }

std::string cvt_rounding_error(const Instruction& in) {
  if (in.q.has(Flag::pack) || in.q.types.size() != 2) return {};
  const ScalarType d = in.q.types[0].scalar, a = in.q.types[1].scalar;
  const auto& r = in.q.rounding;
  if (is_packed_format(d) || is_packed_format(a)) {
    if (!r) return quoted(in) + " needs a rounding: every conversion involving a packed or alternate floating-point type requires one (ISA 9.7.9.21)";
    if (needs_satfinite(d) && !in.q.has(Flag::satfinite))
      return quoted(in) + " needs .satfinite: it is mandatory for conversions to ." + scalar_type_name(d) + " (ISA 9.7.9.21)";
    return {};
  }
  if (!(is_plain_integer(d) || is_plain_float(d)) || !(is_plain_integer(a) || is_plain_float(a))) return {};
  const bool to_int = is_plain_integer(d), from_int = is_plain_integer(a);
  if (!to_int && !from_int && is_one_of(d, {ScalarType::f16, ScalarType::bf16}) && is_one_of(a, {ScalarType::f16, ScalarType::bf16}) && d != a)
    return {};  // .f16 <-> .bf16: not judged (rounding_form.hpp)
  const bool narrowing = !to_int && !from_int && scalar_bits(d) < scalar_bits(a);
  const bool integer_required = to_int && !from_int;  // Integer Notes: float-to-integer
  const bool integer_allowed = integer_required || (!to_int && !from_int && d == a);  // and same-type float
  const bool float_required = !to_int && (from_int || narrowing);  // Floating Point Notes
  if (integer_required && !(r && is_integer_rounding(*r)))
    return quoted(in) + " needs an integer rounding (.rni, .rzi, .rmi or .rpi): it is required for float-to-integer conversions (ISA 9.7.9.21)";
  if (float_required && !(r && !is_integer_rounding(*r)))
    return quoted(in) + " needs a floating-point rounding (.rn, .rz, .rm or .rp): it is required for integer-to-float and narrowing float conversions (ISA 9.7.9.21)";
  if (!r || integer_required || float_required) return {};
  if (is_integer_rounding(*r) ? integer_allowed : (a == ScalarType::bf16 && !to_int && !from_int && scalar_bits(d) > scalar_bits(a))) return {};
  return quoted(in) + " has a rounding this conversion does not allow: integer rounding is for float-to-integer and same-type float conversions, floating-point rounding for integer-to-float and narrowing ones (ISA 9.7.9.21)";
}

}  // namespace

RoundingFinding rounding_form_finding(const Instruction& in, ModuleLevel level) {
  if (in.op == Opcode::cvt_) return {false, cvt_rounding_error(in)};
  if (in.q.types.empty() || !is_float(in.q.types[0].scalar)) return {};
  const ScalarType t = in.q.types[0].scalar;
  const bool modern = level.version == 0 || level.version >= 14;  // "PTX ISA version 1.4 and later"
  if (in.op == Opcode::fma_ && !in.q.rounding) {
    const bool half = is_one_of(t, {ScalarType::f16, ScalarType::f16x2, ScalarType::bf16, ScalarType::bf16x2});
    return {false, quoted(in) + " needs a rounding: fma.rnd (ISA " + (half ? "9.7.4.4)" : "9.7.3.6)")};
  }
  if (in.op == Opcode::mad_ && !in.q.rounding) {
    if (t == ScalarType::f64 && modern) return {false, quoted(in) + " needs a rounding: mad.rnd.f64 (ISA 9.7.3.7)"};
    // Errata: "for PTX ISA version 3.0 and earlier, ptxas does not enforce this requirement and mad.f32 silently
    // defaults to mad.rn.f32. For PTX ISA version 3.1, ptxas generates a warning": a warning before 3.2.
    if (t == ScalarType::f32 && level.version >= 20 && level.target >= 20)
      return {level.version < 32, quoted(in) + " needs a rounding on sm_20 and later targets: mad.rnd.f32 (ISA 9.7.3.7, PTX ISA and Target ISA Notes)"};
    return {};
  }
  if (!modern || in.q.rounding || in.q.has(Flag::approx) || (t != ScalarType::f32 && t != ScalarType::f64)) return {};
  if (in.op == Opcode::div_ && !in.q.has(Flag::full))
    return {false, quoted(in) + " needs one of .approx, .full and a rounding (ISA 9.7.3.8, PTX ISA 1.4 and later)"};
  if (in.op == Opcode::rcp_) return {false, quoted(in) + " needs .approx or a rounding (ISA 9.7.3.13, PTX ISA 1.4 and later)"};
  if (in.op == Opcode::sqrt_) return {false, quoted(in) + " needs .approx or a rounding (ISA 9.7.3.15, PTX ISA 1.4 and later)"};
  return {};
}

}  // namespace ptx::ir
