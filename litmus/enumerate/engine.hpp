// What the two enumeration engines share (internal to litmus/enumerate): the prepared test (program, condition
// terms, thread traces) and the collection of final states into a Result.
#pragma once

#include "litmus/enumerate/enumerate.hpp"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ptxcheck::litmus {

struct Prepared {
  const Test& t;
  Program p;
  std::vector<Term> terms;                 // the condition's registers and locations
  std::vector<std::vector<Trace>> traces;  // per thread, complete traces only
};

// "P1:r0" for a register term, the name for a location, the number for an immediate (the keys of final states).
std::string render_term(const Term& t);

class StateCollector {
 public:
  explicit StateCollector(Result& res) : res_(res) {}
  // Records one allowed (execution or trace combination, final state) pair.
  void add(const std::map<std::string, std::int64_t>& vals, bool sat, const mm::Execution* witness);

 private:
  Result& res_;
  std::map<std::map<std::string, std::int64_t>, std::size_t> index_;
};

// Calls f once per combination of thread traces (one trace per thread); stops when f returns false.
bool for_each_combination(const Prepared& pr, const std::function<bool(const std::vector<const Trace*>&)>& f);

// Each engine fills res.states / positive / negative / candidates / explanation; nullopt when it finished,
// otherwise the reason the result is unknown (budget, solver timeout, unsupported model construct).
std::optional<std::string> enumerate_explicit(const Prepared& pr, const cat::Model& model, const Options& opt,
                                              Result& res);
std::optional<std::string> enumerate_symbolic(const Prepared& pr, const cat::Model& model, const Options& opt,
                                              Result& res);
std::optional<std::string> enumerate_symbolic_split(const Prepared& pr, const cat::Model& model, const Options& opt,
                                                    Result& res);

}  // namespace ptxcheck::litmus
