// Unit tests of the factored address difference (checker/race/difference.hpp) against plain evaluation: at random
// values of the threads' symbols, the factored difference with its facts can take the value a1 - a2 that Z3
// evaluates for the unfactored terms (the fresh products and wraps solved for), and what factoring is for: the
// overlap of two row-major addresses with a symbolic stride is refuted from the factored form alone.
#include "checker/race/difference.hpp"

#include <doctest/doctest.h>

#include <random>
#include <utility>
#include <vector>

using namespace ptxcheck;

namespace {

// Thread t's address of `C[row * n + col]` as nvcc computes it: 32-bit row * n + col, sign-extended (mul.wide.s32
// by 4), added to the base; row = 16*ctaid.y + tid.y, col = 16*ctaid.x + tid.x. Z3's simplifier writes the sign
// extension as a concatenation of copies of the top bit, the form the differencer must recognise.
z3::expr row_major_address(z3::context& c, const std::string& t) {
  auto v = [&](const std::string& name) { return c.bv_const((t + "." + name).c_str(), 32); };
  const z3::expr n = c.bv_const("arg.n", 32), base = c.bv_const("&C", 64);
  const z3::expr row = c.bv_val(16, 32) * v("ctaid.y") + v("tid.y"), col = c.bv_val(16, 32) * v("ctaid.x") + v("tid.x");
  return (base + c.bv_val(4, 64) * z3::sext(n * row + col, 32)).simplify();
}

// `m[(size_t)row * cols + col]` with 64-bit arithmetic: sign-extended row and cols multiplied (mul.wide.s32), the
// column added, shifted left by 2 (shl.b64, which the simplifier writes as a concatenation with two zero bits).
z3::expr wide_row_major_address(z3::context& c, const std::string& t) {
  auto v = [&](const std::string& name) { return c.bv_const((t + "." + name).c_str(), 32); };
  const z3::expr n = c.bv_const("arg.n", 32), base = c.bv_const("&C", 64);
  const z3::expr row = c.bv_val(16, 32) * v("ctaid.y") + v("tid.y"), col = c.bv_val(16, 32) * v("ctaid.x") + v("tid.x");
  return (base + z3::shl(z3::sext(row, 32) * z3::sext(n, 32) + z3::sext(col, 32), c.bv_val(2, 64))).simplify();
}

// Two stores of one row loop that nvcc unrolled by 4 after a peeled remainder loop (`y[row * n + i]`, i from the
// lane in steps of 32): the remainder loop's store at y + 4*(row * n + lane) + 128*k, and the unrolled body's fourth
// store at 384 bytes past y + 4*(row * n + i0) + 512*k, where i0 is what the remainder loop left (an ite over its
// exit). Different instructions: the sums have different numbers of terms, paired by head.
z3::expr remainder_store_address(z3::context& c, const std::string& t) {
  auto v = [&](const std::string& name) { return c.bv_const((t + "." + name).c_str(), 32); };
  const z3::expr n = c.bv_const("arg.n", 32), base = c.bv_const("&C", 64), k = c.bv_const((t + ".k").c_str(), 64);
  const z3::expr row = c.bv_val(16, 32) * v("ctaid.y") + v("tid.y"), lane = v("tid.x") & c.bv_val(31, 32);
  return (base + c.bv_val(4, 64) * z3::sext(n * row + lane, 32) + c.bv_val(128, 64) * k).simplify();
}
z3::expr unrolled_store_address(z3::context& c, const std::string& t) {
  auto v = [&](const std::string& name) { return c.bv_const((t + "." + name).c_str(), 32); };
  const z3::expr n = c.bv_const("arg.n", 32), base = c.bv_const("&C", 64), k = c.bv_const((t + ".k").c_str(), 64);
  const z3::expr row = c.bv_val(16, 32) * v("ctaid.y") + v("tid.y"), lane = v("tid.x") & c.bv_val(31, 32);
  const z3::expr start = z3::ite(z3::ult(v("ctaid.x"), n), lane + c.bv_val(64, 32), lane);
  return (base + c.bv_val(4, 64) * z3::sext(n * row + start, 32) + c.bv_val(512, 64) * k + c.bv_val(384, 64)).simplify();
}

}  // namespace

