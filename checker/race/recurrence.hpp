// Closed forms of loop recurrences for the race checker's loop abstraction (encode.cpp Encoder::recurrence): the
// value a register holds at the header of iteration k when every iteration applies one step g to it. Bounded
// theorem race.loop_recurrence_closed_forms (proofs/race.cpp) checks them against g applied k times.
#pragma once

#include <z3++.h>

#include <vector>

namespace ptxcheck::race {

enum class ShiftKind { left, logical_right, arithmetic_right };

// One step: x shifted by the constant c (shl, shr.u, shr.s; ISA 9.7.8.7-8: an amount of the width or more gives 0,
// or the sign in every bit for shr.s).
inline z3::expr shift_step(ShiftKind kind, const z3::expr& x, unsigned c) {
  const z3::expr amount = x.ctx().bv_val(c, x.get_sort().bv_size());
  return kind == ShiftKind::left ? z3::shl(x, amount) : kind == ShiftKind::logical_right ? z3::lshr(x, amount) : z3::ashr(x, amount);
}

// x after k steps (k a 64-bit iteration count): one shift by k*c, saturated at the width, since shifting by the
// width or more and shifting again gives what shifting by the width gives.
inline z3::expr repeated_shift(ShiftKind kind, const z3::expr& x, unsigned c, const z3::expr& k) {
  z3::context& ctx = x.ctx();
  const unsigned w = x.get_sort().bv_size();
  const z3::expr k_capped = z3::ite(z3::ult(k, ctx.bv_val(64, 64)), k, ctx.bv_val(64, 64));  // (64 * c cannot wrap)
  const z3::expr total = k_capped * ctx.bv_val(c, 64);
  const z3::expr saturated = z3::ite(z3::ult(total, ctx.bv_val(w, 64)), total, ctx.bv_val(w, 64));
  const z3::expr amount = w == 64 ? saturated : saturated.extract(w - 1, 0);
  return kind == ShiftKind::left ? z3::shl(x, amount) : kind == ShiftKind::logical_right ? z3::lshr(x, amount) : z3::ashr(x, amount);
}

// x after k steps of an involution g (g(g(x)) = x), given gx = g(x): x when k is even, g(x) when it is odd.
inline z3::expr repeated_involution(const z3::expr& x, const z3::expr& gx, const z3::expr& k) {
  return z3::ite(k.extract(0, 0) == x.ctx().bv_val(0, 1), x, gx);
}

// Registers r0 .. r(p-1) that each iteration rotates (r_i takes r_(i+1 mod p)'s value, ping-pong buffers): r0 after k
// steps, given the entry values `inits` in cycle order: inits[k mod p].
inline z3::expr rotated(const std::vector<z3::expr>& inits, const z3::expr& k) {
  z3::context& ctx = k.ctx();
  const auto p = static_cast<unsigned>(inits.size());
  const z3::expr phase = z3::urem(k, ctx.bv_val(p, 64));
  z3::expr value = inits[p - 1];
  for (unsigned j = p - 1; j-- > 0;) value = z3::ite(phase == ctx.bv_val(j, 64), inits[j], value);
  return value;
}

}  // namespace ptxcheck::race
