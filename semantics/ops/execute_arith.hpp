// execute_value for ISA 9.7.1-9.7.5: integer, extended-precision and floating-point arithmetic, each form mapped
// to its one definition in semantics/ops.
#pragma once

#include "semantics/ops/execute_step.hpp"
#include "semantics/ops/float.hpp"
#include "semantics/ops/integer.hpp"

namespace ptx::ops {

// add, sub, addc, subc, mul, mad, madc, fma, mul24, mad24 (9.7.1.1-9.7.1.8, 9.7.2, 9.7.3.1-9.7.3.5, 9.7.4-5).
template <class D, class F> Executed execute_add_mul(ValueStep<D, F>& x) {
  const auto [d, fm, op, w, mods] = x.names();
  // (w: the packed type's whole width, 32 for .f16x2/.bf16x2, 64 for .f32x2.)
  auto fp2 = [&](auto&& fn) { return fm.packed ? packed2(d, x.R(1, w), x.R(2, w), fn) : fn(x.R(1, w), x.R(2, w)); };
  auto fp3 = [&](auto&& fn) {
    return fm.packed ? packed3(d, x.R(1, w), x.R(2, w), x.R(3, w), fn) : fn(x.R(1, w), x.R(2, w), x.R(3, w));
  };
  using V = Val<D>;
  switch (op) {
    case ir::Opcode::add_: case ir::Opcode::sub_: {
      const bool sub = op == ir::Opcode::sub_;
      if (fm.f0 && x.in.q.types.size() == 2) {  // add/sub.f32.{f16,bf16} d, a, c (ISA 9.7.5.1-2)
        x.W(fadd_mixed(d, fm.fmt1, mods, sub, x.R(1, 16), x.R(2, 32)));
      } else if (fm.f0) {
        x.W(fp2([&](V a, V b) { return sub ? fsub(d, fm.fmt0, mods, a, b) : fadd(d, fm.fmt0, mods, a, b); }));
      } else if (x.has(ir::Flag::cc)) {
        auto r = sub ? sub_carry(d, x.R(1, w), x.R(2, w), d.lit(1, 1)) : add_carry(d, x.R(1, w), x.R(2, w), d.lit(1, 0));
        x.W(r.value);
        x.frame.set_carry(r.carry);
      } else if (mods.sat) {
        x.W(add_sat_s(d, x.R(1, w, true), x.R(2, w, true), sub));
      } else {
        x.W(sub ? ops::sub(d, x.R(1, w), x.R(2, w)) : ops::add(d, x.R(1, w), x.R(2, w)), fm.s0);
      }
      return Executed::done;
    }
    case ir::Opcode::addc_: case ir::Opcode::subc_: {
      auto r = op == ir::Opcode::subc_ ? sub_carry(d, x.R(1, w), x.R(2, w), x.frame.carry())
                                       : add_carry(d, x.R(1, w), x.R(2, w), x.frame.carry());
      x.W(r.value);
      if (x.has(ir::Flag::cc)) x.frame.set_carry(r.carry);
      return Executed::done;
    }
    case ir::Opcode::mul_:
      if (fm.f0) x.W(fp2([&](V a, V b) { return fmul(d, fm.fmt0, mods, a, b); }));
      else if (x.has(ir::Flag::wide)) x.W(mul_wide(d, fm.s0, x.R(1, w, fm.s0), x.R(2, w, fm.s0)));
      else if (x.has(ir::Flag::hi)) x.W(mul_hi(d, fm.s0, x.R(1, w, fm.s0), x.R(2, w, fm.s0)));
      else x.W(mul_lo(d, x.R(1, w), x.R(2, w)), fm.s0);
      return Executed::done;
    case ir::Opcode::mad_: case ir::Opcode::madc_: case ir::Opcode::fma_: {
      if (fm.f0 && x.in.q.types.size() == 2) {  // fma.rnd.f32.{f16,bf16} d, a, b, c (ISA 9.7.5.3)
        x.W(ffma_mixed(d, fm.fmt1, mods, x.R(1, 16), x.R(2, 16), x.R(3, 32)));
        return Executed::done;
      }
      if (fm.f0) {
        x.W(fp3([&](V a, V b, V c) { return ffma(d, fm.fmt0, mods, a, b, c); }));
        return Executed::done;
      }
      const MulPart part = x.has(ir::Flag::wide) ? MulPart::wide : x.has(ir::Flag::hi) ? MulPart::hi : MulPart::lo;
      const V p = mul_part(d, part, fm.s0, x.R(1, w, fm.s0), x.R(2, w, fm.s0));
      const V c = x.R(3, d.width(p), fm.s0);
      if (op == ir::Opcode::madc_ || x.has(ir::Flag::cc)) {
        auto r = add_carry(d, p, c, op == ir::Opcode::madc_ ? x.frame.carry() : d.lit(1, 0));
        x.W(r.value);
        if (x.has(ir::Flag::cc)) x.frame.set_carry(r.carry);
      } else if (mods.sat && part == MulPart::hi) {
        x.W(add_sat_s(d, p, c));
      } else {
        x.W(ops::add(d, p, c), fm.s0);
      }
      return Executed::done;
    }
    case ir::Opcode::mul24_: case ir::Opcode::mad24_: {
      V r = mul24(d, fm.s0, x.has(ir::Flag::hi), x.R(1, 32), x.R(2, 32));
      if (op == ir::Opcode::mad24_) r = mods.sat ? add_sat_s(d, r, x.R(3, 32)) : ops::add(d, r, x.R(3, 32));
      x.W(r);
      return Executed::done;
    }
    default: return Executed::other;
  }
}

// sad, div, rem, abs, neg, min, max (9.7.1.9-9.7.1.14, 9.7.3.6-9.7.3.11, 9.7.4.5-9.7.4.8).
template <class D, class F> Executed execute_divide_select(ValueStep<D, F>& x) {
  const auto [d, fm, op, w, mods] = x.names();
  using V = Val<D>;
  switch (op) {
    case ir::Opcode::sad_: x.W(ops::sad(d, fm.s0, x.R(1, w), x.R(2, w), x.R(3, w))); return Executed::done;
    case ir::Opcode::div_:
      if (!fm.f0) x.W(ops::div(d, fm.s0, x.R(1, w), x.R(2, w)));
      else if (x.has(ir::Flag::approx) || x.has(ir::Flag::full) || (!fm.has_rounding && fm.fmt0 == domain::FpFormat::f32))
        x.W(fapprox(d, domain::Approx::div, fm.fmt0, mods, x.R(1, w), x.R(2, w)));
      else
        x.W(fdiv(d, fm.fmt0, mods, x.R(1, w), x.R(2, w)));
      return Executed::done;
    case ir::Opcode::rem_: x.W(ops::rem(d, fm.s0, x.R(1, w), x.R(2, w))); return Executed::done;
    case ir::Opcode::abs_: case ir::Opcode::neg_: {
      const bool is_abs = op == ir::Opcode::abs_;
      if (!fm.f0) {
        x.W(is_abs ? ops::abs(d, x.R(1, w)) : ops::neg(d, x.R(1, w)));
        return Executed::done;
      }
      auto one = [&](V a) { return is_abs ? fabs(d, fm.fmt0, mods.ftz, a) : fneg(d, fm.fmt0, mods.ftz, a); };
      if (fm.packed) {
        const V a = x.R(1, 32);
        x.W(d.concat(one(d.extract(a, 31, 16)), one(d.extract(a, 15, 0))));
      } else {
        x.W(one(x.R(1, w)));
      }
      return Executed::done;
    }
    case ir::Opcode::min_: case ir::Opcode::max_: {
      const bool is_max = op == ir::Opcode::max_;
      const bool three = x.operands() == 4;  // min/max.{s32,u32,...} d, a, b, c (9.7.1.12-13)
      if (fm.f0) {
        const MinMaxMods mm{mods.ftz, x.has(ir::Flag::NaN), x.has(ir::Flag::abs), x.has(ir::Flag::xorsign)};
        auto one = [&](V a, V b) { return fminmax(d, fm.fmt0, is_max, mm, a, b); };
        V r = fm.packed ? packed2(d, x.R(1, 32), x.R(2, 32), one) : one(x.R(1, w), x.R(2, w));
        if (three) r = one(r, x.R(3, w));
        x.W(r);
        return Executed::done;
      }
      auto one = [&](V a, V b) { return is_max ? ops::max(d, fm.s0, a, b) : ops::min(d, fm.s0, a, b); };
      V r = one(x.R(1, w), x.R(2, w));
      if (three) r = one(r, x.R(3, w));
      if (x.has(ir::Flag::relu)) r = ops::max(d, true, r, d.lit(w, 0));
      x.W(r);
      return Executed::done;
    }
    default: return Executed::other;
  }
}

// Bit manipulation and dot products (9.7.1.15-9.7.1.24).
template <class D, class F> Executed execute_bits(ValueStep<D, F>& x) {
  const auto [d, fm, op, w, mods] = x.names();
  switch (x.in.op) {
    case ir::Opcode::popc_: x.W(popc(d, x.R(1, w))); return Executed::done;
    case ir::Opcode::clz_: x.W(clz(d, x.R(1, w))); return Executed::done;
    case ir::Opcode::bfind_: x.W(bfind(d, fm.s0, x.has(ir::Flag::shiftamt), x.R(1, w))); return Executed::done;
    case ir::Opcode::brev_: x.W(brev(d, x.R(1, w))); return Executed::done;
    case ir::Opcode::fns_: x.W(fns(d, x.R(1, 32), x.R(2, 32), x.R(3, 32))); return Executed::done;
    case ir::Opcode::bfe_: x.W(bfe(d, fm.s0, x.R(1, w), x.R(2, 32), x.R(3, 32))); return Executed::done;
    case ir::Opcode::bfi_: x.W(bfi(d, x.R(1, w), x.R(2, w), x.R(3, 32), x.R(4, 32))); return Executed::done;
    case ir::Opcode::szext_: x.W(szext(d, fm.s0, x.has(ir::Flag::clamp), x.R(1, 32), x.R(2, 32))); return Executed::done;
    case ir::Opcode::bmsk_: x.W(bmsk(d, x.has(ir::Flag::clamp), x.R(1, 32), x.R(2, 32))); return Executed::done;
    case ir::Opcode::dp4a_: x.W(dp4a(d, fm.s0, fm.s1, x.R(1, 32), x.R(2, 32), x.R(3, 32))); return Executed::done;
    case ir::Opcode::dp2a_:
      x.W(dp2a(d, fm.s0, fm.s1, x.has(ir::Flag::hi), x.R(1, 32), x.R(2, 32), x.R(3, 32)));
      return Executed::done;
    default: return Executed::other;
  }
}

// testp, copysign and the unary float functions (9.7.3.12-9.7.3.22, 9.7.4.9-10).
template <class D, class F> Executed execute_float_functions(ValueStep<D, F>& x) {
  const auto [d, fm, op, w, mods] = x.names();
  using V = Val<D>;
  switch (op) {
    case ir::Opcode::testp_: {
      const TestpOp t = x.has(ir::Flag::finite) ? TestpOp::finite : x.has(ir::Flag::infinite) ? TestpOp::infinite
                      : x.has(ir::Flag::number) ? TestpOp::number : x.has(ir::Flag::notanumber) ? TestpOp::notanumber
                      : x.has(ir::Flag::normal) ? TestpOp::normal : TestpOp::subnormal;
      x.W(testp(d, fm.fmt0, t, x.R(1, w)));
      return Executed::done;
    }
    case ir::Opcode::copysign_: x.W(ops::copysign(d, fm.fmt0, x.R(1, w), x.R(2, w))); return Executed::done;
    case ir::Opcode::rcp_: case ir::Opcode::sqrt_: case ir::Opcode::rsqrt_: case ir::Opcode::sin_: case ir::Opcode::cos_:
    case ir::Opcode::lg2_: case ir::Opcode::ex2_: case ir::Opcode::tanh_: {
      using A = domain::Approx;
      const A k = op == ir::Opcode::rcp_ ? A::rcp : op == ir::Opcode::sqrt_ ? A::sqrt : op == ir::Opcode::rsqrt_ ? A::rsqrt
                : op == ir::Opcode::sin_ ? A::sin : op == ir::Opcode::cos_ ? A::cos : op == ir::Opcode::lg2_ ? A::lg2
                : op == ir::Opcode::ex2_ ? A::ex2 : A::tanh;
      auto one = [&](V a) {
        if (x.has(ir::Flag::approx) || !fm.has_rounding) return fapprox(d, k, fm.fmt0, mods, a, a);
        return op == ir::Opcode::rcp_ ? frcp(d, fm.fmt0, mods, a) : fsqrt(d, fm.fmt0, mods, a);
      };
      if (fm.packed) {
        const V a = x.R(1, 32);
        x.W(d.concat(one(d.extract(a, 31, 16)), one(d.extract(a, 15, 0))));
      } else {
        x.W(one(x.R(1, w)));
      }
      return Executed::done;
    }
    default: return Executed::other;
  }
}

template <class D, class F> Executed execute_arith(ValueStep<D, F>& x) {
  for (auto step : {&execute_add_mul<D, F>, &execute_divide_select<D, F>, &execute_bits<D, F>, &execute_float_functions<D, F>})
    if (const Executed e = step(x); e != Executed::other) return e;
  return Executed::unmodelled;  // an arithmetic opcode none of the above names: value_form and this file disagree
}

}  // namespace ptx::ops
