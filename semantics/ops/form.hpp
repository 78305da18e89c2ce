// What an instruction's qualifiers say about the values it computes, decoded once for every engine: types and
// widths, signedness, float formats and modifiers (Form), the special cvt forms, and which register-value
// instructions semantics/ops/execute.hpp models (value_form). The interpreter, the race encoder and
// `ptxcheck coverage` ask these functions; none keeps its own list.
#pragma once

#include "semantics/ops/effect.hpp"

#include "semantics/ir/ir.hpp"
#include "semantics/ops/atomic.hpp"
#include "semantics/ops/float.hpp"
#include "semantics/ops/minifloat.hpp"
#include "semantics/ops/video_form.hpp"

#include <optional>

namespace ptx::ops {

enum class ValueForm {
  none,        // not a register-value instruction: the engine runs it
  modelled,    // execute_value computes it
  unmodelled,  // a register-value instruction whose form is not modelled (its result is unknown)
};

// The first and second type qualifiers (`cvt.dtype.atype`, `set.dtype.stype`, `dp4a.atype.btype`) and what
// follows from them; an instruction without a type reads as .b32.
struct Form {
  ir::ScalarType t0 = ir::ScalarType::b32, t1 = ir::ScalarType::b32;
  unsigned w0 = 32, w1 = 32;
  bool s0 = false, s1 = false, f0 = false, f1 = false;
  domain::FpFormat fmt0 = domain::FpFormat::f32, fmt1 = domain::FpFormat::f32;
  bool packed = false;  // .f16x2 / .bf16x2 / .f32x2: two lanes, each half the type's width
  FpMods mods;
  bool has_rounding = false;
  ValueForm value = ValueForm::none;
};

inline domain::Rnd rounding_mode(ir::Rounding r) {
  switch (r) {
    case ir::Rounding::rn: case ir::Rounding::rni: return domain::Rnd::rn;
    case ir::Rounding::rz: case ir::Rounding::rzi: return domain::Rnd::rz;
    case ir::Rounding::rm: case ir::Rounding::rmi: return domain::Rnd::rm;
    case ir::Rounding::rp: case ir::Rounding::rpi: return domain::Rnd::rp;
    case ir::Rounding::rna: return domain::Rnd::rna;
    case ir::Rounding::rs: return domain::Rnd::rn;  // .rs takes its bits from an operand (cvt_stochastic)
  }
  return domain::Rnd::rn;
}

// ---- the special cvt forms (ISA 9.7.9.21)

// The narrow float formats of ISA 5.2.5 and the 16-bit halves of .f16x2/.bf16x2, by the type naming them.
inline const MiniFormat* mini_format(ir::ScalarType t) {
  using ST = ir::ScalarType;
  switch (t) {
    case ST::e4m3x2: case ST::e4m3x4: return &kE4M3;
    case ST::e5m2x2: case ST::e5m2x4: return &kE5M2;
    case ST::e2m1x2: case ST::e2m1x4: return &kE2M1;
    case ST::e2m3x2: case ST::e2m3x4: return &kE2M3;
    case ST::e3m2x2: case ST::e3m2x4: return &kE3M2;
    case ST::f16x2: return &kF16;
    case ST::bf16x2: return &kBF16;
    default: return nullptr;
  }
}
inline bool is_x2_narrow(ir::ScalarType t) {
  using ST = ir::ScalarType;
  return t == ST::e4m3x2 || t == ST::e5m2x2 || t == ST::e2m1x2 || t == ST::e2m3x2 || t == ST::e3m2x2;
}

// Two f32 (or one f16x2) -> .e4m3x2/.e5m2x2/.e2m1x2/.e2m3x2/.e3m2x2 with .rn.satfinite, and .f16x2 <-
// .e2m1x2/.e2m3x2/.e3m2x2 with .rn.
enum class NarrowCvt { to_pair, from_pair };
inline std::optional<NarrowCvt> narrow_cvt(const ir::Instruction& in) {
  using ST = ir::ScalarType;
  const auto& t = in.q.types;
  if (in.op != ir::Opcode::cvt_ || t.size() != 2 || in.q.rounding != ir::Rounding::rn) return std::nullopt;
  const ST dt = t[0].scalar, at = t[1].scalar;
  if (is_x2_narrow(dt) && in.q.has(ir::Flag::satfinite) && !in.q.has(ir::Flag::ftz)) {
    if (at == ST::f32 && in.operands.size() == 3) return NarrowCvt::to_pair;
    if (at == ST::f16x2 && in.operands.size() == 2 && (dt == ST::e4m3x2 || dt == ST::e5m2x2)) return NarrowCvt::to_pair;
  }
  if (dt == ST::f16x2 && in.operands.size() == 2 && (at == ST::e2m1x2 || at == ST::e2m3x2 || at == ST::e3m2x2))
    return NarrowCvt::from_pair;
  return std::nullopt;
}

// cvt.rs{.relu}.satfinite.{e4m3x4,e5m2x4,e2m3x4,e3m2x4,e2m1x4}.f32 d, {a, b, e, f}, rbits and
// cvt.rs{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b, rbits (.satfinite is mandatory for the x4 formats).
inline bool stochastic_cvt(const ir::Instruction& in) {
  using ST = ir::ScalarType;
  const auto& t = in.q.types;
  if (in.op != ir::Opcode::cvt_ || in.q.rounding != ir::Rounding::rs || t.size() != 2 || t[1].scalar != ST::f32 ||
      in.q.has(ir::Flag::ftz) || in.q.has(ir::Flag::sat) || !mini_format(t[0].scalar) || is_x2_narrow(t[0].scalar))
    return false;
  const auto& o = in.operands;
  if (t[0].scalar == ST::f16x2 || t[0].scalar == ST::bf16x2) return o.size() == 4;
  return in.q.has(ir::Flag::satfinite) && o.size() == 3 && o[1].kind == ir::Operand::Kind::Vector && o[1].elements.size() == 4;
}

// cvt.{rz,rp}{.satfinite}.ue8m0x2.f32 d, a, b; cvt.{rz,rp}{.satfinite}.ue8m0x2.bf16x2 d, a; cvt.rn.bf16x2.ue8m0x2 d, a
// (ptxas 13.0 rejects .relu and other roundings on all three, as the syntax block has it).
enum class Ue8m0Cvt { from_f32, from_bf16x2, to_bf16x2 };
inline std::optional<Ue8m0Cvt> ue8m0_cvt(const ir::Instruction& in) {
  using ST = ir::ScalarType;
  const auto& t = in.q.types;
  if (in.op != ir::Opcode::cvt_ || t.size() != 2 || !in.q.rounding || in.q.has(ir::Flag::relu) || in.q.has(ir::Flag::ftz) ||
      in.q.has(ir::Flag::sat))
    return std::nullopt;
  const auto r = *in.q.rounding;
  const std::size_t n = in.operands.size();
  if (t[0].scalar == ST::ue8m0x2 && (r == ir::Rounding::rz || r == ir::Rounding::rp)) {
    if (t[1].scalar == ST::f32 && n == 3) return Ue8m0Cvt::from_f32;
    if (t[1].scalar == ST::bf16x2 && n == 2) return Ue8m0Cvt::from_bf16x2;
  }
  if (t[0].scalar == ST::bf16x2 && t[1].scalar == ST::ue8m0x2 && r == ir::Rounding::rn && n == 2 && !in.q.has(ir::Flag::satfinite))
    return Ue8m0Cvt::to_bf16x2;
  return std::nullopt;
}

// cvt.rna{.satfinite}.tf32.f32 d, a and cvt.frnd2{.satfinite}{.relu}.tf32.f32 d, a with .frnd2 = { .rn, .rz } (9.7.9.21's
// syntax block: no .relu with .rna, no .ftz or .sat).
inline bool tf32_cvt(const ir::Instruction& in) {
  using ST = ir::ScalarType;
  const auto& t = in.q.types;
  if (in.op != ir::Opcode::cvt_ || t.size() != 2 || t[0].scalar != ST::tf32 || t[1].scalar != ST::f32 || in.operands.size() != 2 ||
      !in.q.rounding || in.q.has(ir::Flag::ftz) || in.q.has(ir::Flag::sat))
    return false;
  const auto r = *in.q.rounding;
  return r == ir::Rounding::rna ? !in.q.has(ir::Flag::relu) : r == ir::Rounding::rn || r == ir::Rounding::rz;
}

// cvt.f16x2.{e4m3x2,e5m2x2} d, a (the first narrow forms, sm_89).
inline bool fp8_pair_to_f16x2(const ir::Instruction& in) {
  using ST = ir::ScalarType;
  const auto& t = in.q.types;
  return in.op == ir::Opcode::cvt_ && t.size() == 2 && t[0].scalar == ST::f16x2 && (t[1].scalar == ST::e4m3x2 || t[1].scalar == ST::e5m2x2);
}

// Types whose values the generic forms do not compute (narrow floats, packed integers, handles, 128-bit).
inline bool exotic_type(ir::ScalarType s) {
  using ST = ir::ScalarType;
  switch (s) {
    case ST::tf32: case ST::e4m3: case ST::e5m2: case ST::e4m3x2: case ST::e5m2x2: case ST::e2m1x2: case ST::e2m3x2:
    case ST::e3m2x2: case ST::ue8m0x2: case ST::e4m3x4: case ST::e5m2x4: case ST::e2m3x4: case ST::e3m2x4: case ST::e2m1x4:
    case ST::s16x2: case ST::u16x2: case ST::s8x4: case ST::u8x4: case ST::texref: case ST::samplerref: case ST::surfref:
    case ST::b128:
      return true;
    default: return false;
  }
}

// ---- which instructions execute_value models

// Instructions whose only effect is on the executing thread's registers and whose value is a function of their
// operands: ISA 9.7.1-9.7.8 (integer, float, comparison, logic), mov and prmt (9.7.9.10, 9.7.9.7), cvt (9.7.9.21)
// and video (9.7.18). Not: cvta and isspacep (addresses of the engine's memory), warp and memory instructions.
// (The `value` kind of semantics/ir/opcodes.def's effect column.)
inline bool is_value_opcode(ir::Opcode op) { return effect_of(op) == Effect::value; }

// mov with a vector on either side, or of a vector register, moves register storage: the engine's (its shape, not
// a value). cvt of exotic types other than the forms above is not modelled; video forms as video_modelled says.
inline ValueForm value_form(const ir::Instruction& in) {
  using OK = ir::Operand::Kind;
  if (!is_value_opcode(in.op)) return ValueForm::none;
  const auto& o = in.operands;
  const auto& t = in.q.types;
  if (in.op == ir::Opcode::mov_) {
    if (in.q.vector_width > 1 || o.size() != 2 || o[0].kind == OK::Vector || o[1].kind == OK::Vector) return ValueForm::none;
  }
  if (in.op == ir::Opcode::cvt_) {
    if (narrow_cvt(in) || stochastic_cvt(in) || ue8m0_cvt(in) || fp8_pair_to_f16x2(in) || tf32_cvt(in)) return ValueForm::modelled;
    if (in.q.has(ir::Flag::pack)) return ir::cvt_pack_form(in) ? ValueForm::modelled : ValueForm::unmodelled;
    if (in.q.rounding == ir::Rounding::rs || t.size() != 2) return ValueForm::unmodelled;
    const bool packed = t[0].scalar == ir::ScalarType::f16x2 || t[0].scalar == ir::ScalarType::bf16x2;
    if (packed && (t[1].scalar != ir::ScalarType::f32 || o.size() < 3)) return ValueForm::unmodelled;
    if (ir::scalar_bits(t[0].scalar) > 64 || ir::scalar_bits(t[1].scalar) > 64) return ValueForm::unmodelled;
  }
  for (const auto& ty : t)
    if (exotic_type(ty.scalar)) return ValueForm::unmodelled;
  switch (in.op) {
    case ir::Opcode::lop3_: {  // lop3.b32 d, a, b, c, immLut; lop3.BoolOp.b32 d|p, a, b, c, immLut, q (9.7.8.6)
      const bool plain = o.size() == 5 && !in.q.bool_op;
      const bool with_predicate = o.size() == 6 && in.q.bool_op && o[0].kind == OK::PredPair;
      return (plain || with_predicate) && o[4].kind == OK::Immediate ? ValueForm::modelled : ValueForm::unmodelled;
    }
    default: break;
  }
  if (ir::opcode_group(in.op) == ir::OpcodeGroup::video_) return video_modelled(in) ? ValueForm::modelled : ValueForm::unmodelled;
  return ValueForm::modelled;
}

inline void set_form(Form& f, const ir::Instruction& in) {
  if (!in.q.types.empty()) {
    f.t0 = in.q.types[0].scalar;
    f.t1 = in.q.types.size() > 1 ? in.q.types[1].scalar : f.t0;
  }
  f.w0 = ir::scalar_bits(f.t0);
  f.w1 = ir::scalar_bits(f.t1);
  f.s0 = ir::is_signed_int(f.t0);
  f.s1 = ir::is_signed_int(f.t1);
  f.f0 = ir::is_float(f.t0);
  f.f1 = ir::is_float(f.t1);
  f.fmt0 = fp_format_of(f.t0);
  f.fmt1 = fp_format_of(f.t1);
  f.packed = f.t0 == ir::ScalarType::f16x2 || f.t0 == ir::ScalarType::bf16x2 || f.t0 == ir::ScalarType::f32x2;
  if (in.q.rounding) {
    f.has_rounding = true;
    f.mods.rnd = rounding_mode(*in.q.rounding);
  }
  f.mods.ftz = in.q.has(ir::Flag::ftz);
  f.mods.sat = in.q.has(ir::Flag::sat);
  f.mods.relu = in.q.has(ir::Flag::relu);
  f.value = value_form(in);
}
inline Form form_of(const ir::Instruction& in) {
  Form f;
  set_form(f, in);
  return f;
}

}  // namespace ptx::ops
