// See solver.hpp.
#include "semantics/support/solver.hpp"

#include <chrono>
#include <climits>
#include <stdexcept>

namespace ptxcheck::solver {

void Budget::apply_to(z3::solver& s) const {
  z3::params p(s.ctx());
  p.set("rlimit", rlimit);
  p.set("timeout", timeout_ms ? timeout_ms : UINT_MAX);  // UINT_MAX: Z3's "no timeout"
  s.set(p);
}

std::string Budget::unknown_reason(const std::string& z3_reason, double elapsed_ms) const {
  if (z3_reason != "canceled" && z3_reason != "timeout" && z3_reason != "unknown" &&
      z3_reason.find("resource limit") == std::string::npos)
    return z3_reason;
  if (timeout_ms && elapsed_ms >= timeout_ms) return "time limit of " + std::to_string(timeout_ms) + " ms per query reached";
  return "budget of " + std::to_string(rlimit) + " Z3 resource units per query reached";
}

namespace {
template <class Run> Answer timed(z3::solver& s, const Budget& b, Run run) {
  if (!b.rlimit && !b.timeout_ms) throw std::logic_error("a solver check without a budget");
  b.apply_to(s);
  const auto started = std::chrono::steady_clock::now();
  Answer a;
  a.result = run();
  if (a.unknown())
    a.reason = b.unknown_reason(s.reason_unknown(), std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count());
  return a;
}
}  // namespace

Answer check(z3::solver& s, const Budget& b) { return timed(s, b, [&] { return s.check(); }); }

Answer check(z3::solver& s, const Budget& b, const z3::expr_vector& assumptions) {
  return timed(s, b, [&] { return s.check(assumptions); });
}

bool always(z3::solver& s, const z3::expr& claim, const Budget& b) {
  Scope scope(s);
  s.add(!claim);
  return check(s, b).unsat();
}

}  // namespace ptxcheck::solver
