// Budgeted Z3 checks for proofs/ (semantics/support/solver.hpp): timeout and resource limit per call, memory cap, and an exception from Z3 (out of memory,
// canceled) turned into `unknown` with its message, never a verdict.
#include "proofs/solver.hpp"

#include "semantics/support/solver.hpp"

#include <fmt/format.h>

namespace ptxcheck::proofs {

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::proved: return "PROVED";
    case Verdict::refuted: return "REFUTED";
    case Verdict::unknown: return "UNKNOWN";
  }
  return "?";
}

ProofResult refute_if_sat(z3::context& ctx, const z3::expr& condition, const Budget& budget,
                          const std::vector<std::pair<std::string, z3::expr>>& inputs) {
  ProofResult r;
  try {
    z3::set_param("memory_max_size", static_cast<int>(budget.memory_mb));
    z3::solver s(ctx);
    s.add(condition);
    const solver::Answer answer = solver::check(s, solver::Budget{budget.rlimit, budget.timeout_ms});
    switch (answer.result) {
      case z3::unsat: r.verdict = Verdict::proved; break;
      case z3::sat: {
        r.verdict = Verdict::refuted;
        auto m = s.get_model();
        for (const auto& [name, e] : inputs) {
          auto v = m.eval(e, true);
          r.detail += fmt::format("{}{} = {}", r.detail.empty() ? "" : ", ", name, v.to_string());
        }
        break;
      }
      case z3::unknown:
        r.verdict = Verdict::unknown;
        r.detail = "z3: " + answer.reason + fmt::format(" (budget {} ms, {} MB)", budget.timeout_ms, budget.memory_mb);
        break;
    }
  } catch (const z3::exception& e) {
    r.verdict = Verdict::unknown;
    r.detail = std::string("z3: ") + e.msg();
  }
  return r;
}

ProofResult prove_valid(z3::context& ctx, const z3::expr& claim, const Budget& budget,
                        const std::vector<std::pair<std::string, z3::expr>>& inputs) {
  return refute_if_sat(ctx, !claim, budget, inputs);
}

}  // namespace ptxcheck::proofs
