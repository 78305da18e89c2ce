// The choices of a candidate space as Z3 variables, shared by the per-combination and the merged symbolic
// engines (symbolic.cpp, symbolic_merged.cpp).
#include "litmus/enumerate/symbolic_choices.hpp"

#include <fmt/format.h>

#include <map>

namespace ptxcheck::litmus {
using cat::SymbolicEncoder;
using cat::SymValue;
namespace {
std::string name_of(const char* kind, int a, int b = -1) {
  return b >= 0 ? fmt::format("{}!{}_{}", kind, a, b) : fmt::format("{}!{}", kind, a);
}

}  // namespace

Choices encode_model(const CandidateSpace& sp, const cat::Model& model, SymbolicEncoder& enc, const ValueMatch* value_match) {
  for (auto& [name, s] : sp.g.exec.sets) enc.set_base(name, s);
  for (auto& [name, r] : sp.g.exec.rels) enc.set_base(name, r);
  Choices ch = make_choices(sp, enc, value_match);
  enc.set_base("rf", ch.rf);
  enc.set_base("co", ch.co);
  enc.set_base("sync_fence", ch.sync_fence);
  enc.set_base("syncbar", ch.syncbar);
  enc.encode(model);
  return ch;
}

z3::solver model_solver(z3::context& ctx, const Choices& ch, const SymbolicEncoder& enc) {
  z3::solver s(ctx, "QF_FD");  // (each check gets the test's budget: check_budget)
  for (auto& e : ch.constraints) s.add(e);
  for (auto& e : enc.definitions()) s.add(e);
  return s;
}

Choices make_choices(const CandidateSpace& sp, SymbolicEncoder& enc, const ValueMatch* value_match) {
  z3::context& ctx = enc.ctx();
  const int n = enc.n();
  Choices c;
  auto rel = [&] {
    SymValue v;
    v.bits.assign(static_cast<std::size_t>(n) * n, SymbolicEncoder::kFalse);
    return v;
  };
  c.rf = rel();
  c.co = rel();
  c.sync_fence = rel();
  c.syncbar = rel();
  // rf: each read reads from exactly one candidate write.
  for (std::size_t k = 0; k < sp.reads.size(); ++k) {
    int r = sp.reads[k];
    std::vector<int> ws;
    std::vector<z3::expr> match;
    for (int w : sp.rf_cands[k]) {
      auto m = value_match ? (*value_match)(w, r) : std::optional<z3::expr>(ctx.bool_val(true));
      if (!m) continue;
      ws.push_back(w);
      match.push_back(*m);
    }
    if (ws.empty()) { c.constraints.push_back(ctx.bool_val(false)); continue; }  // no write has its value
    if (ws.size() == 1) {
      c.rf.bits[ws[0] * n + r] = SymbolicEncoder::kTrue;
      c.constraints.push_back(match[0]);
      continue;
    }
    z3::expr_vector vs(ctx);
    for (std::size_t i = 0; i < ws.size(); ++i) {
      z3::expr v = ctx.bool_const(name_of("rf", ws[i], r).c_str());
      vs.push_back(v);
      c.rf.bits[ws[i] * n + r] = enc.bit(v);
      if (value_match) c.constraints.push_back(z3::implies(v, match[i]));
    }
    c.constraints.push_back(z3::mk_or(vs));
    for (unsigned i = 0; i < vs.size(); ++i)
      for (unsigned j = i + 1; j < vs.size(); ++j) c.constraints.push_back(!(vs[i] && vs[j]));
  }
  // co: the initial write first, then a strict partial order (irreflexive, antisymmetric, transitive).
  c.co.transitive = true;
  for (std::size_t l = 0; l < sp.loc_writes.size(); ++l) {
    auto& ws = sp.loc_writes[l];
    for (int w : ws) c.co.bits[static_cast<int>(l) * n + w] = SymbolicEncoder::kTrue;
    for (int a : ws)
      for (int b : ws)
        if (a != b) c.co.bits[a * n + b] = enc.bit(ctx.bool_const(name_of("co", a, b).c_str()));
    for (int a : ws)
      for (int b : ws) {
        if (a == b) continue;
        if (a < b) c.constraints.push_back(!(enc.expr(c.co.bits[a * n + b]) && enc.expr(c.co.bits[b * n + a])));
        for (int d : ws)
          if (d != a && d != b)
            c.constraints.push_back(
                z3::implies(enc.expr(c.co.bits[a * n + b]) && enc.expr(c.co.bits[b * n + d]), enc.expr(c.co.bits[a * n + d])));
      }
  }
  // Fence-SC order: a total order of the fence.sc events; sync_fence relates the pairs of it with each other's
  // scope (sr), as the explicit engine builds it. The order is lexicographic on (rank, event) with one bit-vector
  // rank per fence: every rank assignment is a strict total order and every total order has one (its positions),
  // so no transitivity constraints are needed (pairwise Booleans took O(fences^3) of them: issue 36).
  const mm::Rel& sr = sp.g.exec.rels.at("sr");
  auto& f = sp.sc_fences;
  unsigned width = 1;
  while ((std::size_t{1} << width) < f.size()) ++width;
  std::map<int, z3::expr> rank;
  if (f.size() > 1)
    for (int a : f) rank.emplace(a, ctx.bv_const(name_of("scrank", a).c_str(), width));
  auto ord = [&](int a, int b) -> z3::expr {  // a precedes b
    if (a < b) return z3::ule(rank.at(a), rank.at(b));
    return z3::ult(rank.at(a), rank.at(b));
  };
  bool all_pairs = true;
  for (int a : f)
    for (int b : f)
      if (a != b) {
        if (sr.has(a, b)) c.sync_fence.bits[a * n + b] = enc.bit(ord(a, b));
        else all_pairs = false;
      }
  // With every pair in each other's scope sync_fence is the whole total order, hence transitive (the closure
  // encoding uses that: cat::SymbolicEncoder, `plus`).
  c.sync_fence.transitive = all_pairs;
  // Barrier groupings: one choice per (CTA, barrier, instance).
  for (std::size_t k = 0; k < sp.bar_choices.size(); ++k) {
    auto& opts = sp.bar_choices[k];
    std::vector<int> sel;
    if (opts.size() == 1) sel.push_back(SymbolicEncoder::kTrue);
    else {
      z3::expr_vector vs(ctx);
      for (std::size_t i = 0; i < opts.size(); ++i) {
        z3::expr v = ctx.bool_const(name_of("bar", static_cast<int>(k), static_cast<int>(i)).c_str());
        vs.push_back(v);
        sel.push_back(enc.bit(v));
      }
      c.constraints.push_back(z3::mk_or(vs));
      for (unsigned i = 0; i < vs.size(); ++i)
        for (unsigned j = i + 1; j < vs.size(); ++j) c.constraints.push_back(!(vs[i] && vs[j]));
    }
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) {
        z3::expr_vector any(ctx);
        bool always = false;
        for (std::size_t i = 0; i < opts.size(); ++i)
          if (opts[i].has(a, b)) {
            if (sel[i] == SymbolicEncoder::kTrue) always = true;
            else any.push_back(enc.expr(sel[i]));
          }
        int& bit = c.syncbar.bits[a * n + b];
        if (always) bit = SymbolicEncoder::kTrue;
        else if (!any.empty()) {
          z3::expr e = z3::mk_or(any);
          bit = bit == SymbolicEncoder::kFalse ? enc.bit(e) : enc.bit(enc.expr(bit) || e);
        }
      }
  }
  return c;
}

mm::Rel concrete(const SymValue& v, const SymbolicEncoder& enc, const z3::model& m, int n) {
  mm::Rel r(n);
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) {
      int x = v.bits[a * n + b];
      if (x == SymbolicEncoder::kTrue || (x != SymbolicEncoder::kFalse && m.eval(enc.expr(x), true).is_true()))
        r.add(a, b);
    }
  return r;
}


z3::expr cond_expr(const CondPtr& c, const std::function<z3::expr(const Term&)>& term, z3::context& ctx) {
  auto val = [&](const Term& t) { return t.kind == Term::imm ? ctx.bv_val(static_cast<int64_t>(t.value), 64) : term(t); };
  switch (c->kind) {
    case Cond::and_: return cond_expr(c->a, term, ctx) && cond_expr(c->b, term, ctx);
    case Cond::or_: return cond_expr(c->a, term, ctx) || cond_expr(c->b, term, ctx);
    case Cond::not_: return !cond_expr(c->a, term, ctx);
    case Cond::eq: return val(c->lhs) == val(c->rhs);
    case Cond::ne: return val(c->lhs) != val(c->rhs);
  }
  return ctx.bool_val(false);
}

}  // namespace ptxcheck::litmus
