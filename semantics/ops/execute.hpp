// One dispatcher for the instructions whose only effect is a value in the executing thread's registers (ISA
// 9.7.1-9.7.8, mov/prmt/cvt of 9.7.9, 9.7.18 video): execute_value(domain, frame, instruction, form). The
// interpreter runs it over domain::Concrete, the race encoder over domain::Symbolic; each engine supplies a frame
// for its registers and keeps only what is its own (memory, warps, barriers, address windows).
//
// A frame F provides:
//   V read(const ir::Operand& o, unsigned width, bool is_signed)  operand o as a width-bit value
//   void write(const ir::Operand& o, V v, bool is_signed)          destination o (fitted to its register)
//   void write_register(std::int32_t reg, V v)                     one predicate of a `p|q` destination
//   V carry(); void set_carry(V c)                                 CC.CF of ISA 9.7.2 (1 bit)
//   static constexpr bool models_float                             whether float forms are computed
#pragma once

#include "semantics/ops/execute_arith.hpp"
#include "semantics/ops/execute_convert.hpp"
#include "semantics/ops/execute_select.hpp"
#include "semantics/ops/execute_video.hpp"

namespace ptx::ops {

// `form` is form_of(in) (engines keep it decoded); what execute_value computes is value_form(in) == modelled,
// which form.value holds.
template <class D, class F> Executed execute_value(const D& d, F& frame, const ir::Instruction& in, const Form& form) {
  if (form.value == ValueForm::none) return Executed::other;
  if (form.value == ValueForm::unmodelled) return Executed::unmodelled;
  if constexpr (!F::models_float)
    if (form.f0 || form.f1) return Executed::unmodelled;
  ValueStep<D, F> x{d, frame, in, form};
  switch (ir::opcode_group(in.op)) {
    case ir::OpcodeGroup::integer_: case ir::OpcodeGroup::float_: return execute_arith(x);
    case ir::OpcodeGroup::compare_: return execute_compare(x);
    case ir::OpcodeGroup::logic_: return execute_logic(x);
    case ir::OpcodeGroup::video_: return execute_video(x);
    default: return execute_move_convert(x);  // mov, prmt, cvt
  }
}

}  // namespace ptx::ops
