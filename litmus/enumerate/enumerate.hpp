// Outcome enumeration: every combination of thread traces, rf, co (a partial order per location, 8.9.6),
// fence-SC order and barrier grouping is built as an execution graph and checked against a cat model.
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

struct Options {
  int unroll = 2;
  bool explain = false;
  bool keep_witnesses = false;  // keep one execution graph per final state (for --dot)
  long long max_candidates = 2'000'000;  // budget: beyond it the result is unknown
};

struct FinalState {
  std::map<std::string, std::int64_t> values;  // "P1:r0" / "x" -> value
  bool satisfies = false;
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
  long long positive = 0, negative = 0;
  long long candidates = 0;
  bool bounded = false;          // some trace reached the unroll bound
  std::vector<std::string> unsupported;
  std::vector<std::string> explanation;  // axioms forbidding the condition's outcomes (--explain)
  double time_ms = 0;
};

Result run_test(const Test& t, const cat::Model& model, const Options& opt);

// Helpers shared with the reports and tests.
std::string render_condition(const CondPtr& c);
bool eval_condition(const CondPtr& c, const std::map<std::string, std::int64_t>& vals);

}  // namespace ptxcheck::litmus
