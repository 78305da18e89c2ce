// Theorems about the race checker's own encodings (checker/race): exhaustive over bit-vector addresses and sizes.
#include "checker/race/overlap.hpp"
#include "proofs/families.hpp"
#include "proofs/solver.hpp"

namespace ptxcheck::proofs {
namespace {

// race::accesses_overlap against the definition, ISA 8.7.1 "overlapping": some byte x with a <= x < a + sa and
// b <= x < b + sb. With both ranges inside the address space (no wrap-around), that is a < b + sb and b < a + sa.
ProofResult overlap_is_shared_byte(const Budget& budget) {
  z3::context ctx;
  const z3::expr a = ctx.bv_const("a", 64), b = ctx.bv_const("b", 64);
  const z3::expr sa = ctx.bv_const("sa", 64), sb = ctx.bv_const("sb", 64);
  const z3::expr one = ctx.bv_val(1, 64), max_size = ctx.bv_val(1u << 16, 64);
  const z3::expr sizes = z3::uge(sa, one) && z3::ule(sa, max_size) && z3::uge(sb, one) && z3::ule(sb, max_size);
  const z3::expr no_wrap = z3::ule(a, a + sa) && z3::ule(b, b + sb);
  const z3::expr share_a_byte = z3::ult(a, b + sb) && z3::ult(b, a + sa);
  return prove_valid(ctx, z3::implies(sizes && no_wrap, race::accesses_overlap(a, sa, b, sb) == share_a_byte), budget,
                     {{"a", a}, {"size of a", sa}, {"b", b}, {"size of b", sb}});
}

}  // namespace

std::vector<Theorem> race_theorems() {
  return {
      {"race.overlap_is_shared_byte",
       "the race checker's overlap test on the address difference (checker/race/overlap.hpp) holds exactly when the "
       "two accesses share a byte (ISA 8.7.1, overlapping accesses)",
       "all 64-bit addresses, sizes 1 to 65536 bytes, ranges without wrap-around (exhaustive over bit-vectors)",
       overlap_is_shared_byte},
  };
}

}  // namespace ptxcheck::proofs
