// The video instructions' forms (ISA 9.7.18) decoded from an instruction's qualifiers and operand selectors into
// the descriptions semantics/ops/video*.hpp compute, and which forms the dispatcher models (video_value_form).
#pragma once

#include "semantics/ir/video_select.hpp"
#include "semantics/ops/video.hpp"
#include "semantics/ops/video_mad.hpp"
#include "semantics/ops/video_simd.hpp"

namespace ptx::ops {

// .b0-.b3 / .h0 / .h1 of a scalar video operand (9.7.18.1); the whole word without one.
inline VideoPart video_part(const ir::VideoSelect& s) {
  if (s.empty()) return {};
  const unsigned bits = s.unit == 'b' ? 8 : 16;
  return {s.digit[0] * bits, bits};
}

inline bool type_signed(const ir::Instruction& in, std::size_t i) { return ir::is_signed_int(in.q.types[i].scalar); }

inline VideoSecOp video_sec_op(const ir::Instruction& in) {
  if (!in.q.atom_op) return VideoSecOp::none;
  switch (*in.q.atom_op) {
    case ir::AtomOp::add: return VideoSecOp::add;
    case ir::AtomOp::min: return VideoSecOp::min;
    default: return VideoSecOp::max;
  }
}

inline VideoOp video_op(ir::Opcode op) {
  using O = ir::Opcode;
  switch (op) {
    case O::vadd_: case O::vadd2_: case O::vadd4_: return VideoOp::add;
    case O::vsub_: case O::vsub2_: case O::vsub4_: return VideoOp::sub;
    case O::vabsdiff_: case O::vabsdiff2_: case O::vabsdiff4_: return VideoOp::absdiff;
    case O::vmin_: case O::vmin2_: case O::vmin4_: return VideoOp::min;
    case O::vmax_: case O::vmax2_: case O::vmax4_: return VideoOp::max;
    case O::vshl_: return VideoOp::shl;
    case O::vshr_: return VideoOp::shr;
    case O::vavrg2_: case O::vavrg4_: return VideoOp::avrg;
    default: return VideoOp::set;  // vset, vset2, vset4 (vmad has its own form, video_mad_form)
  }
}

// vop.dtype.atype.btype (vset.atype.btype: d and c unsigned, 9.7.18.1.4).
inline ScalarVideo scalar_video_form(const ir::Instruction& in) {
  ScalarVideo f;
  f.op = video_op(in.op);
  const std::size_t a = f.op == VideoOp::set ? 0 : 1;  // the first source type's position
  f.d_signed = f.op != VideoOp::set && type_signed(in, 0);
  f.a_signed = type_signed(in, a);
  f.b_signed = type_signed(in, a + 1);
  f.sat = in.q.has(ir::Flag::sat);
  f.clamp = in.q.has(ir::Flag::clamp);
  if (in.q.compare) f.cmp = *in.q.compare;
  f.sec = video_sec_op(in);
  f.asel = video_part(in.operands[1].select);
  f.bsel = video_part(in.operands[2].select);
  if (!in.operands[0].select.empty()) f.dsel = video_part(in.operands[0].select);
  return f;
}

inline VideoMad video_mad_form(const ir::Instruction& in) {
  const auto& o = in.operands;
  VideoMad f;
  f.a_signed = type_signed(in, 1);
  f.b_signed = type_signed(in, 2);
  f.negate_product = o[1].minus != o[2].minus;
  f.negate_c = o[3].minus;
  f.po = in.q.has(ir::Flag::po);
  f.shift = in.q.has(ir::Flag::shr7) ? 7 : in.q.has(ir::Flag::shr15) ? 15 : 0;
  f.sat = in.q.has(ir::Flag::sat);
  f.asel = video_part(o[1].select);
  f.bsel = video_part(o[2].select);
  return f;
}

// .hxy / .bxyzw: the digits name lanes from the most significant lane down; without one, a's lanes (.h10, .b3210)
// or b's (.h32, .b7654). A mask's digits are the lanes it sets (.h10 = both, .b31 = lanes 3 and 1).
inline SimdVideo simd_video_form(const ir::Instruction& in) {
  const auto& o = in.operands;
  SimdVideo f;
  f.op = video_op(in.op);
  f.lanes = ir::video_kind(in.op) == ir::VideoKind::simd2 ? 2 : 4;
  const std::size_t a = f.op == VideoOp::set ? 0 : 1;
  f.d_signed = f.op != VideoOp::set && type_signed(in, 0);
  f.a_signed = type_signed(in, a);
  f.b_signed = type_signed(in, a + 1);
  f.sat = in.q.has(ir::Flag::sat);
  f.accumulate = in.q.atom_op.has_value();
  if (in.q.compare) f.cmp = *in.q.compare;
  auto lanes_of = [&](const ir::VideoSelect& s, unsigned first, std::array<std::uint8_t, 4>& out) {
    for (unsigned i = 0; i < f.lanes; ++i)
      out[i] = static_cast<std::uint8_t>(s.empty() ? first + i : s.digit[f.lanes - 1 - i]);
  };
  lanes_of(o[1].select, 0, f.asel);
  lanes_of(o[2].select, f.lanes, f.bsel);
  f.mask = (1u << f.lanes) - 1;
  if (!o[0].select.empty()) {
    f.mask = 0;
    for (unsigned i = 0; i < o[0].select.count; ++i) f.mask |= 1u << o[0].select.digit[i];
  }
  return f;
}

// Which video forms execute_video computes: every form the syntax blocks allow (video_form_error says which those
// are; the builder has checked the operand counts, and the selectors operand by operand).
inline bool video_modelled(const ir::Instruction& in) {
  const std::size_t n = in.operands.size();
  const bool counts = ir::video_kind(in.op) == ir::VideoKind::scalar ? n == 3 || n == 4 : n == 4;
  if (!counts || !ir::video_form_error(in).empty()) return false;
  for (std::size_t k = 0; k < n; ++k)  // (an engine that builds its own instruction, as litmus does, is checked too)
    if (!ir::video_operand_error(in, k).empty()) return false;
  return true;
}

}  // namespace ptx::ops
