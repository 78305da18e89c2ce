// The symbolic evaluator against the explicit one, axiom by axiom: random executions in which a few entries
// of the base relations are left open (Z3 variables); for every assignment of the open entries, an axiom
// holds under the explicit evaluator iff the symbolic formula (with its definitions) is satisfiable with
// those values. Models: one written to put closures and `let rec` under `\`, `~` and in both polarities
// (where a one-sided encoding would be wrong), plus ptx.cat and the two reference models.
#include "memmodel/cat/explicit.hpp"
#include "memmodel/cat/parse.hpp"
#include "memmodel/cat/symbolic.hpp"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <fstream>
#include <random>
#include <string>
#include <vector>

using namespace ptxcheck;

namespace {
const char* kClosureModel = R"(X
let a = rf | co
let t = a+
let u = (po | rf)+
let rec o = rf | (o; co; o)
let rec q = rf | (q; po; q)
acyclic t as pos-closure
empty po \ u as closure-under-diff
irreflexive ~(u^-1) as closure-under-complement
empty (o \ (co+)) as rec-neg
acyclic (o | po) as rec-acyclic
empty ([R]; (u \ t); [W]) as diff-of-closures
irreflexive (po; (rf | co)*) as star
empty (rf \ ~t) as double-negation
empty (po \ q) as rec-pos
empty (q \ po) as rec-neg2
)";

cat::Model load_text(const std::string& text) {
  std::vector<Diagnostic> d;
  auto m = cat::parse_model(text, "closures.cat", d);
  REQUIRE(m.has_value());
  return *m;
}
cat::Model load_file(const std::string& path) {
  std::vector<Diagnostic> d;
  auto m = cat::load_model(path, cat::base_names(), d);
  REQUIRE(m.has_value());
  return *m;
}

struct Open { std::string rel; int a, b; };

// One random execution over every base name, with `k` open entries in rf / co / sync_fence / syncbar.
void differential(const cat::Model& model, int n, int k, unsigned seed, int rounds) {
  std::mt19937 rng(seed);
  for (int round = 0; round < rounds; ++round) {
    mm::Execution x;
    x.n = n;
    for (int i = 0; i < n; ++i) x.labels.push_back(fmt::format("e{}", i));
    std::bernoulli_distribution half(0.5), sparse(0.25);
    for (auto& name : cat::base_names()) {
      if (cat::is_base_set(name)) {
        mm::Set s(n);
        for (int i = 0; i < n; ++i) if (half(rng)) s.add(i);
        x.sets[name] = s;
      } else if (name != "id") {
        mm::Rel r(n);
        for (int a = 0; a < n; ++a)
          for (int b = 0; b < n; ++b)
            if (name == "po" ? a < b && half(rng) : sparse(rng)) r.add(a, b);
        x.rels[name] = r;
      }
    }
    x.rels["id"] = mm::Rel::identity(n);
    std::vector<Open> open;
    const char* rels[] = {"rf", "co", "sync_fence", "syncbar"};
    std::uniform_int_distribution<int> ev(0, n - 1), rel(0, 3);
    while (static_cast<int>(open.size()) < k) {
      Open o{rels[rel(rng)], ev(rng), ev(rng)};
      bool dup = false;
      for (auto& p : open) dup |= p.rel == o.rel && p.a == o.a && p.b == o.b;
      if (!dup) open.push_back(o);
    }
    z3::context ctx;
    cat::SymbolicEncoder enc(ctx, n);
    std::vector<z3::expr> vars;
    for (auto& [name, s] : x.sets) enc.set_base(name, s);
    for (auto& [name, r] : x.rels) enc.set_base(name, r);
    std::map<std::string, cat::SymValue> sym;
    for (auto& o : open) {
      if (!sym.count(o.rel)) {
        cat::SymValue v;
        v.bits.resize(static_cast<std::size_t>(n) * n);
        for (int a = 0; a < n; ++a)
          for (int b = 0; b < n; ++b) v.bits[a * n + b] = x.rels[o.rel].has(a, b) ? 1 : 0;
        sym[o.rel] = v;
      }
      vars.push_back(ctx.bool_const(fmt::format("v{}", vars.size()).c_str()));
      sym[o.rel].bits[o.a * n + o.b] = enc.bit(vars.back());
    }
    for (auto& [name, v] : sym) enc.set_base(name, v);
    enc.encode(model);
    z3::solver s(ctx);
    for (auto& d : enc.definitions()) s.add(d);
    for (unsigned mask = 0; mask < (1u << k); ++mask) {
      mm::Execution y = x;
      z3::expr_vector assume(ctx);
      for (int i = 0; i < k; ++i) {
        bool on = mask >> i & 1;
        auto& r = y.rels[open[i].rel];
        mm::Rel fixed(n);
        for (int a = 0; a < n; ++a)
          for (int b = 0; b < n; ++b)
            if (r.has(a, b) && !(a == open[i].a && b == open[i].b)) fixed.add(a, b);
        if (on) fixed.add(open[i].a, open[i].b);
        r = fixed;
        assume.push_back(on ? vars[i] : !vars[i]);
      }
      auto ex = cat::evaluate_explicit(model, y);
      REQUIRE(ex.axioms.size() == enc.axioms().size());
      for (std::size_t ai = 0; ai < ex.axioms.size(); ++ai) {
        s.push();
        s.add(enc.axioms()[ai].holds);
        bool sym_holds = s.check(assume) == z3::sat;
        s.pop();
        INFO("round ", round, " mask ", mask, " axiom ", ex.axioms[ai].first);
        CHECK(sym_holds == ex.axioms[ai].second);
      }
    }
  }
}
}  // namespace

TEST_CASE("closures and let rec in every polarity: symbolic == explicit for every open assignment") {
  differential(load_text(kClosureModel), 5, 6, 1, 25);
}

TEST_CASE("ptx.cat and the reference models: symbolic == explicit for every open assignment") {
  std::string corpus = std::string(PTXCHECK_CORPUS_DIR) + "/litmus-ptx/reference-models/";
  differential(load_file(std::string(PTXCHECK_SOURCE_DIR) + "/memmodel/models/ptx.cat"), 6, 5, 2, 10);
  differential(load_file(corpus + "ptx-v7.5.cat"), 6, 5, 3, 10);
  differential(load_file(corpus + "ptx-v6.0.cat"), 6, 5, 4, 10);
}

TEST_CASE("a closure used only negatively gets fresh bits; everything statically known folds away") {
  auto m = load_text("X\nlet t = (rf | co)+\nacyclic t as a\n");
  z3::context ctx;
  cat::SymbolicEncoder enc(ctx, 3);
  for (auto& name : cat::base_names())
    if (cat::is_base_set(name)) enc.set_base(name, mm::Set(3));
    else enc.set_base(name, mm::Rel(3));
  mm::Rel co(3);
  co.add(0, 1);
  co.add(1, 2);
  enc.set_base("co", co);
  enc.encode(m);
  CHECK(enc.fresh_count() == 0);  // nothing uncertain: no variable at all
  REQUIRE(enc.axioms().size() == 1);
  CHECK(enc.axioms()[0].holds.simplify().is_true());
}
