// execute_value for ISA 9.7.6-9.7.8: comparison and selection (setp, set, selp, slct) and logic and shift.
#pragma once

#include "semantics/ops/compare.hpp"
#include "semantics/ops/execute_step.hpp"
#include "semantics/ops/float.hpp"
#include "semantics/ops/logic.hpp"

namespace ptx::ops {

// setp.CmpOp{.BoolOp}.type p[|q], a, b{, {!}c} (9.7.6.1; .f16x2/.bf16x2: 9.7.4.11, p from the low halves, q from
// the high) and set.CmpOp{.BoolOp}.dtype.stype d, a, b{, {!}c} (9.7.6.2: all ones or 1.0, per half for packed d).
template <class D, class F> Executed execute_setp_set(ValueStep<D, F>& x) {
  const auto [d, fm, op, w, mods] = x.names();
  const auto& o = x.in.operands;
  using V = Val<D>;
  using ST = ir::ScalarType;
  const bool is_set = x.in.op == ir::Opcode::set_;
  const ST st = is_set ? fm.t1 : fm.t0;  // source type
  const unsigned sw = ir::scalar_bits(st);
  const bool sf = ir::is_float(st), spacked = st == ST::f16x2 || st == ST::bf16x2;
  const domain::FpFormat sfmt = is_set ? fm.fmt1 : fm.fmt0;
  const ir::CompareOp cmp = x.in.q.compare.value_or(ir::CompareOp::eq);
  auto compare = [&](V a, V b) {
    if (!sf) return compare_int(d, cmp, ir::is_signed_int(st), a, b);
    if (mods.ftz) a = flush_subnormal(d, sfmt, a), b = flush_subnormal(d, sfmt, b);
    return compare_float(d, sfmt, cmp, a, b);
  };
  const V a = x.R(1, sw), b = x.R(2, sw);
  const bool with_c = o.size() > 3;
  const V c = with_c ? x.R(3, 1) : d.lit(1, 0);
  auto finish = [&](V r) { return with_c && x.in.q.bool_op ? combine(d, *x.in.q.bool_op, r, c) : r; };
  const bool pair = o[0].kind == ir::Operand::Kind::PredPair;
  auto write_pair = [&](V p, V q) {  // p|q (either may be the sink `_`: register -1)
    if (o[0].reg >= 0) x.frame.write_register(o[0].reg, p);
    if (o[0].reg2 >= 0) x.frame.write_register(o[0].reg2, q);
  };
  auto halves = [&](auto&& fn) {
    return std::pair{fn(compare(d.extract(a, 15, 0), d.extract(b, 15, 0))), fn(compare(d.extract(a, 31, 16), d.extract(b, 31, 16)))};
  };
  if (!is_set) {
    if (spacked) {
      const auto [lo, hi] = halves(finish);
      if (pair) write_pair(lo, hi);
      else x.W(lo);
    } else {
      const V r = compare(a, b);
      if (pair) write_pair(finish(r), finish(d.bnot(r)));  // q: the negated comparison, combined with c
      else x.W(finish(r));
    }
    return Executed::done;
  }
  auto encode = [&](V r, ST dt, unsigned bits) {
    const std::uint64_t one = ir::is_float(dt) ? fp_one(fp_format_of(dt)) : static_cast<std::uint64_t>(domain::mask_of(bits));
    return d.ite(r, d.lit(bits, one), d.lit(bits, 0));
  };
  if (spacked) {
    const auto [lo, hi] = halves(finish);
    const ST half = fm.t0 == ST::f16x2 ? ST::f16 : fm.t0 == ST::bf16x2 ? ST::bf16 : ST::u16;
    x.W(d.concat(encode(hi, half, 16), encode(lo, half, 16)));
  } else {
    x.W(encode(finish(compare(a, b)), fm.t0, fm.w0));
  }
  return Executed::done;
}

template <class D, class F> Executed execute_compare(ValueStep<D, F>& x) {
  const auto [d, fm, op, w, mods] = x.names();
  switch (x.in.op) {
    case ir::Opcode::setp_: case ir::Opcode::set_: return execute_setp_set(x);
    case ir::Opcode::selp_: x.W(selp(d, x.R(1, w), x.R(2, w), x.R(3, 1))); return Executed::done;
    case ir::Opcode::slct_: x.W(slct(d, fm.f1, mods.ftz, x.R(1, w), x.R(2, w), x.R(3, 32))); return Executed::done;
    default: return Executed::unmodelled;
  }
}

// and, or, xor, not, cnot, lop3 (with .BoolOp too), shf, shl, shr (9.7.8).
template <class D, class F> Executed execute_logic(ValueStep<D, F>& x) {
  const auto [d, fm, op, w, mods] = x.names();
  switch (x.in.op) {
    case ir::Opcode::and_: x.W(and_(d, x.R(1, w), x.R(2, w))); return Executed::done;
    case ir::Opcode::or_: x.W(or_(d, x.R(1, w), x.R(2, w))); return Executed::done;
    case ir::Opcode::xor_: x.W(xor_(d, x.R(1, w), x.R(2, w))); return Executed::done;
    case ir::Opcode::not_: x.W(not_(d, x.R(1, w))); return Executed::done;
    case ir::Opcode::cnot_: x.W(cnot(d, x.R(1, w))); return Executed::done;
    case ir::Opcode::lop3_: {  // immLut is an integer constant (value_form asks for an immediate)
      const Val<D> r = lop3(d, x.R(1, w), x.R(2, w), x.R(3, w), static_cast<unsigned>(x.in.operands[4].imm & 0xff));
      const auto& dst = x.in.operands[0];
      if (dst.kind != ir::Operand::Kind::PredPair) {
        x.W(r);
        return Executed::done;
      }
      // lop3.BoolOp: "p = (d != 0) BoolOp q;" (d may be the sink `_`, 9.7.8.6: register -1)
      if (dst.reg >= 0) x.frame.write_register(dst.reg, r);
      if (dst.reg2 >= 0) x.frame.write_register(dst.reg2, combine(d, *x.in.q.bool_op, d.bnot(d.eq(r, d.lit(w, 0))), x.R(5, 1)));
      return Executed::done;
    }
    case ir::Opcode::shf_:
      x.W(shf(d, x.has(ir::Flag::l), x.has(ir::Flag::clamp), x.R(1, 32), x.R(2, 32), x.R(3, 32)));
      return Executed::done;
    case ir::Opcode::shl_: x.W(shl(d, x.R(1, w), x.R(2, 32))); return Executed::done;
    case ir::Opcode::shr_: x.W(shr(d, fm.s0, x.R(1, w), x.R(2, 32)), fm.s0); return Executed::done;
    default: return Executed::unmodelled;
  }
}

}  // namespace ptx::ops
