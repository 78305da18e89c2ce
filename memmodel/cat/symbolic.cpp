// The symbolic evaluator (see symbolic.hpp for the encoding and why it is exact): the closed operator set of
// cat/ast.hpp folded over matrices of statically-known or Z3 bits. A three-valued "abstract" mode of the same
// fold (unknown bits stay unknown, no Z3 terms) computes the may/must shape of `let rec` fixpoints.
#include "memmodel/cat/symbolic.hpp"

#include <fmt/format.h>

#include <functional>
#include <set>
#include <stdexcept>

namespace ptxcheck::cat {

namespace {
constexpr int kPos = 1, kNeg = 2;  // polarity: bigger values help (pos) / hurt (neg) the axioms
constexpr int kUnknown = -1;       // an uncertain bit in abstract mode
int flip(int p) { return ((p & kPos) ? kNeg : 0) | ((p & kNeg) ? kPos : 0); }
bool uncertain(int b) { return b < 0 || b >= 2; }

// Polarity of every AST node and of every binding (by its node): computed backwards from the axioms.
struct Polarity {
  std::map<const Expr*, int> node;
  std::map<const Binding*, int> binding;

  void walk(const ExprPtr& e, int p, std::map<std::string, int>& need) {
    node[e.get()] |= p;
    std::visit(
        [&](const auto& n) {
          using T = std::decay_t<decltype(n)>;
          if constexpr (std::is_same_v<T, Name>) need[n.id] |= p;
          else if constexpr (std::is_same_v<T, Unary>) walk(n.a, n.op == UnOp::complement ? flip(p) : p, need);
          else if constexpr (std::is_same_v<T, Binary>) {
            walk(n.a, p, need);
            walk(n.b, n.op == BinOp::diff ? flip(p) : p, need);
          }
        },
        e->node);
  }
  explicit Polarity(const Model& m) {
    std::map<std::string, int> need;
    for (auto it = m.statements.rbegin(); it != m.statements.rend(); ++it) {
      if (auto* ax = std::get_if<Axiom>(&*it)) {
        walk(ax->body, ax->negated ? kPos : kNeg, need);
      } else if (auto* let = std::get_if<Let>(&*it)) {
        std::vector<int> p(let->bindings.size());
        for (std::size_t i = 0; i < p.size(); ++i) p[i] = need[let->bindings[i].name];
        for (auto& b : let->bindings) need.erase(b.name);
        if (let->rec) {
          // Occurrences of the recursive names inside the bodies add to their own polarity: iterate.
          for (bool changed = true; changed;) {
            changed = false;
            std::map<std::string, int> inner;
            for (std::size_t i = 0; i < p.size(); ++i) walk(let->bindings[i].body, p[i], inner);
            for (std::size_t i = 0; i < p.size(); ++i) {
              int q = p[i] | inner[let->bindings[i].name];
              if (q != p[i]) p[i] = q, changed = true;
            }
          }
        }
        for (std::size_t i = 0; i < p.size(); ++i) {
          binding[&let->bindings[i]] = p[i];
          std::map<std::string, int> inner;
          walk(let->bindings[i].body, p[i], inner);
          for (auto& [n, q] : inner) {
            bool self = false;
            if (let->rec)
              for (auto& b : let->bindings) self |= b.name == n;
            if (!self) need[n] |= q;
          }
        }
      }
    }
  }
};

// Does `name` occur in `e` only under monotone operators (never on the right of `\` or under `~`)?
bool monotone_in(const ExprPtr& e, const std::set<std::string>& names, bool positive = true) {
  return std::visit(
      [&](const auto& n) -> bool {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, Name>) return positive || !names.count(n.id);
        else if constexpr (std::is_same_v<T, Unary>)
          return monotone_in(n.a, names, n.op == UnOp::complement ? !positive : positive);
        else if constexpr (std::is_same_v<T, Binary>)
          return monotone_in(n.a, names, positive) &&
                 monotone_in(n.b, names, n.op == BinOp::diff ? !positive : positive);
        else return true;
      },
      e->node);
}
}  // namespace

SymbolicEncoder::SymbolicEncoder(z3::context& ctx, int n) : ctx_(ctx), n_(n) {
  pool_.push_back(ctx.bool_val(false));
  pool_.push_back(ctx.bool_val(true));
}

int SymbolicEncoder::bit(const z3::expr& e) {
  if (e.is_true()) return kTrue;
  if (e.is_false()) return kFalse;
  pool_.push_back(e);
  return static_cast<int>(pool_.size()) - 1;
}
z3::expr SymbolicEncoder::expr(int b) const {
  if (b < 0) throw std::logic_error("abstract bit has no Z3 term");
  return pool_[b];
}

