// Candidate execution graphs for one choice of thread traces: the static base relations (po, loc, sr, scta,
// dependencies, ...) plus every choice of rf, co, fence-SC order and barrier grouping.
#pragma once

#include "litmus/build/threads.hpp"
#include "memmodel/graph/execution.hpp"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace ptxcheck::litmus {

struct GraphEvent {
  TEvent ev;
  int thread = -1;  // index into Program::threads; -1 = initial write
};

struct CandidateGraph {
  std::vector<GraphEvent> events;
  mm::Execution exec;
  std::vector<const Trace*> traces;
};

// Calls `f` once per candidate; stops early (returns false) when `f` returns false.
bool enumerate_graphs(const Program& p, const Test& t, const std::vector<const Trace*>& traces,
                      const std::function<bool(const CandidateGraph&)>& f);

// The final states of a candidate for the condition's terms (several when co leaves the last write open).
std::vector<std::map<std::string, std::int64_t>> final_states(const CandidateGraph& g, const std::vector<Term>& terms,
                                                              const Program& p, const Test& t);

}  // namespace ptxcheck::litmus
