// The cat language AST: a closed set of relation/set operators (one std::variant) and the statements of a
// model (let, let rec, include, named axioms). Produced by cat/parse.cpp, read by both evaluators.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace ptxcheck::cat {

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

enum class UnOp { inverse, plus, star, opt, bracket, complement };
enum class BinOp { union_, inter, diff, seq, cartesian };

struct Name { std::string id; };
struct Universe {};  // `_`
struct EmptyRel {};  // `0`
struct Unary { UnOp op; ExprPtr a; };
struct Binary { BinOp op; ExprPtr a, b; };

struct Expr {
  std::variant<Name, Universe, EmptyRel, Unary, Binary> node;
  std::size_t offset = 0;  // byte offset in the model's text
};

enum class AxiomKind { acyclic, irreflexive, empty };
struct Axiom {
  AxiomKind kind;
  bool negated = false;  // `~empty` etc. (flag-less models only use the positive forms)
  ExprPtr body;
  std::string name;      // `as name`; generated when absent
  std::size_t offset = 0;
};
struct Binding { std::string name; ExprPtr body; std::size_t offset = 0; };
struct Let { bool rec = false; std::vector<Binding> bindings; };
struct Include { std::string file; std::size_t offset = 0; };

using Statement = std::variant<Let, Axiom, Include>;

struct Model {
  std::string title;                 // the first line (e.g. `PTX`)
  std::string file;                  // where it was loaded from
  std::string text;                  // its source (for diagnostics)
  std::vector<Statement> statements; // includes already expanded
};

}  // namespace ptxcheck::cat
