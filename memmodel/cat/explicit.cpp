// The explicit evaluator: folds the closed operator set of cat/ast.hpp over concrete bit matrices;
// `let rec` by Kleene iteration from the empty relation (the least fixpoint, as herd7 computes it).
#include "memmodel/cat/explicit.hpp"

#include <stdexcept>

namespace ptxcheck::cat {
using mm::Rel;
using mm::Set;

namespace {
struct Eval {
  const mm::Execution& x;
  std::map<std::string, Value>& env;

  Rel as_rel(const Value& v) const {
    if (auto* r = std::get_if<Rel>(&v)) return *r;
    throw std::runtime_error("a set is used where a relation is needed");
  }
  Value get(const std::string& n) const {
    if (auto it = env.find(n); it != env.end()) return it->second;
    if (auto it = x.sets.find(n); it != x.sets.end()) return it->second;
    if (auto it = x.rels.find(n); it != x.rels.end()) return it->second;
    if (n == "id") return Rel::identity(x.n);
    throw std::runtime_error("name '" + n + "' has no value in this execution");
  }
  Value eval(const ExprPtr& e) const {
    return std::visit(
        [&](const auto& node) -> Value {
          using T = std::decay_t<decltype(node)>;
          if constexpr (std::is_same_v<T, Name>) return get(node.id);
          else if constexpr (std::is_same_v<T, Universe>) return Set::all(x.n);
          else if constexpr (std::is_same_v<T, EmptyRel>) return Rel(x.n);
          else if constexpr (std::is_same_v<T, Unary>) {
            Value a = eval(node.a);
            switch (node.op) {
              case UnOp::bracket:
                if (auto* s = std::get_if<Set>(&a)) return Rel::bracket(*s);
                throw std::runtime_error("[...] needs a set");
              case UnOp::complement:
                if (auto* s = std::get_if<Set>(&a)) { Set r = Set::all(x.n); r.minus(*s); return r; }
                return as_rel(a).complement();
              case UnOp::inverse: return as_rel(a).inverse();
              case UnOp::plus: return as_rel(a).plus();
              case UnOp::star: return as_rel(a).star();
              case UnOp::opt: return as_rel(a).opt();
            }
            throw std::logic_error("unary");
          } else {
            Value a = eval(node.a), b = eval(node.b);
            if (node.op == BinOp::cartesian) {
              auto* sa = std::get_if<Set>(&a);
              auto* sb = std::get_if<Set>(&b);
              if (!sa || !sb) throw std::runtime_error("'*' needs two sets");
              return Rel::cartesian(*sa, *sb);
            }
            if (node.op == BinOp::seq) return as_rel(a).seq(as_rel(b));
            if (std::holds_alternative<Set>(a) != std::holds_alternative<Set>(b))
              throw std::runtime_error("set and relation mixed in |, & or \\");
            if (auto* sa = std::get_if<Set>(&a)) {
              Set r = *sa;
              const Set& sb = std::get<Set>(b);
              if (node.op == BinOp::union_) r |= sb;
              else if (node.op == BinOp::inter) r &= sb;
              else r.minus(sb);
              return r;
            }
            Rel r = std::get<Rel>(a);
            const Rel& rb = std::get<Rel>(b);
            if (node.op == BinOp::union_) r |= rb;
            else if (node.op == BinOp::inter) r &= rb;
            else r.minus(rb);
            return r;
          }
        },
        e->node);
  }
};
}  // namespace

ExplicitResult evaluate_explicit(const Model& model, const mm::Execution& exec, bool stop_at_first) {
  ExplicitResult res;
  Eval ev{exec, res.env};
  for (auto& st : model.statements) {
    if (auto* let = std::get_if<Let>(&st)) {
      if (!let->rec) {
        for (auto& b : let->bindings) res.env[b.name] = ev.eval(b.body);
        continue;
      }
      for (auto& b : let->bindings) res.env[b.name] = Rel(exec.n);
      for (int iter = 0;; ++iter) {
        bool changed = false;
        for (auto& b : let->bindings) {
          Value v = ev.eval(b.body);
          if (!(v == res.env[b.name])) { res.env[b.name] = std::move(v); changed = true; }
        }
        if (!changed) break;
        if (iter > 4 * exec.n * exec.n + 8) throw std::runtime_error("let rec did not converge");
      }
    } else if (auto* ax = std::get_if<Axiom>(&st)) {
      Value v = ev.eval(ax->body);
      bool holds = false;
      if (ax->kind == AxiomKind::empty) {
        holds = std::holds_alternative<Set>(v) ? std::get<Set>(v).empty() : std::get<Rel>(v).empty();
      } else {
        Rel r = ev.as_rel(v);
        holds = ax->kind == AxiomKind::acyclic ? r.acyclic() : r.irreflexive();
      }
      if (ax->negated) holds = !holds;
      res.axioms.emplace_back(ax->name, holds);
      if (!holds && stop_at_first) break;
    }
  }
  return res;
}

}  // namespace ptxcheck::cat
