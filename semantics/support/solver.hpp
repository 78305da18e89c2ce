// The one way ptxcheck asks Z3 (race checker, litmus engine, proofs): every check runs under a budget, and its
// answer is sat, unsat, or unknown with the reason (which limit ran out, or Z3's own). DESIGN.md principle 4:
// running out is `unknown`, never a verdict.
#pragma once

#include <z3++.h>

#include <algorithm>
#include <string>

namespace ptxcheck::solver {

// A check's budget: Z3 resource units (`rlimit`, the same on every machine and under any load) and wall-clock
// milliseconds, whichever runs out first. 0 means none for either; a budget with neither is refused by `check`
// (every check has one).
struct Budget {
  unsigned rlimit = 20'000'000;
  unsigned timeout_ms = 20'000;

  // One `den`-th of both limits (a short query).
  Budget fraction(unsigned den) const {
    auto part = [den](unsigned v) { return v ? std::max(1u, v / den) : 0u; };
    return {part(rlimit), part(timeout_ms)};
  }
  bool operator==(const Budget&) const = default;

  // Sets the limits on `s` for its next checks.
  void apply_to(z3::solver& s) const;
  // Why a check under this budget answered unknown: which limit ran out (Z3 says "canceled" for both, or "unknown"
  // when one ran out while simplifying), or Z3's own reason when it is another.
  std::string unknown_reason(const std::string& z3_reason, double elapsed_ms) const;
};

struct Answer {
  z3::check_result result = z3::unknown;
  std::string reason;  // unknown: why
  bool sat() const { return result == z3::sat; }
  bool unsat() const { return result == z3::unsat; }
  bool unknown() const { return result == z3::unknown; }
};

// Checks `s` (under `assumptions` when given) with budget `b` applied first. Z3 exceptions (its memory cap, a
// cancellation) propagate: callers decide what they mean for their run.
Answer check(z3::solver& s, const Budget& b);
Answer check(z3::solver& s, const Budget& b, const z3::expr_vector& assumptions);

// Is `claim` true in every model of `s`'s assertions? A short check of its negation; unknown counts as "no".
bool always(z3::solver& s, const z3::expr& claim, const Budget& b);

// push() now, pop() when it goes out of scope (unless `keep()` was called: after an interrupted check, Z3's pop can
// cost as much as the check did, and the solver is dropped anyway).
class Scope {
 public:
  explicit Scope(z3::solver& s) : s_(s) { s_.push(); }
  ~Scope() {
    if (!kept_) s_.pop();
  }
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;
  void keep() { kept_ = true; }

 private:
  z3::solver& s_;
  bool kept_ = false;
};

}  // namespace ptxcheck::solver
