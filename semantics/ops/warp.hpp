// Warp-level data exchange (ISA 9.7.9.6 shfl.sync: the source lane a thread copies from; 9.7.13.9 vote.sync: the
// result from the lanes' predicates; 9.7.13.12 redux.sync: the reduction's step; 9.7.13.14 elect.sync: the
// results given the leader), written once over a value domain D, for the interpreter and the race checker's
// symbolic encoding (which forwards the other lanes' values).
#pragma once

#include "semantics/ir/ir.hpp"
#include "semantics/ops/atomic.hpp"
#include "semantics/ops/integer.hpp"

namespace ptx::ops {

enum class ShflMode { up, down, bfly, idx };
inline ShflMode shfl_mode(const ir::Qualifiers& q) {
  return q.has(ir::Flag::up) ? ShflMode::up : q.has(ir::Flag::down) ? ShflMode::down : q.has(ir::Flag::bfly) ? ShflMode::bfly : ShflMode::idx;
}

template <class D> struct ShflSource {
  Val<D> lane;      // 32-bit j: the lane whose `a` the thread copies (its own lane when out of range)
  Val<D> in_range;  // 1-bit pval, the optional destination predicate
};

// 9.7.9.6, Semantics: j from the thread's own lane, b (lane or offset) and c (segment mask c[12:8], clamp c[4:0]);
// out of range, j is the thread's own lane. Every operand is 32-bit; j is compared as a signed number (lane - b
// is below zero when .up reaches past lane 0).
template <class D> ShflSource<D> shfl_source(const D& d, ShflMode mode, const Val<D>& lane, const Val<D>& b, const Val<D>& c) {
  auto k = [&](unsigned x) { return d.lit(32, x); };
  const Val<D> bval = d.band(b, k(31)), cval = d.band(c, k(31)), segmask = d.band(d.lshr(c, k(8)), k(31));
  const Val<D> max_lane = d.bor(d.band(lane, segmask), d.band(cval, d.bnot(segmask)));
  const Val<D> min_lane = d.band(lane, segmask);
  Val<D> j = lane, pval = d.boolean(false);
  switch (mode) {
    case ShflMode::up: j = d.sub(lane, bval); pval = d.sle(max_lane, j); break;
    case ShflMode::down: j = d.add(lane, bval); pval = d.sle(j, max_lane); break;
    case ShflMode::bfly: j = d.bxor(lane, bval); pval = d.sle(j, max_lane); break;
    case ShflMode::idx: j = d.bor(min_lane, d.band(bval, d.bnot(segmask))); pval = d.sle(j, max_lane); break;
  }
  return {d.ite(pval, j, lane), pval};
}

enum class VoteMode { ballot, all, any, uni };
inline VoteMode vote_mode(const ir::Qualifiers& q) {
  if (q.has(ir::Flag::ballot)) return VoteMode::ballot;
  if (q.has(ir::Flag::all) || q.atom_op == ir::AtomOp::and_) return VoteMode::all;
  if (q.has(ir::Flag::any) || q.atom_op == ir::AtomOp::or_) return VoteMode::any;
  return VoteMode::uni;
}

// 9.7.13.9: `ballot` holds lane j's predicate in bit j (0 for a lane not taking part), `group` the lanes taking
// part (the non-exited threads of membermask). The ballot form is the 32-bit ballot; the others are 1-bit.
template <class D> Val<D> vote_result(const D& d, VoteMode mode, const Val<D>& ballot, const Val<D>& group) {
  const Val<D> none = d.lit(32, 0);
  switch (mode) {
    case VoteMode::ballot: return ballot;
    case VoteMode::all: return d.eq(ballot, group);
    case VoteMode::any: return d.ne(ballot, none);
    case VoteMode::uni: break;
  }
  return d.bor(d.eq(ballot, none), d.eq(ballot, group));
}

// 9.7.13.12 redux.sync: .add (truncated to 32 bits), .min/.max by the type (.s32 signed, .u32 unsigned; .f32 as
// min/max, +0.0 > -0.0), .and/.or/.xor. For .f32, .abs reduces the inputs' absolute values and .NaN makes any NaN
// input give the canonical NaN; without it NaN inputs are left out, and all NaN gives the canonical NaN. The
// integer steps are atom's (9.7.13.5), the float ones min's and max's (9.7.3.11-12).
struct ReduxForm {
  AtomicForm atomic;
  MinMaxMods float_mods;
};
inline ReduxForm redux_form(const ir::Instruction& in) {
  ReduxForm f{atomic_form(in.q.atom_op.value_or(ir::AtomOp::add), in.q.types.empty() ? ir::ScalarType::b32 : in.q.types.back().scalar), {}};
  f.float_mods.abs = in.q.has(ir::Flag::abs);
  f.float_mods.nan = in.q.has(ir::Flag::NaN);
  return f;
}
// The reduction of one lane's value alone: itself, or for .f32 min(a, a) (|a| under .abs, a NaN canonical).
template <class D> Val<D> redux_first(const D& d, const ReduxForm& f, const Val<D>& a) {
  if (!f.atomic.fp) return a;
  return fminmax(d, *f.atomic.fp, f.atomic.op == ir::AtomOp::max, f.float_mods, a, a);
}
// The reduction so far (`acc`) with one more lane's value.
template <class D> Val<D> redux_step(const D& d, const ReduxForm& f, const Val<D>& acc, const Val<D>& a) {
  if (!f.atomic.fp) return atomic_written(d, f.atomic, acc, a, acc);
  return fminmax(d, *f.atomic.fp, f.atomic.op == ir::AtomOp::max, f.float_mods, acc, a);
}

// 9.7.13.14 elect.sync d|p: d is the leader's laneid in every lane, p true in the leader only. Which lane leads is
// the engine's: "deterministically, i.e. the same leader thread is elected for the same membermask every time",
// one of the lanes taking part.
template <class D> struct Elected {
  Val<D> leader;     // 32-bit laneid
  Val<D> is_leader;  // 1-bit
};
template <class D> Elected<D> elect_result(const D& d, const Val<D>& leader, const Val<D>& lane) {
  return {leader, d.eq(leader, lane)};
}

}  // namespace ptx::ops
