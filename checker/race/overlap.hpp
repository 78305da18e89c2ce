// When two memory accesses share a byte (ISA 8.7.1: conflicting accesses overlap), as one unsigned compare on the
// address difference: the simplifier cancels a shared base there, where two 64-bit sums and compares would stay
// (proofs/race.cpp proves it equal to the byte-wise definition).
#pragma once

#include <z3++.h>

namespace ptxcheck::race {

// [a, a + a_size) and [b, b + b_size) overlap iff a < b + b_size and b < a + a_size, i.e. -a_size < a - b < b_size:
// a - b + a_size - 1 lies in [0, a_size + b_size - 2]. Addresses and sizes are 64-bit, sizes at least 1.
inline z3::expr accesses_overlap(const z3::expr& a, const z3::expr& a_size, const z3::expr& b, const z3::expr& b_size) {
  const z3::expr one = a.ctx().bv_val(1, 64);
  return z3::ult((a - b).simplify() + (a_size - one).simplify(), (a_size + b_size - one).simplify());
}

}  // namespace ptxcheck::race