void SymbolicEncoder::set_base(const std::string& name, const mm::Set& s) {
  SymValue v;
  v.is_set = true;
  v.bits.resize(n_);
  for (int i = 0; i < n_; ++i) v.bits[i] = s.has(i) ? kTrue : kFalse;
  base_[name] = std::move(v);
}
void SymbolicEncoder::set_base(const std::string& name, const mm::Rel& r) {
  SymValue v;
  v.bits.resize(static_cast<std::size_t>(n_) * n_);
  for (int a = 0; a < n_; ++a)
    for (int b = 0; b < n_; ++b) v.bits[a * n_ + b] = r.has(a, b) ? kTrue : kFalse;
  base_[name] = std::move(v);
}
void SymbolicEncoder::set_base(const std::string& name, SymValue v) { base_[name] = std::move(v); }

const SymValue* SymbolicEncoder::value(const std::string& name) const {
  if (auto it = env_.find(name); it != env_.end()) return &it->second;
  if (auto it = base_.find(name); it != base_.end()) return &it->second;
  return nullptr;
}

struct SymEval {
  SymbolicEncoder& E;
  const Polarity& pol;
  bool abstract = false;
  std::map<std::string, SymValue>* env;  // the environment being evaluated in
  int n() const { return E.n_; }

  // ---- bits
  int not1(int a) {
    if (a == SymbolicEncoder::kFalse) return SymbolicEncoder::kTrue;
    if (a == SymbolicEncoder::kTrue) return SymbolicEncoder::kFalse;
    if (abstract) return kUnknown;
    return E.bit(!E.pool_[a]);
  }
  int and2(int a, int b) {
    if (a == SymbolicEncoder::kFalse || b == SymbolicEncoder::kFalse) return SymbolicEncoder::kFalse;
    if (a == SymbolicEncoder::kTrue) return b;
    if (b == SymbolicEncoder::kTrue) return a;
    if (a == b) return a;
    if (abstract) return kUnknown;
    return E.bit(E.pool_[a] && E.pool_[b]);
  }
  int or_n(const std::vector<int>& v) {
    std::vector<int> xs;
    for (int b : v) {
      if (b == SymbolicEncoder::kTrue) return SymbolicEncoder::kTrue;
      if (b != SymbolicEncoder::kFalse && (xs.empty() || xs.back() != b)) xs.push_back(b);
    }
    if (xs.empty()) return SymbolicEncoder::kFalse;
    if (xs.size() == 1) return xs[0];
    if (abstract) return kUnknown;
    z3::expr_vector ev(E.ctx_);
    for (int b : xs) ev.push_back(E.pool_[b]);
    return E.bit(z3::mk_or(ev));
  }
  int or2(int a, int b) { return or_n({a, b}); }

