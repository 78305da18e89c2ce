// Solver queries of a kernel's pair check (kernel_check.hpp), under the per-query budget and the kernel's guard.
#include "checker/race/kernel_check.hpp"

#include <chrono>

namespace ptxcheck::race {
using ptx::ir::Opcode;

bool KernelCheck::over_budget() { return guard.exhausted().has_value(); }

std::string KernelCheck::budget_reason() { return guard.exhausted().value_or("budget reached"); }

void KernelCheck::set_budget(const QueryBudget& b) {
  b.apply_to(s);
  current = b;
}

KernelCheck::Answer KernelCheck::check_on(z3::solver& solver, const z3::expr& q) {
  ++res.queries;
  solver.push();
  solver.add(q);
  std::optional<z3::model> model;
  std::string why;
  z3::check_result r = z3::unknown;
  const auto started = std::chrono::steady_clock::now();
  try {
    r = solver.check();
    z3::solver* answered = &solver;
    std::optional<z3::solver> fresh;
    // Interrupted by the kernel's guard: its reason, no second try, and no pop (Z3 4.8's pop after an interrupted
    // check can take as long, and as much memory again, as the check had).
    if (r == z3::unknown && over_budget()) return std::make_tuple(r, model, budget_reason());
    if (r == z3::unknown && current == o.query) {
      // The incremental solver keeps what it learnt from earlier queries and skips the preprocessing of a fresh
      // one; some queries it cannot decide within the budget a fresh solver decides in a fraction of it (a
      // warp-aggregated append's slots, popcount_order). Asked once more, with the same budget.
      fresh.emplace(c);
      current.apply_to(*fresh);
      for (const z3::expr& e : solver.assertions()) fresh->add(e);
      r = fresh->check();
      answered = &*fresh;
    }
    if (r == z3::sat) model = answered->get_model();
    if (r == z3::unknown)
      why = current.unknown_reason(answered->reason_unknown(), std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count());
  } catch (const z3::exception& e) {  // out of memory (memory_mb) or canceled: unknown, never a verdict
    r = z3::unknown;
    if (over_budget()) return std::make_tuple(r, model, budget_reason());
    // Z3's memory cap: the solver is not used again, and Z3 may allocate while it is freed, so the cap goes.
    z3::set_param("memory_max_size", 0);
    throw BudgetExhausted(z3_failure(e.msg(), o));
  }
  solver.pop();
  return std::make_tuple(r, model, why);
}

KernelCheck::Answer KernelCheck::check(const z3::expr& q) { return check_on(s, q); }

}  // namespace ptxcheck::race
