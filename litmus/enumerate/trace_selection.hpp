#pragma once
// Which of a thread's traces (of one shape) a Z3 model runs, for the merged symbolic engine
// (docs/litmus-merged-encoding.md). Two encodings of the same choice:
// - factored: when the traces are exactly every combination of the values their reads return (straight-line
//   code whose reads do not steer it: the common litmus case), one small variable per read picks that read's
//   value, and a value computed from one read is a term over that read's variable alone. Size: linear in the
//   reads, where a selector over the traces grows as 2^reads (Dat3M's IRIW-n: n/2 reads per reader);
// - one selector over the traces otherwise.
// Both are exact: every assignment of the variables selects exactly one trace.
#include "litmus/build/threads.hpp"

#include <z3++.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <vector>

namespace ptxcheck::litmus {

using Of = std::function<std::int64_t(const Trace&)>;

class Selection {
 public:
  // Constraints on the new variables (their ranges) are appended to `constraints`; `thread` names them.
  Selection(z3::context& ctx, std::vector<const Trace*> traces, std::size_t thread, std::vector<z3::expr>& constraints);

  const std::vector<const Trace*>& traces() const { return traces_; }
  bool factored() const { return !reads_.empty(); }
  // The thread runs traces()[j].
  z3::expr selected(std::size_t j) const;
  // f(selected trace) == v: nullopt when no trace has it.
  std::optional<z3::expr> is_value(const Of& f, std::int64_t v) const;
  // f(selected trace) as a 64-bit term (a constant when every trace agrees).
  z3::expr pick(const Of& f) const;
  // The values f takes over the traces.
  std::set<std::int64_t> values(const Of& f) const;

 private:
  // The read whose value alone determines f (factored form only), with f's value per value of that read.
  struct Dependence {
    std::size_t read = 0;
    std::vector<std::int64_t> f_of;  // per index into domain_[read]
  };
  std::optional<Dependence> depends_on_one_read(const Of& f) const;
  bool factor();

  z3::context* ctx_;
  std::vector<const Trace*> traces_;
  std::optional<z3::expr> trace_var_;               // the selector (not factored, more than one trace)
  std::vector<int> reads_;                          // factored: event indices of the reads whose values vary
  std::vector<std::vector<std::int64_t>> domain_;   // per read, the values it can return
  std::vector<std::vector<std::uint32_t>> at_;      // per trace, per read: index into its domain
  std::vector<z3::expr> read_var_;                  // per read, the index of the value it returns
};

}  // namespace ptxcheck::litmus
