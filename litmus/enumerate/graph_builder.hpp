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

// The choices one combination of thread traces leaves open, shared by both engines: the explicit one
// enumerates them, the symbolic one turns them into Z3 variables.
struct CandidateSpace {
  CandidateGraph g;                          // static base sets and relations; rf, co, syncbar, sync_fence empty
  bool feasible = true;                      // false: a read's value has no write, or a barrier never completes
  std::vector<int> reads;                    // read events, and for each its candidate writes (same loc, value)
  std::vector<std::vector<int>> rf_cands;
  std::vector<std::vector<int>> loc_writes;  // per physical location: its non-initial writes (the initial write
                                             // of location l is event l, co-before all of them)
  std::vector<int> sc_fences;                // fence.sc events (Fence-SC order: a total order over them, 8.9.3)
  std::vector<std::vector<mm::Rel>> bar_choices;  // the possible syncbar relations of the barrier phases (one
                                                  // choice for all barriers; none without barriers)
};
// The barrier an arrival event of thread `ti` belongs to: (the CTA's lowest thread index, id, instance).
std::tuple<int, int, int> barrier_key(const Program& p, int ti, const TEvent& e);
// Fills p.barrier_users from every trace of every thread (traces[ti]: thread ti's).
void note_barrier_users(Program& p, const std::vector<std::vector<Trace>>& traces);

// match_values = false: a read's candidate writes are all writes to its location, whatever their values (the
// merged symbolic engine constrains the values itself, since they depend on which trace each thread runs).
CandidateSpace build_space(const Program& p, const std::vector<const Trace*>& traces, bool match_values = true);

// Calls `f` once per candidate; stops early (returns false) when `f` returns false, or when a location has
// more writes than the explicit enumeration of partial orders can handle (then *too_large is set).
bool enumerate_graphs(const Program& p, const Test& t, const std::vector<const Trace*>& traces,
                      const std::function<bool(const CandidateGraph&)>& f, bool* too_large = nullptr);

// The final value of a condition's register term in these traces (its initial value if never written).
std::int64_t register_value(const Term& term, const std::vector<const Trace*>& traces, const Program& p, const Test& t);

// The final states of a candidate for the condition's terms (several when co leaves the last write open).
std::vector<std::map<std::string, std::int64_t>> final_states(const CandidateGraph& g, const std::vector<Term>& terms,
                                                              const Program& p, const Test& t);

}  // namespace ptxcheck::litmus
