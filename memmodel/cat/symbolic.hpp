// The symbolic evaluator: a loaded cat model over an execution whose base sets and relations are Boolean
// matrices of Z3 terms, each entry statically false, statically true, or an uncertain Z3 Boolean (may/must).
// Used by litmus/enumerate to find every allowed execution; the explicit evaluator checks one candidate.
//
// Encoding (exact for every model, DESIGN.md "one model, two evaluators"):
//  - entries are folded statically (false & x = false, ...), so Z3 only sees the uncertain pairs;
//  - `R+` / `let rec` used only where a larger relation can only falsify an axiom (negative polarity:
//    inside `acyclic`, `irreflexive`, `empty`, the left of `\`) get one fresh Boolean per uncertain pair
//    constrained from below (t >= r, t >= t;r): any model has t >= the true closure, and the axiom is
//    antitone, so the allowed base choices are exactly those of the true closure; the t(a,k) & r(k,b) bound is
//    left out where (k,b) and every edge into k from a or a node a may reach are edges of a transitive base
//    relation Q inside r (SymValue::transitive, e.g. a total Fence-SC order): such a path has a shorter one;
//  - a closure anywhere else (under `\`'s right side, `~`, or used both ways) is computed exactly by
//    iterated squaring (S := S | S;S until paths of length n are covered); a `let rec` by Kleene iteration;
//  - `acyclic r` by integer clocks (r(a,b) => clock a < clock b), `irreflexive` / `empty` pointwise.
#pragma once

#include "memmodel/cat/ast.hpp"
#include "memmodel/graph/relation.hpp"

#include <z3++.h>

#include <map>
#include <string>
#include <vector>

namespace ptxcheck::cat {

// A set (n bits) or a relation (n*n bits, row-major). A bit is kFalse, kTrue or an index (>= 2) into the
// encoder's pool of uncertain Z3 Booleans.
struct SymValue {
  bool is_set = false;
  std::vector<int> bits;
  bool transitive = false;  // known transitive (a base order such as co): R+ = R
};

struct SymAxiom {
  std::string name;
  z3::expr holds;  // true iff the axiom holds (with the encoder's definitions asserted)
};

class SymbolicEncoder {
 public:
  static constexpr int kFalse = 0, kTrue = 1;

  SymbolicEncoder(z3::context& ctx, int n);

  int n() const { return n_; }
  z3::context& ctx() { return ctx_; }
  // A bit for a Z3 Boolean (folded when it is a literal true/false).
  int bit(const z3::expr& e);
  z3::expr expr(int bit) const;

  // Base names (every name of base_names() the model uses must be given one before encode()).
  void set_base(const std::string& name, const mm::Set& s);
  void set_base(const std::string& name, const mm::Rel& r);
  void set_base(const std::string& name, SymValue v);

  // Evaluates the model's statements; throws std::runtime_error on a type error or a missing base name.
  void encode(const Model& model);

  // After encode(): one formula per axiom, and the definitions (closure and fixpoint constraints) that must
  // be asserted with them. The definitions are always satisfiable, whatever the axioms.
  const std::vector<SymAxiom>& axioms() const { return axioms_; }
  const std::vector<z3::expr>& definitions() const { return defs_; }
  // The value of a defined or base name (for tests and explanations).
  const SymValue* value(const std::string& name) const;
  // Number of fresh Booleans introduced for closures / fixpoints (encoding size, for tests and benches).
  int fresh_count() const { return fresh_; }

 private:
  friend struct SymEval;
  z3::context& ctx_;
  int n_;
  std::vector<z3::expr> pool_;
  std::map<std::string, SymValue> base_, env_;
  std::vector<SymAxiom> axioms_;
  std::vector<z3::expr> defs_;
  int fresh_ = 0;
};

}  // namespace ptxcheck::cat
