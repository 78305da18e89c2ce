// Instruction identities over all bit-vector inputs: the semantics/ops definitions over the symbolic z3
// domain against wide arithmetic and against the ISA pseudo-code (spec_reference.hpp). Exhaustive: every
// input is a free bit-vector, so `proved` covers all 2^n input combinations.
#include "proofs/families.hpp"
#include "proofs/solver.hpp"
#include "proofs/spec_reference.hpp"
#include "semantics/domain/symbolic.hpp"
#include "semantics/ops/integer.hpp"
#include "semantics/ops/logic.hpp"
#include "semantics/ops/warp.hpp"

#include <fmt/format.h>

namespace ptxcheck::proofs {
namespace {
using Sym = ptx::domain::Symbolic;
using Inputs = std::vector<std::pair<std::string, z3::expr>>;

std::string all_inputs(std::initializer_list<unsigned> widths) {
  unsigned total = 0;
  std::string parts;
  for (unsigned w : widths) {
    total += w;
    parts += (parts.empty() ? "" : " x ") + std::to_string(w);
  }
  return fmt::format("all 2^{} inputs ({} bits), exhaustive", total, parts);
}

// add.cc on the low limb, addc.cc on the middle ones, addc on the top one == one wide add (ISA 9.7.2.1-2).
ProofResult carry_chain(const Budget& budget, unsigned limbs, bool subtract) {
  z3::context ctx;
  Sym d(ctx);
  const unsigned w = 32 * limbs;
  auto a = d.var("a", w), b = d.var("b", w);
  z3::expr carry = d.lit(1, 0);
  z3::expr result(ctx);
  for (unsigned i = 0; i < limbs; ++i) {
    auto ai = a.extract(32 * i + 31, 32 * i), bi = b.extract(32 * i + 31, 32 * i);
    auto r = subtract ? ptx::ops::sub_borrow(d, ai, bi, carry) : ptx::ops::add_carry(d, ai, bi, carry);
    carry = r.carry;
    result = i == 0 ? r.value : z3::concat(r.value, result);
  }
  z3::expr wide = subtract ? a - b : a + b;
  return prove_valid(ctx, result == wide, budget, {{"a", a}, {"b", b}, {"chain", result}, {"wide", wide}});
}

// mul.wide (ISA 9.7.1.3): "the product of the extended operands", t = a * b over 2n bits.
ProofResult mul_wide_is_extended_product(const Budget& budget, unsigned w, bool is_signed) {
  z3::context ctx;
  Sym d(ctx);
  auto a = d.var("a", w), b = d.var("b", w);
  auto ext = [&](const z3::expr& x) { return is_signed ? z3::sext(x, w) : z3::zext(x, w); };
  auto got = ptx::ops::mul_wide(d, is_signed, a, b);
  return prove_valid(ctx, got == ext(a) * ext(b), budget, {{"a", a}, {"b", b}, {"ops", got}});
}

// mul.lo and mul.hi are the two halves of mul.wide (ISA 9.7.1.3: d = t<n-1..0> / t<2n-1..n>).
ProofResult mul_halves(const Budget& budget, unsigned w, bool is_signed) {
  z3::context ctx;
  Sym d(ctx);
  auto a = d.var("a", w), b = d.var("b", w);
  auto wide = ptx::ops::mul_wide(d, is_signed, a, b);
  auto lo = ptx::ops::mul_lo(d, a, b), hi = ptx::ops::mul_hi(d, is_signed, a, b);
  return prove_valid(ctx, z3::concat(hi, lo) == wide, budget, {{"a", a}, {"b", b}});
}

// mad.lo / mad.hi / mad.wide (ISA 9.7.1.4) == mul.{lo,hi,wide} then add.
ProofResult mad_is_mul_then_add(const Budget& budget, ptx::ops::MulPart part, bool is_signed) {
  z3::context ctx;
  Sym d(ctx);
  const unsigned w = 32, cw = part == ptx::ops::MulPart::wide ? 64 : 32;
  auto a = d.var("a", w), b = d.var("b", w), c = d.var("c", cw);
  auto mad = ptx::ops::add(d, ptx::ops::mul_part(d, part, is_signed, a, b), c);
  z3::expr mul = part == ptx::ops::MulPart::lo   ? ptx::ops::mul_lo(d, a, b)
                 : part == ptx::ops::MulPart::hi ? ptx::ops::mul_hi(d, is_signed, a, b)
                                                 : ptx::ops::mul_wide(d, is_signed, a, b);
  return prove_valid(ctx, mad == ptx::ops::add(d, mul, c), budget, {{"a", a}, {"b", b}, {"c", c}});
}

ProofResult bfe_matches_spec(const Budget& budget, unsigned w, bool is_signed) {
  z3::context ctx;
  Sym d(ctx);
  auto a = d.var("a", w), b = d.var("b", 32), c = d.var("c", 32);
  auto got = ptx::ops::bfe(d, is_signed, a, b, c);
  auto want = spec::bfe(a, b, c, is_signed);
  return prove_valid(ctx, got == want, budget, {{"a", a}, {"b", b}, {"c", c}, {"ops", got}, {"spec", want}});
}

ProofResult bfi_matches_spec(const Budget& budget, unsigned w) {
  z3::context ctx;
  Sym d(ctx);
  auto a = d.var("a", w), b = d.var("b", w), c = d.var("c", 32), e = d.var("d", 32);
  auto got = ptx::ops::bfi(d, a, b, c, e);
  auto want = spec::bfi(a, b, c, e);
  return prove_valid(ctx, got == want, budget, {{"a", a}, {"b", b}, {"c", c}, {"d", e}, {"ops", got}, {"spec", want}});
}

ProofResult shf_matches_spec(const Budget& budget, bool left, bool clamp) {
  z3::context ctx;
  Sym d(ctx);
  auto a = d.var("a", 32), b = d.var("b", 32), c = d.var("c", 32);
  auto got = ptx::ops::shf(d, left, clamp, a, b, c);
  auto want = spec::shf(a, b, c, left, clamp);
  return prove_valid(ctx, got == want, budget, {{"a", a}, {"b", b}, {"c", c}, {"ops", got}, {"spec", want}});
}

ProofResult prmt_matches_spec(const Budget& budget, int mode) {
  z3::context ctx;
  Sym d(ctx);
  auto a = d.var("a", 32), b = d.var("b", 32), c = d.var("c", 32);
  auto got = ptx::ops::prmt(d, static_cast<ptx::ops::PrmtMode>(mode), a, b, c);
  auto want = spec::prmt(a, b, c, mode);
  return prove_valid(ctx, got == want, budget, {{"a", a}, {"b", b}, {"c", c}, {"ops", got}, {"spec", want}});
}
// shfl.sync's source lane and pval (semantics/ops/warp.hpp, 32-bit arithmetic on the thread's %laneid) against the
// ISA 9.7.9.6 pseudo-code (5-bit fields, integer arithmetic), for every lane 0..31 and every b and c.
ProofResult shfl_source_matches_spec(const Budget& budget, ptx::ops::ShflMode mode) {
  z3::context ctx;
  Sym d(ctx);
  auto lane = d.var("lane", 5), b = d.var("b", 32), c = d.var("c", 32);
  auto got = ptx::ops::shfl_source(d, mode, z3::zext(lane, 27), b, c);
  auto want = spec::shfl_sync(lane, b, c, static_cast<int>(mode));
  z3::expr same = got.lane == z3::int2bv(32, want.j) && (got.in_range == ctx.bv_val(1, 1)) == want.pval;
  return prove_valid(ctx, same, budget, {{"lane", lane}, {"b", b}, {"c", c}, {"ops_lane", got.lane}, {"ops_pval", got.in_range}});
}
}  // namespace

std::vector<Theorem> identity_theorems() {
  using ptx::ops::MulPart;
  std::vector<Theorem> v;
  for (unsigned limbs : {2u, 4u})
    for (bool sub : {false, true}) {
      const char* op = sub ? "sub" : "add";
      v.push_back({fmt::format("identity.{}_cc_chain_{}", op, 32 * limbs),
                   fmt::format("{}.cc.u32 then {}c.cc.u32 ... {}c.u32 over {} limbs equals one {}-bit {} (ISA 9.7.2.1-4)",
                               op, op, op, limbs, 32 * limbs, op),
                   all_inputs({32 * limbs, 32 * limbs}),
                   [limbs, sub](const Budget& b) { return carry_chain(b, limbs, sub); }});
    }
  for (unsigned w : {16u, 32u})
    for (bool s : {false, true}) {
      const char* t = s ? "s" : "u";
      v.push_back({fmt::format("identity.mul_wide_{}{}", t, w),
                   fmt::format("mul.wide.{}{} equals the product of the {}-extended operands (ISA 9.7.1.3)", t, w,
                               s ? "sign" : "zero"),
                   all_inputs({w, w}), [w, s](const Budget& b) { return mul_wide_is_extended_product(b, w, s); }});
      v.push_back({fmt::format("identity.mul_hi_lo_halves_{}{}", t, w),
                   fmt::format("mul.hi.{0}{1} : mul.lo.{0}{1} is mul.wide.{0}{1} (ISA 9.7.1.3)", t, w), all_inputs({w, w}),
                   [w, s](const Budget& b) { return mul_halves(b, w, s); }});
    }
  for (auto [part, name] : {std::pair{MulPart::lo, "lo"}, std::pair{MulPart::hi, "hi"}, std::pair{MulPart::wide, "wide"}})
    for (bool s : {false, true}) {
      const char* t = s ? "s32" : "u32";
      v.push_back({fmt::format("identity.mad_{}_{}", name, t),
                   fmt::format("mad.{0}.{1} d, a, b, c equals mul.{0}.{1} then add (ISA 9.7.1.4)", name, t),
                   all_inputs({32, 32, part == MulPart::wide ? 64u : 32u}),
                   [part = part, s](const Budget& b) { return mad_is_mul_then_add(b, part, s); }});
    }
  for (unsigned w : {32u, 64u})
    for (bool s : {false, true}) {
      const char* t = s ? "s" : "u";
      v.push_back({fmt::format("identity.bfe_{}{}", t, w),
                   fmt::format("bfe.{}{} agrees with the ISA 9.7.1.19 pseudo-code", t, w), all_inputs({w, 32, 32}),
                   [w, s](const Budget& b) { return bfe_matches_spec(b, w, s); }});
    }
  for (unsigned w : {32u, 64u})
    v.push_back({fmt::format("identity.bfi_b{}", w), fmt::format("bfi.b{} agrees with the ISA 9.7.1.20 pseudo-code", w),
                 all_inputs({w, w, 32, 32}), [w](const Budget& b) { return bfi_matches_spec(b, w); }});
  for (bool left : {true, false})
    for (bool clamp : {true, false}) {
      auto name = fmt::format("shf.{}.{}.b32", left ? "l" : "r", clamp ? "clamp" : "wrap");
      v.push_back({fmt::format("identity.shf_{}_{}", left ? "l" : "r", clamp ? "clamp" : "wrap"),
                   name + " agrees with the ISA 9.7.8.7 pseudo-code", all_inputs({32, 32, 32}),
                   [left, clamp](const Budget& b) { return shf_matches_spec(b, left, clamp); }});
    }
  static const char* modes[] = {"generic", "f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
  for (int m = 0; m < 7; ++m)
    v.push_back({fmt::format("identity.prmt_{}", modes[m]),
                 fmt::format("prmt.b32{} agrees with the ISA 9.7.9.7 pseudo-code and mode table", m ? std::string(".") + modes[m] : ""),
                 all_inputs({32, 32, 32}), [m](const Budget& b) { return prmt_matches_spec(b, m); }});
  using ptx::ops::ShflMode;
  for (auto [mode, name] : {std::pair{ShflMode::up, "up"}, std::pair{ShflMode::down, "down"}, std::pair{ShflMode::bfly, "bfly"},
                            std::pair{ShflMode::idx, "idx"}})
    v.push_back({fmt::format("identity.shfl_sync_{}", name),
                 fmt::format("shfl.sync.{}: the source lane and the predicate of semantics/ops/warp.hpp (what the interpreter and "
                             "the race checker use) agree with the ISA 9.7.9.6 pseudo-code", name),
                 all_inputs({5, 32, 32}), [mode](const Budget& b) { return shfl_source_matches_spec(b, mode); }});
  return v;
}

}  // namespace ptxcheck::proofs
