// What execute_value's group functions share: the outcome, and one instruction's operands read and written
// through the engine's frame (semantics/ops/execute.hpp describes the frame).
#pragma once

#include "semantics/ops/form.hpp"

#include <cstddef>

namespace ptx::ops {

enum class Executed {
  done,        // the destination registers hold the result
  other,       // not a register-value instruction: the engine runs it
  unmodelled,  // a register-value form the dispatcher (or this frame's domain) does not compute
};

// What every group function reads of a step, bound in one line: `const auto [d, fm, op, w, mods] = x.names();`.
template <class D> struct StepNames {
  const D& d;
  const Form& fm;
  ir::Opcode op;
  unsigned w;  // the first type's width (Form::w0), the operands' width in most forms
  const FpMods& mods;
};

template <class D, class F> struct ValueStep {
  const D& d;
  F& frame;
  const ir::Instruction& in;
  const Form& form;

  Val<D> R(std::size_t k, unsigned width, bool is_signed = false) { return frame.read(in.operands[k], width, is_signed); }
  void W(const Val<D>& v, bool is_signed = false) { frame.write(in.operands[0], v, is_signed); }
  StepNames<D> names() const { return {d, form, in.op, form.w0, form.mods}; }
  std::size_t operands() const { return in.operands.size(); }
  bool has(ir::Flag f) const { return in.q.has(f); }
};

}  // namespace ptx::ops
