// Solver queries of a kernel's pair check (kernel_check.hpp), under the per-query budget and the kernel's guard.
#include "checker/race/kernel_check.hpp"


namespace ptxcheck::race {
using ptx::ir::Opcode;

bool KernelCheck::over_budget() { return guard.exhausted().has_value(); }

std::string KernelCheck::budget_reason() { return guard.exhausted().value_or("budget reached"); }

void KernelCheck::set_budget(const QueryBudget& b) { current = b; }  // applied at each check (solver::check)

KernelCheck::Answer KernelCheck::check_on(z3::solver& z, const z3::expr& q) {
  ++res.queries;
  solver::Scope scope(z);
  z.add(q);
  std::optional<z3::model> model;
  try {
    solver::Answer answer = solver::check(z, current);
    // Interrupted by the kernel's guard: its reason, no second try, and no pop (Z3 4.8's pop after an interrupted
    // check can take as long, and as much memory again, as the check had).
    if (answer.unknown() && over_budget()) {
      scope.keep();
      return std::make_tuple(answer.result, model, budget_reason());
    }
    z3::solver* answered = &z;
    std::optional<z3::solver> fresh;
    if (answer.unknown() && current == o.query) {
      // The incremental solver keeps what it learnt from earlier queries and skips the preprocessing of a fresh
      // one; some queries it cannot decide within the budget a fresh solver decides in a fraction of it (a
      // warp-aggregated append's slots, popcount_order). Asked once more, with the same budget.
      fresh.emplace(c);
      for (const z3::expr& e : z.assertions()) fresh->add(e);
      answer = solver::check(*fresh, current);
      answered = &*fresh;
    }
    if (answer.sat()) model = answered->get_model();
    return std::make_tuple(answer.result, model, answer.reason);
  } catch (const z3::exception& e) {  // out of memory (memory_mb) or canceled: unknown, never a verdict
    scope.keep();
    if (over_budget()) return std::make_tuple(z3::unknown, model, budget_reason());
    // Z3's memory cap: the solver is not used again, and Z3 may allocate while it is freed, so the cap goes.
    z3::set_param("memory_max_size", 0);
    throw BudgetExhausted(z3_failure(e.msg(), o));
  }
}

KernelCheck::Answer KernelCheck::check(const z3::expr& q) { return check_on(s, q); }

}  // namespace ptxcheck::race