  // ---- values
  SymValue rel(int init = SymbolicEncoder::kFalse) {
    SymValue v;
    v.bits.assign(static_cast<std::size_t>(n()) * n(), init);
    return v;
  }
  SymValue as_rel(const SymValue& v) {
    if (!v.is_set) return v;
    throw std::runtime_error("a set is used where a relation is needed");
  }
  SymValue identity() {
    SymValue r = rel();
    for (int i = 0; i < n(); ++i) r.bits[i * n() + i] = SymbolicEncoder::kTrue;
    return r;
  }
  SymValue get(const std::string& id) {
    if (auto it = env->find(id); it != env->end()) return it->second;
    if (auto it = E.base_.find(id); it != E.base_.end()) return it->second;
    if (id == "id") return identity();
    throw std::runtime_error("name '" + id + "' has no value in this execution");
  }
  SymValue seq(const SymValue& a, const SymValue& b) {
    const int N = n();
    SymValue r = rel();
    std::vector<std::vector<int>> terms(N);
    for (int i = 0; i < N; ++i) {
      for (auto& t : terms) t.clear();
      for (int k = 0; k < N; ++k) {
        int x = a.bits[i * N + k];
        if (x == SymbolicEncoder::kFalse) continue;
        for (int j = 0; j < N; ++j) {
          int y = b.bits[k * N + j];
          if (y != SymbolicEncoder::kFalse) terms[j].push_back(and2(x, y));
        }
      }
      for (int j = 0; j < N; ++j) r.bits[i * N + j] = or_n(terms[j]);
    }
    return r;
  }
  SymValue union_(SymValue a, const SymValue& b) {
    for (std::size_t i = 0; i < a.bits.size(); ++i) a.bits[i] = or2(a.bits[i], b.bits[i]);
    a.transitive = false;
    return a;
  }
  // Static reachability: may (any non-false bit) and must (true bits) closures of r (Warshall).
  void closures(const SymValue& r, std::vector<char>& may, std::vector<char>& must) {
    const int N = n();
    may.assign(r.bits.size(), 0);
    must.assign(r.bits.size(), 0);
    for (std::size_t i = 0; i < r.bits.size(); ++i) {
      may[i] = r.bits[i] != SymbolicEncoder::kFalse;
      must[i] = r.bits[i] == SymbolicEncoder::kTrue;
    }
    for (int k = 0; k < N; ++k)
      for (int a = 0; a < N; ++a)
        for (int b = 0; b < N; ++b) {
          if (may[a * N + k] && may[k * N + b]) may[a * N + b] = 1;
          if (must[a * N + k] && must[k * N + b]) must[a * N + b] = 1;
        }
  }
  // Two bits with the same value in every model (the same pool entry or the same Z3 term).
  bool same_bit(int x, int y) const {
    if (x == y) return true;
    if (!uncertain(x) || !uncertain(y) || x < 0 || y < 0) return false;
    return z3::eq(E.pool_[x], E.pool_[y]);
  }
  // Base relations known transitive (SymValue::transitive) and contained in r in every model: each of their
  // pairs is statically true in r, or r's bit there is theirs or a disjunction with theirs among its terms.
  std::vector<const SymValue*> transitive_parts(const SymValue& r) const {
    std::vector<const SymValue*> qs;
    for (auto& [name, q] : E.base_) {
      if (!q.transitive || q.is_set || q.bits.size() != r.bits.size()) continue;
      bool inside = true, any = false;
      for (std::size_t i = 0; i < q.bits.size() && inside; ++i) {
        int x = q.bits[i], y = r.bits[i];
        if (x == SymbolicEncoder::kFalse || y == SymbolicEncoder::kTrue) continue;
        if (same_bit(x, y)) { any |= uncertain(x); continue; }
        inside = false;
        if (uncertain(x) && uncertain(y) && x >= 0 && y >= 0) {
          const z3::expr& e = E.pool_[y];
          if (e.is_app() && e.decl().decl_kind() == Z3_OP_OR)
            for (unsigned i2 = 0; i2 < e.num_args() && !inside; ++i2) inside = z3::eq(e.arg(i2), E.pool_[x]);
        }
      }
      if (inside && any) qs.push_back(&q);
    }
    return qs;
  }
  SymValue plus(const SymValue& r, int polarity) {
    if (r.transitive) return r;
    const int N = n();
    std::vector<char> may, must;
    closures(r, may, must);
    SymValue t = rel();
    t.transitive = true;
    bool any_uncertain = false;
    for (std::size_t i = 0; i < t.bits.size(); ++i) {
      t.bits[i] = must[i] ? SymbolicEncoder::kTrue : may[i] ? kUnknown : SymbolicEncoder::kFalse;
      any_uncertain |= may[i] && !must[i];
    }
    if (!any_uncertain || abstract) return t;
    if ((polarity & kPos) == 0) {
      // Negative use: fresh t(a,b) >= r(a,b) and t(a,k) & r(k,b) (a least-fixpoint upper bound).
      for (std::size_t i = 0; i < t.bits.size(); ++i)
        if (t.bits[i] == kUnknown) t.bits[i] = E.bit(E.ctx_.bool_const(fmt::format("t!{}", E.fresh_++).c_str()));
      // Paths through a known-transitive part Q of r (e.g. a total Fence-SC order): skip(a, k, b) when (k, b)
      // is an edge of r only as an edge of Q and every edge of r into k from a or from a node a may reach is
      // too: a path a ..j -Q-> k -Q-> b then has the shortcut a ..j -Q-> b, shorter, so t(a, b) is still
      // forced by induction on path length (exact: the true closure still satisfies every constraint).
      std::vector<std::vector<char>> in_q;  // per Q: [a * N + k]
      std::vector<const SymValue*> qs = transitive_parts(r);
      for (const SymValue* q : qs) {
        std::vector<char> v(static_cast<std::size_t>(N) * N, 0);
        for (int a = 0; a < N; ++a)
          for (int k = 0; k < N; ++k) {
            bool ok = true;
            for (int j = 0; j < N && ok; ++j)
              if ((j == a || may[a * N + j]) && r.bits[j * N + k] != SymbolicEncoder::kFalse)
                ok = same_bit(r.bits[j * N + k], q->bits[j * N + k]);
            v[a * N + k] = ok;
          }
        in_q.push_back(std::move(v));
      }
      for (int a = 0; a < N; ++a)
        for (int b = 0; b < N; ++b) {
          int tab = t.bits[a * N + b];
          if (!uncertain(tab)) continue;
          std::vector<int> below{r.bits[a * N + b]};
          for (int k = 0; k < N; ++k) {
            int x = t.bits[a * N + k], y = r.bits[k * N + b];
            if (x == SymbolicEncoder::kFalse || y == SymbolicEncoder::kFalse) continue;
            bool skip = false;
            for (std::size_t qi = 0; qi < qs.size() && !skip; ++qi)
              skip = in_q[qi][a * N + k] && same_bit(y, qs[qi]->bits[k * N + b]);
            if (!skip) below.push_back(and2(x, y));
          }
          for (int c : below)
            if (c != SymbolicEncoder::kFalse) E.defs_.push_back(z3::implies(E.pool_[c], E.pool_[tab]));
        }
      return t;
    }
    // Exact: S := S | S;S covers paths of length 2^k after k rounds; simple paths are shorter than N.
    SymValue s = r;
    for (int len = 1; len < N; len *= 2) s = union_(s, seq(s, s));
    s.transitive = true;
    return s;
  }

