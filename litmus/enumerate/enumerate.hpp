// Outcome enumeration: for every combination of thread traces, the rf, co (a partial order per location,
// 8.9.6), Fence-SC order and barrier grouping the model allows, symbolically (Z3) or explicitly.
// The result is data (one struct); report/ renders it as text or JSON.
#pragma once

#include "litmus/build/threads.hpp"
#include "litmus/parse/ast.hpp"
#include "memmodel/cat/ast.hpp"
#include "memmodel/graph/execution.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ptxcheck::litmus {

// symbolic (default): one Z3 problem per combination of trace shapes (usually one per test): which trace each
// thread runs, rf / co / Fence-SC order / barrier groups are Z3 variables, the model is encoded by
// cat::SymbolicEncoder; the verdict is one query, the final states are enumerated with blocking clauses
// (docs/litmus-merged-encoding.md). symbolic_split: the same with one Z3 problem per combination of thread
// traces (the engine before; kept as a baseline). explicit_: every candidate graph is built and checked by the
// explicit evaluator (`explicit` is a C++ keyword).
enum class Engine { symbolic, symbolic_split, explicit_ };

struct Options {
  int unroll = 2;
  bool explain = false;
  bool keep_witnesses = false;  // keep one execution graph per final state (for --dot)
  long long max_candidates = 2'000'000;  // explicit engine budget: beyond it the result is unknown
  Engine engine = Engine::symbolic;
  unsigned solver_timeout_ms = 20'000;   // symbolic engine: per Z3 check; running out => unknown
  unsigned solver_memory_mb = 4096;      // symbolic engine: Z3 memory cap (process-wide Z3 parameter)
  bool verify_witnesses = false;         // symbolic engine: re-check every witness with the explicit evaluator
  // true: every allowed final state of the condition's terms is listed. false (symbolic engine): only the
  // verdict and the observation, from one query for an outcome satisfying the condition and one for an outcome
  // violating it; the states listed are those two witnesses (Result::states_complete is false).
  bool all_states = true;
  // Liveness (litmus/enumerate/liveness.hpp) for tests with a loop or a waiting barrier; over the budget (all
  // its queries together) the liveness result is unknown, the verdict unaffected.
  bool liveness = true;
  // Its budget counts Z3 queries, so that the answer does not depend on the machine or its load. Past the loop
  // bound only a hang can be concluded, and none was found in the litmus-ptx corpus even with 250x the queries
  // (docs/litmus-liveness.md): a small search. CPU time of the thread running the test is the backstop.
  unsigned liveness_queries = 4096;
  unsigned liveness_queries_bounded = 16;
  unsigned liveness_budget_ms = 5'000;  // a quarter when bounded
};

struct FinalState {
  std::map<std::string, std::int64_t> values;  // "P1:r0" / "x" -> value
  bool satisfies = false;
  // explicit engine: allowed executions with this final state (as herd7 counts); symbolic engine: 1 (it finds
  // each distinct final state once and does not count executions). `positive`/`negative` sum these, so under
  // the symbolic engine they are the numbers of distinct allowed final states that satisfy / do not satisfy
  // the condition.
  long long executions = 0;
  std::optional<mm::Execution> witness;
};

struct Result {
  std::string file, name;
  std::string result = "error";  // holds | fails | unknown | error
  std::string reason;            // for unknown / error
  Quantifier quantifier = Quantifier::exists;
  std::string condition;         // printed back
  std::vector<FinalState> states;
  bool states_complete = true;   // false: `states` holds witnesses only (Options::all_states off)
  long long positive = 0, negative = 0;
  long long candidates = 0;      // explicit: candidate graphs checked; symbolic: feasible trace combinations
  bool bounded = false;          // some trace reached the unroll bound
  std::vector<std::string> unsupported;
  std::vector<std::string> explanation;  // axioms forbidding the outcomes explained_outcome names (--explain)
  // Liveness under fair scheduling (litmus/enumerate/liveness.hpp), separate from the verdict above: empty when
  // the test has no loop and no waiting barrier; ok | hang | unknown otherwise. liveness_detail: the witness of a
  // hang (what each stuck thread waits for), or why it is unknown.
  std::string liveness, liveness_detail;
  double time_ms = 0;
};

Result run_test(const Test& t, const cat::Model& model, const Options& opt);

// Helpers shared with the reports and tests.
std::string render_condition(const CondPtr& c);
bool eval_condition(const CondPtr& c, const std::map<std::string, std::int64_t>& vals);

// --explain looks at the outcomes the test is about: those satisfying the proposition of `exists` /
// `~exists`, and those violating the proposition of `forall` (a forall test asks that none is reachable).
inline bool explained_outcome(Quantifier q, bool satisfies) { return q == Quantifier::forall ? !satisfies : satisfies; }

}  // namespace ptxcheck::litmus
