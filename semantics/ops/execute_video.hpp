// execute_value for the video instructions (ISA 9.7.18): each form decoded by video_form.hpp and computed by its one
// definition in video.hpp (scalar, vset), video_mad.hpp (vmad) or video_simd.hpp (vop2, vop4).
#pragma once

#include "semantics/ops/execute_step.hpp"
#include "semantics/ops/video_form.hpp"

namespace ptx::ops {

// Every video operand is a 32-bit register or immediate; value_form has checked the operand counts (c is read when
// present: a scalar form reads it only for .op2 or d.dsel).
template <class D, class F> Executed execute_video(ValueStep<D, F>& x) {
  const D& d = x.d;
  const Val<D> c = x.operands() == 4 ? x.R(3, 32) : d.lit(32, 0);
  switch (ir::video_kind(x.in.op)) {
    case ir::VideoKind::scalar: x.W(video(d, scalar_video_form(x.in), x.R(1, 32), x.R(2, 32), c)); return Executed::done;
    case ir::VideoKind::mad: x.W(vmad(d, video_mad_form(x.in), x.R(1, 32), x.R(2, 32), c)); return Executed::done;
    case ir::VideoKind::simd2: case ir::VideoKind::simd4:
      x.W(video_simd(d, simd_video_form(x.in), x.R(1, 32), x.R(2, 32), c));
      return Executed::done;
    default: return Executed::unmodelled;
  }
}

}  // namespace ptx::ops