  SymValue eval(const ExprPtr& e) {
    auto pit = pol.node.find(e.get());
    int p = pit == pol.node.end() ? kNeg : pit->second;
    return std::visit(
        [&](const auto& node) -> SymValue {
          using T = std::decay_t<decltype(node)>;
          if constexpr (std::is_same_v<T, Name>) return get(node.id);
          else if constexpr (std::is_same_v<T, Universe>) {
            SymValue s;
            s.is_set = true;
            s.bits.assign(n(), SymbolicEncoder::kTrue);
            return s;
          } else if constexpr (std::is_same_v<T, EmptyRel>) return rel();
          else if constexpr (std::is_same_v<T, Unary>) {
            SymValue a = eval(node.a);
            const int N = n();
            switch (node.op) {
              case UnOp::bracket: {
                if (!a.is_set) throw std::runtime_error("[...] needs a set");
                SymValue r = rel();
                for (int i = 0; i < N; ++i) r.bits[i * N + i] = a.bits[i];
                return r;
              }
              case UnOp::complement:
                for (auto& b : a.bits) b = not1(b);
                a.transitive = false;
                return a;
              case UnOp::inverse: {
                a = as_rel(a);
                SymValue r = rel();
                for (int i = 0; i < N; ++i)
                  for (int j = 0; j < N; ++j) r.bits[j * N + i] = a.bits[i * N + j];
                r.transitive = a.transitive;
                return r;
              }
              case UnOp::plus: return plus(as_rel(a), p);
              case UnOp::star: return union_(plus(as_rel(a), p), identity());
              case UnOp::opt: return union_(as_rel(a), identity());
            }
            throw std::logic_error("unary");
          } else {
            SymValue a = eval(node.a), b = eval(node.b);
            if (node.op == BinOp::cartesian) {
              if (!a.is_set || !b.is_set) throw std::runtime_error("'*' needs two sets");
              SymValue r = rel();
              for (int i = 0; i < n(); ++i)
                for (int j = 0; j < n(); ++j) r.bits[i * n() + j] = and2(a.bits[i], b.bits[j]);
              return r;
            }
            if (node.op == BinOp::seq) return seq(as_rel(a), as_rel(b));
            if (a.is_set != b.is_set) throw std::runtime_error("set and relation mixed in |, & or \\");
            if (node.op == BinOp::union_) return union_(std::move(a), b);
            for (std::size_t i = 0; i < a.bits.size(); ++i)
              a.bits[i] = node.op == BinOp::inter ? and2(a.bits[i], b.bits[i]) : and2(a.bits[i], not1(b.bits[i]));
            a.transitive = false;
            return a;
          }
        },
        e->node);
  }

