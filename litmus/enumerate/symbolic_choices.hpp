// What both symbolic engines share (internal to litmus/enumerate): the open choices of a candidate space as
// Z3 variables (rf: one write per read; co: a strict partial order per location, 8.9.6; Fence-SC order: a
// total order of the fence.sc events, 8.9.3; barrier groupings: one of the possible ones), the concrete
// relations of a model, and the test's condition as a formula.
#pragma once

#include "litmus/enumerate/graph_builder.hpp"
#include "litmus/parse/ast.hpp"
#include "memmodel/cat/symbolic.hpp"
#include "semantics/support/solver.hpp"

#include <z3++.h>

#include <functional>
#include <optional>
#include <vector>

namespace ptxcheck::litmus {

struct Choices {
  cat::SymValue rf, co, sync_fence, syncbar;
  std::vector<z3::expr> constraints;  // well-formedness of the choices
};

// value_match(w, r): when given, the condition under which write w has the value read r returns (nullopt:
// never); rf(w, r) then implies it. Without it the space's rf candidates already match in value.
using ValueMatch = std::function<std::optional<z3::expr>(int w, int r)>;
Choices make_choices(const CandidateSpace& sp, cat::SymbolicEncoder& enc, const ValueMatch* value_match = nullptr);

// The model over candidate space sp, as both symbolic engines and the liveness check start: the space's base
// sets and relations and the choices (make_choices) set on `enc`, then the model encoded. Returns the choices.
Choices encode_model(const CandidateSpace& sp, const cat::Model& model, cat::SymbolicEncoder& enc, const ValueMatch* value_match = nullptr);

// A finite-domain solver (Z3's incremental SAT-based one, everything being Booleans and bit-vectors) holding the
// choices' constraints and the encoder's definitions. Its checks go through solver::check with check_budget.
z3::solver model_solver(z3::context& ctx, const Choices& ch, const cat::SymbolicEncoder& enc);

// A test's budget per solver check (Options::solver_timeout_ms; no resource limit).
inline solver::Budget check_budget(unsigned solver_timeout_ms) { return {0, solver_timeout_ms}; }

// The relation a model gives a symbolic value.
mm::Rel concrete(const cat::SymValue& v, const cat::SymbolicEncoder& enc, const z3::model& m, int n);

// The condition as a Z3 formula; term(t) gives a register or location term's value (64-bit).
z3::expr cond_expr(const CondPtr& c, const std::function<z3::expr(const Term&)>& term, z3::context& ctx);

}  // namespace ptxcheck::litmus
