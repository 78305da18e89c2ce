// A solver call's budget: Z3 resource units (`rlimit`) and wall-clock milliseconds, whichever runs out first
// (running out is an unknown answer, never a verdict). The resource count is the same on every machine and under
// any load, so where it binds first the answers are reproducible: the default budget is set so that it does on an
// ordinary machine (about 4000 units per millisecond), the time limit being the backstop.
#pragma once

#include <z3++.h>

#include <algorithm>
#include <climits>
#include <string>

namespace ptxcheck::race {

struct QueryBudget {
  unsigned rlimit = 20'000'000;  // 0: none
  unsigned timeout_ms = 20'000;  // 0: none

  // One `den`-th of both limits (a short query).
  QueryBudget fraction(unsigned den) const {
    auto part = [den](unsigned v) { return v ? std::max(1u, v / den) : 0u; };
    return {part(rlimit), part(timeout_ms)};
  }
  bool operator==(const QueryBudget&) const = default;

  void apply_to(z3::solver& s) const {
    z3::params p(s.ctx());
    p.set("rlimit", rlimit);
    p.set("timeout", timeout_ms ? timeout_ms : UINT_MAX);  // UINT_MAX: Z3's "no timeout"
    s.set(p);
  }

  // Why a call under this budget answered unknown: which limit ran out (Z3 says "canceled" for both, or "unknown"
  // when one ran out while simplifying; the bit-vector queries of this engine are otherwise decided), or Z3's own
  // reason when it is another.
  std::string unknown_reason(const std::string& z3_reason, double elapsed_ms) const {
    if (z3_reason != "canceled" && z3_reason != "timeout" && z3_reason != "unknown" &&
        z3_reason.find("resource limit") == std::string::npos)
      return z3_reason;
    if (timeout_ms && elapsed_ms >= timeout_ms) return "time limit of " + std::to_string(timeout_ms) + " ms per query reached";
    return "budget of " + std::to_string(rlimit) + " Z3 resource units per query reached";
  }
};

}  // namespace ptxcheck::race