  // `let rec`: the least fixpoint. Abstract Kleene iteration gives its may/must shape; a monotone binding used
  // only negatively gets fresh bits bounded from below by its body, otherwise symbolic Kleene iteration runs
  // as many rounds as the shape has pairs (each round adds at least one pair in every model until stable).
  void let_rec(const Let& let) {
    std::set<std::string> names;
    for (auto& b : let.bindings) names.insert(b.name);
    for (auto& b : let.bindings) (*env)[b.name] = rel();
    // Abstract shape.
    bool was_abstract = abstract;
    abstract = true;
    int rounds = 0;
    for (;; ++rounds) {
      bool changed = false;
      for (auto& b : let.bindings) {
        SymValue v = eval(b.body);
        for (auto& x : v.bits) if (uncertain(x)) x = kUnknown;
        if (v.bits != (*env)[b.name].bits || v.is_set != (*env)[b.name].is_set) changed = true;
        (*env)[b.name] = std::move(v);
      }
      if (!changed) break;
      if (rounds > 4 * n() * n() + 8) throw std::runtime_error("let rec did not converge");
    }
    abstract = was_abstract;
    if (abstract) return;
    bool lower_bound = true;
    for (auto& b : let.bindings) {
      auto it = pol.binding.find(&b);
      int p = it == pol.binding.end() ? kNeg : it->second;
      if ((p & kPos) || !monotone_in(b.body, names)) lower_bound = false;
    }
    std::size_t shape = 0;
    for (auto& b : let.bindings)
      for (int x : (*env)[b.name].bits) shape += x != SymbolicEncoder::kFalse;
    if (lower_bound) {
      for (auto& b : let.bindings)
        for (auto& x : (*env)[b.name].bits)
          if (x == kUnknown) x = E.bit(E.ctx_.bool_const(fmt::format("r!{}", E.fresh_++).c_str()));
      for (auto& b : let.bindings) {
        SymValue body = eval(b.body);
        auto& v = (*env)[b.name].bits;
        for (std::size_t i = 0; i < v.size(); ++i)
          if (uncertain(v[i]) && body.bits[i] != SymbolicEncoder::kFalse)
            E.defs_.push_back(z3::implies(E.pool_[body.bits[i]], E.pool_[v[i]]));
      }
      return;
    }
    if (shape > 4096) throw std::runtime_error("let rec too large for an exact encoding");
    for (auto& b : let.bindings) (*env)[b.name] = rel();
    for (std::size_t r = 0; r <= shape; ++r)
      for (auto& b : let.bindings) (*env)[b.name] = eval(b.body);
  }
};

void SymbolicEncoder::encode(const Model& model) {
  Polarity pol(model);
  env_.clear();
  axioms_.clear();
  SymEval ev{*this, pol, false, &env_};
  for (auto& st : model.statements) {
    if (auto* let = std::get_if<Let>(&st)) {
      if (let->rec) { ev.let_rec(*let); continue; }
      std::vector<SymValue> vals;
      for (auto& b : let->bindings) vals.push_back(ev.eval(b.body));
      for (std::size_t i = 0; i < vals.size(); ++i) env_[let->bindings[i].name] = std::move(vals[i]);
    } else if (auto* ax = std::get_if<Axiom>(&st)) {
      SymValue v = ev.eval(ax->body);
      const int N = n_;
      // `~acyclic r`: clocks cannot be negated, so r+ (exact: the body's polarity is positive) is reflexive.
      if (ax->negated && ax->kind == AxiomKind::acyclic) v = ev.plus(ev.as_rel(v), kPos);
      z3::expr_vector conj(ctx_);
      if (ax->kind == AxiomKind::empty) {
        for (int b : v.bits) if (b != kFalse) conj.push_back(!pool_[b]);
      } else {
        if (v.is_set) throw std::runtime_error("a set is used where a relation is needed");
        for (int i = 0; i < N; ++i)
          if (v.bits[i * N + i] != kFalse) conj.push_back(!pool_[v.bits[i * N + i]]);
        if (ax->kind == AxiomKind::acyclic && !ax->negated) {
          // Integer clocks, only on edges inside a strongly connected component of the may-graph (no other
          // edge can lie on a cycle).
          std::vector<char> may, must;
          ev.closures(v, may, must);
          // Bit-vector clocks wide enough to number every event (keeps the problem finite-domain, so Z3's SAT
          // core solves it).
          unsigned width = 1;
          while ((1 << width) < N) ++width;
          std::map<int, z3::expr> clock;
          auto c = [&](int i) -> z3::expr {
            auto it = clock.find(i);
            if (it == clock.end())
              it = clock.emplace(i, ctx_.bv_const(fmt::format("c!{}", fresh_++).c_str(), width)).first;
            return it->second;
          };
          for (int a = 0; a < N; ++a)
            for (int b = 0; b < N; ++b) {
              int x = v.bits[a * N + b];
              if (a == b || x == kFalse || !may[b * N + a]) continue;
              conj.push_back(z3::implies(pool_[x], z3::ult(c(a), c(b))));
            }
        }
      }
      z3::expr holds = conj.empty() ? ctx_.bool_val(true) : z3::mk_and(conj);
      if (ax->negated) holds = !holds;
      axioms_.push_back(SymAxiom{ax->name, holds});
    }
  }
}

}  // namespace ptxcheck::cat
