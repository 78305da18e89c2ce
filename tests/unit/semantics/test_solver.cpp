// semantics/support/solver.hpp: every check has a budget, running out is unknown with the limit that ran out, and
// a scope pops what it pushed.
#include "semantics/support/solver.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <stdexcept>

using namespace ptxcheck;

TEST_CASE("solver: answers, scopes and always") {
  z3::context c;
  z3::solver s(c);
  const z3::expr x = c.bv_const("x", 32);
  s.add(z3::ugt(x, c.bv_val(10, 32)));
  CHECK(solver::check(s, solver::Budget{}).sat());
  {
    solver::Scope scope(s);
    s.add(z3::ult(x, c.bv_val(5, 32)));
    const solver::Answer a = solver::check(s, solver::Budget{});
    CHECK(a.unsat());
    CHECK(a.reason.empty());
  }
  CHECK(solver::check(s, solver::Budget{}).sat());  // the scope's assertion is gone
  CHECK(solver::always(s, z3::ugt(x, c.bv_val(9, 32)), solver::Budget{}));
  CHECK_FALSE(solver::always(s, z3::ugt(x, c.bv_val(11, 32)), solver::Budget{}));
  CHECK(s.assertions().size() == 1);
  z3::expr_vector assumptions(c);
  assumptions.push_back(x == c.bv_val(3, 32));
  CHECK(solver::check(s, solver::Budget{}, assumptions).unsat());
}

TEST_CASE("solver: a check without a budget is refused") {
  z3::context c;
  z3::solver s(c);
  CHECK_THROWS_AS(solver::check(s, solver::Budget{0, 0}), std::logic_error);
}

TEST_CASE("solver: running out is unknown, with the limit that ran out") {
  // x * y == n for a 64-bit semiprime n with both factors > 1: far more work than 1,000 resource units.
  z3::context c;
  z3::solver s(c);
  const z3::expr x = c.bv_const("x", 64), y = c.bv_const("y", 64);
  s.add(x * y == c.bv_val(std::uint64_t{4294967291u} * std::uint64_t{4294967279u}, 64));
  s.add(z3::ugt(x, c.bv_val(1, 64)) && z3::ugt(y, c.bv_val(1, 64)));
  s.add(z3::ult(x, c.bv_val(std::uint64_t{1} << 32, 64)) && z3::ult(y, c.bv_val(std::uint64_t{1} << 32, 64)));
  const solver::Answer a = solver::check(s, solver::Budget{1'000, 60'000});
  CHECK(a.unknown());
  CHECK(a.reason == "budget of 1000 Z3 resource units per query reached");
}