TEST_CASE("factored difference: equals the plain difference at random values") {
  z3::context c;
  using Address = z3::expr (*)(z3::context&, const std::string&);
  const std::vector<std::pair<Address, Address>> pairs{{row_major_address, row_major_address},
                                                       {wide_row_major_address, wide_row_major_address},
                                                       {unrolled_store_address, remainder_store_address},
                                                       {remainder_store_address, unrolled_store_address}};
  for (auto [first, second] : pairs) {
    const z3::expr a1 = first(c, "t1"), a2 = second(c, "t2");
    const race::FactoredDifference d = race::factored_difference(a1, a2);
    CHECK(d.factored);
    std::mt19937_64 random(7);
    for (int trial = 0; trial < 100; ++trial) {
      z3::solver s(c);
      for (const char* name : {"arg.n", "t1.ctaid.y", "t1.tid.y", "t1.ctaid.x", "t1.tid.x", "t2.ctaid.y", "t2.tid.y", "t2.ctaid.x", "t2.tid.x"}) {
        // Small values half of the time (where the product facts' no-wrap cases apply), any 32-bit value otherwise.
        const std::uint64_t value = trial % 2 ? random() % 200 : random() & 0xffffffffu;
        s.add(c.bv_const(name, 32) == c.bv_val(value, 32));
      }
      s.add(c.bv_const("&C", 64) == c.bv_val(random(), 64));
      for (const char* name : {"t1.k", "t2.k"}) s.add(c.bv_const(name, 64) == c.bv_val(trial % 2 ? random() % 100 : random(), 64));
      for (const z3::expr& fact : d.facts) s.add(fact);
      s.add(d.value == a1 - a2);
      CHECK(s.check() == z3::sat);
    }
  }
}

TEST_CASE("factored difference: two threads' row-major elements are apart for a small symbolic stride") {
  z3::context c;
  const z3::expr a1 = row_major_address(c, "t1"), a2 = row_major_address(c, "t2");
  const race::FactoredDifference d = race::factored_difference(a1, a2);
  z3::solver s(c);
  const z3::expr n = c.bv_const("arg.n", 32);
  s.add(z3::sge(n, c.bv_val(64, 32)) && z3::sle(n, c.bv_val(4096, 32)));
  z3::expr distinct = c.bool_val(false);
  for (const char* dim : {"ctaid.y", "tid.y", "ctaid.x", "tid.x"}) {
    const z3::expr x1 = c.bv_const((std::string("t1.") + dim).c_str(), 32), x2 = c.bv_const((std::string("t2.") + dim).c_str(), 32);
    const unsigned bound = std::string(dim).rfind("tid", 0) == 0 ? 16 : 4;
    s.add(z3::ult(x1, c.bv_val(bound, 32)) && z3::ult(x2, c.bv_val(bound, 32)));
    distinct = distinct || x1 != x2;
  }
  s.add(distinct);
  for (const z3::expr& fact : d.facts) s.add(fact);
  z3::params p(c);
  p.set("rlimit", 2'000'000u);
  s.set(p);
  // The factored difference alone (no multiplier in it): the two 4-byte elements do not overlap.
  s.push();
  s.add(z3::ult(d.value + c.bv_val(3, 64), c.bv_val(7, 64)));
  CHECK(s.check() == z3::unsat);
  s.pop();
  // With n = 16 the rows overlap the next ones' columns (col reaches 63): thread (row, 16) and (row + 1, 0) meet,
  // and the facts must let them.
  z3::solver narrow(c);
  for (const z3::expr& e : s.assertions())
    if (!z3::eq(e, z3::sge(n, c.bv_val(64, 32)) && z3::sle(n, c.bv_val(4096, 32)))) narrow.add(e);
  narrow.add(n == c.bv_val(16, 32) && a1 == a2 && z3::ult(d.value + c.bv_val(3, 64), c.bv_val(7, 64)));
  CHECK(narrow.check() == z3::sat);
}
