// The explicit evaluator: a loaded cat model on one concrete execution graph. Says which axioms hold and
// gives the value of any defined name (for --explain and pictures).
#pragma once

#include "memmodel/cat/ast.hpp"
#include "memmodel/graph/execution.hpp"

#include <map>
#include <string>
#include <variant>
#include <vector>

namespace ptxcheck::cat {

using Value = std::variant<mm::Set, mm::Rel>;

struct ExplicitResult {
  std::vector<std::pair<std::string, bool>> axioms;  // name, holds
  std::map<std::string, Value> env;                  // every defined name's value
  bool consistent() const {
    for (auto& [n, ok] : axioms) if (!ok) return false;
    return true;
  }
  std::vector<std::string> violated() const {
    std::vector<std::string> v;
    for (auto& [n, ok] : axioms) if (!ok) v.push_back(n);
    return v;
  }
};

// Throws std::runtime_error on a type error (set where a relation is needed is converted; the reverse is an
// error).
ExplicitResult evaluate_explicit(const Model& model, const mm::Execution& exec, bool stop_at_first = false);

}  // namespace ptxcheck::cat
