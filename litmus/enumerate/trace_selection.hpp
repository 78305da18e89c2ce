#pragma once
// Which of a thread's traces (of one shape) a Z3 model runs, for the merged symbolic engine
// (docs/litmus-merged-encoding.md). Two encodings of the same choice:
// - factored: when the traces are exactly every combination of the values their reads return (straight-line
//   code whose reads do not steer it: the common litmus case), one small variable per read picks that read's
//   value, and a value computed from one read is a term over that read's variable alone. Size: linear in the
//   reads, where a selector over the traces grows as 2^reads (Dat3M's IRIW-n: n/2 reads per reader);
// - one selector over the traces otherwise;
// - product: one compact trace (Trace::free) whose free reads get a variable each, never listing its expansions.
// All are exact: every assignment of the variables selects exactly one trace.
#include "litmus/build/threads.hpp"

#include <z3++.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <vector>

namespace ptxcheck::litmus {

using Of = std::function<std::int64_t(const Trace&)>;

// A value wanted as a term over the selected trace: an event's value, or a final register's.
struct Quantity {
  Of of;                                         // its value in a trace, unless a free read gives it
  std::function<int(const Trace&)> free_read;    // in a compact trace: the free read whose value it is, or -1
};
// The values q takes over the traces tr stands for.
std::set<std::int64_t> values_in(const Trace& tr, const Quantity& q);

class Selection {
 public:
  // Constraints on the new variables (their ranges) are appended to `constraints`; `thread` names them. The
  // traces are one (compact or not) or several without free reads.
  Selection(z3::context& ctx, std::vector<const Trace*> traces, std::size_t thread, std::vector<z3::expr>& constraints);

  const std::vector<const Trace*>& traces() const { return traces_; }
  bool factored() const { return !reads_.empty() && !product(); }
  // The trace a model of the constraints selects (without free reads).
  Trace chosen(const z3::model& m) const;
  // q(selected trace) == v: nullopt when no trace has it.
  std::optional<z3::expr> is_value(const Quantity& q, std::int64_t v) const;
  // q(selected trace) as a 64-bit term (a constant when every trace agrees).
  z3::expr pick(const Quantity& q) const;
  // The values q takes over the traces.
  std::set<std::int64_t> values(const Quantity& q) const;

 private:
  // The read whose value alone determines f (factored form only), with f's value per value of that read.
  struct Dependence {
    std::size_t read = 0;
    std::vector<std::int64_t> f_of;  // per index into domain_[read]
  };
  std::optional<Dependence> depends_on_one_read(const Of& f) const;
  bool factor();
  bool product() const { return traces_.size() == 1 && !traces_.front()->free.empty(); }
  // The thread runs traces()[j] (not in product form).
  z3::expr selected(std::size_t j) const;
  z3::expr read_is(std::size_t read, std::size_t index) const;

  z3::context* ctx_;
  std::vector<const Trace*> traces_;
  std::optional<z3::expr> trace_var_;               // the selector (not factored, more than one trace)
  std::vector<int> reads_;                          // factored / product: event indices of the reads whose values vary
  std::vector<std::vector<std::int64_t>> domain_;   // per read, the values it can return (ascending)
  std::vector<std::vector<std::uint32_t>> at_;      // per trace, per read: index into its domain
  std::vector<z3::expr> read_var_;                  // per read, the index of the value it returns
};

}  // namespace ptxcheck::litmus
