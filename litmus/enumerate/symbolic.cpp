// The symbolic engine: per combination of thread traces, the open choices of the candidate space become Z3
// variables (rf: one write per read; co: a strict partial order per location, 8.9.6; Fence-SC order: a total
// order of the fence.sc events, 8.9.3; barrier groupings: one of the possible ones), the model's axioms are
// encoded by cat::SymbolicEncoder, and the distinct final states are enumerated with blocking clauses.
#include "litmus/enumerate/engine.hpp"
#include "litmus/enumerate/graph_builder.hpp"
#include "memmodel/cat/explicit.hpp"
#include "memmodel/cat/symbolic.hpp"

#include <fmt/format.h>
#include <z3++.h>

#include <algorithm>
#include <mutex>
#include <set>

namespace ptxcheck::litmus {
namespace {
using cat::SymbolicEncoder;
using cat::SymValue;

struct Choices {
  SymValue rf, co, sync_fence, syncbar;
  std::vector<z3::expr> constraints;  // well-formedness of the choices
};

std::string name_of(const char* kind, int a, int b = -1) {
  return b >= 0 ? fmt::format("{}!{}_{}", kind, a, b) : fmt::format("{}!{}", kind, a);
}

Choices make_choices(const CandidateSpace& sp, SymbolicEncoder& enc) {
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
    auto& ws = sp.rf_cands[k];
    if (ws.size() == 1) { c.rf.bits[ws[0] * n + r] = SymbolicEncoder::kTrue; continue; }
    z3::expr_vector vs(ctx);
    for (int w : ws) {
      z3::expr v = ctx.bool_const(name_of("rf", w, r).c_str());
      vs.push_back(v);
      c.rf.bits[w * n + r] = enc.bit(v);
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
  // scope (sr), as the explicit engine builds it.
  const mm::Rel& sr = sp.g.exec.rels.at("sr");
  auto& f = sp.sc_fences;
  std::map<std::pair<int, int>, z3::expr> before;  // (a, b), a < b: a precedes b
  auto ord = [&](int a, int b) -> z3::expr {
    if (a < b) return before.at({a, b});
    return !before.at({b, a});
  };
  for (std::size_t i = 0; i < f.size(); ++i)
    for (std::size_t j = i + 1; j < f.size(); ++j)
      before.emplace(std::make_pair(f[i], f[j]), ctx.bool_const(name_of("sc", f[i], f[j]).c_str()));
  for (int a : f)
    for (int b : f)
      for (int d : f)
        if (a != b && b != d && a != d) c.constraints.push_back(z3::implies(ord(a, b) && ord(b, d), ord(a, d)));
  for (int a : f)
    for (int b : f)
      if (a != b && sr.has(a, b)) c.sync_fence.bits[a * n + b] = enc.bit(ord(a, b));
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

// The condition as a Z3 formula over the final-value variables (registers are constants of the traces).
z3::expr cond_expr(const CondPtr& c, const std::map<std::string, std::int64_t>& regs,
                   const std::map<std::string, z3::expr>& locs, z3::context& ctx) {
  auto term = [&](const Term& t) -> z3::expr {
    if (t.kind == Term::imm) return ctx.bv_val(static_cast<int64_t>(t.value), 64);
    if (t.kind == Term::loc) return locs.at(t.name);
    auto it = regs.find(render_term(t));
    return ctx.bv_val(static_cast<int64_t>(it == regs.end() ? 0 : it->second), 64);
  };
  switch (c->kind) {
    case Cond::and_: return cond_expr(c->a, regs, locs, ctx) && cond_expr(c->b, regs, locs, ctx);
    case Cond::or_: return cond_expr(c->a, regs, locs, ctx) || cond_expr(c->b, regs, locs, ctx);
    case Cond::not_: return !cond_expr(c->a, regs, locs, ctx);
    case Cond::eq: return term(c->lhs) == term(c->rhs);
    case Cond::ne: return term(c->lhs) != term(c->rhs);
  }
  return ctx.bool_val(false);
}
}  // namespace

std::optional<std::string> enumerate_symbolic(const Prepared& pr, const cat::Model& model, const Options& opt,
                                              Result& res) {
  static std::once_flag mem_once;
  std::call_once(mem_once, [&] { z3::set_param("memory_max_size", static_cast<int>(opt.solver_memory_mb)); });
  StateCollector states(res);
  std::set<std::map<std::string, std::int64_t>> found;  // allowed final states so far (over all combinations)
  std::optional<std::string> why;
  try {
    z3::context ctx;
    for_each_combination(pr, [&](const std::vector<const Trace*>& chosen) -> bool {
      // Registers are fixed by the traces: a combination that fixes every term to a state already found
      // cannot add one (only new final states are looked for).
      std::map<std::string, std::int64_t> regs;
      bool has_locs = false;
      for (auto& term : pr.terms) {
        if (term.kind == Term::reg)
          regs[render_term(term)] = register_value(term, chosen, pr.p, pr.t);
        else has_locs = true;
      }
      if (!has_locs && !opt.explain && found.count(regs)) return true;
      CandidateSpace sp = build_space(pr.p, chosen);
      if (!sp.feasible) return true;
      ++res.candidates;
      const mm::Execution& x = sp.g.exec;
      const int n = x.n;
      SymbolicEncoder enc(ctx, n);
      for (auto& [name, s] : x.sets) enc.set_base(name, s);
      for (auto& [name, r] : x.rels) enc.set_base(name, r);
      Choices ch = make_choices(sp, enc);
      enc.set_base("rf", ch.rf);
      enc.set_base("co", ch.co);
      enc.set_base("sync_fence", ch.sync_fence);
      enc.set_base("syncbar", ch.syncbar);
      enc.encode(model);

      // Everything is finite-domain (Booleans and bit-vectors): Z3's incremental SAT-based solver.
      z3::solver s(ctx, "QF_FD");
      z3::params prm(ctx);
      prm.set("timeout", opt.solver_timeout_ms);
      s.set(prm);
      for (auto& e : ch.constraints) s.add(e);
      for (auto& e : enc.definitions()) s.add(e);
      // One tracked literal per axiom, so that an unsat core names the axioms forbidding an outcome.
      z3::expr_vector guards(ctx);
      std::map<std::string, std::string> guard_axiom;
      for (std::size_t i = 0; i < enc.axioms().size(); ++i) {
        z3::expr g = ctx.bool_const(fmt::format("ax!{}", i).c_str());
        guards.push_back(g);
        guard_axiom[g.to_string()] = enc.axioms()[i].name;
        s.add(z3::implies(g, enc.axioms()[i].holds));
      }

      // Final states: registers are fixed by the traces; each location of the condition takes the value of a
      // co-maximal write (several when co leaves the last write open, as the explicit engine reads it).
      std::map<std::string, z3::expr> locs;
      for (auto& term : pr.terms) {
        if (term.kind == Term::reg) continue;
        int l = pr.p.phys_of[pr.p.vloc_of.at(term.name)];
        z3::expr v = ctx.bv_const(fmt::format("fin!{}", term.name).c_str(), 64);
        locs.emplace(term.name, v);
        z3::expr_vector opts(ctx);
        std::vector<int> ws{l};
        ws.insert(ws.end(), sp.loc_writes[l].begin(), sp.loc_writes[l].end());
        for (int w : ws) {
          z3::expr_vector maximal(ctx);
          for (int w2 : sp.loc_writes[l])
            if (w2 != w) maximal.push_back(!enc.expr(ch.co.bits[w * n + w2]));
          z3::expr is_max = maximal.empty() ? ctx.bool_val(true) : z3::mk_and(maximal);
          opts.push_back(is_max && v == ctx.bv_val(static_cast<int64_t>(sp.g.events[w].ev.value), 64));
        }
        s.add(z3::mk_or(opts));
      }

      auto unknown = [&](const char* what) {
        why = std::string("z3 ") + what + ": " + s.reason_unknown() + " (budget " +
              std::to_string(opt.solver_timeout_ms) + " ms per check)";
        return false;
      };
      if (opt.explain) {
        // An outcome the test is about (explained_outcome) that some candidate reaches but no allowed execution does: the unsat
        // core over the axiom literals names the axioms that forbid it.
        s.push();
        z3::expr satisfies = cond_expr(pr.t.cond, regs, locs, ctx);
        s.add(explained_outcome(pr.t.quantifier, true) ? satisfies : !satisfies);  // the outcomes explained_outcome names
        auto cand = s.check();
        if (cand == z3::unknown) return unknown("check");
        if (cand == z3::sat) {
          auto r = s.check(guards);
          if (r == z3::unknown) return unknown("check");
          if (r == z3::unsat)
            for (auto g : s.unsat_core()) {
              auto& nm = guard_axiom[g.to_string()];
              if (std::find(res.explanation.begin(), res.explanation.end(), nm) == res.explanation.end())
                res.explanation.push_back(nm);
            }
        }
        s.pop();
      }
      // Only new final states are looked for: the ones already found with these register values are blocked.
      if (locs.empty() && found.count(regs)) return true;
      for (auto& st : found) {
        bool same_regs = true;
        for (auto& [k, v] : regs) same_regs &= st.at(k) == v;
        if (!same_regs) continue;
        z3::expr_vector differ(ctx);
        for (auto& [name, v] : locs) differ.push_back(v != ctx.bv_val(static_cast<int64_t>(st.at(name)), 64));
        if (!differ.empty()) s.add(z3::mk_or(differ));
      }
      for (;;) {
        auto r = s.check(guards);
        if (r == z3::unknown) return unknown("check");
        if (r == z3::unsat) break;
        z3::model m = s.get_model();
        std::map<std::string, std::int64_t> vals = regs;
        z3::expr_vector differ(ctx);
        for (auto& [name, v] : locs) {
          z3::expr val = m.eval(v, true);
          std::uint64_t uv = 0;
          val.is_numeral_u64(uv);
          vals[name] = static_cast<std::int64_t>(uv);
          differ.push_back(v != val);
        }
        std::optional<mm::Execution> w;
        if (opt.keep_witnesses || opt.verify_witnesses) {
          w = x;
          w->rels["rf"] = concrete(ch.rf, enc, m, n);
          w->rels["co"] = concrete(ch.co, enc, m, n);
          w->rels["sync_fence"] = concrete(ch.sync_fence, enc, m, n);
          w->rels["syncbar"] = concrete(ch.syncbar, enc, m, n);
          if (opt.verify_witnesses) {
            auto er = cat::evaluate_explicit(model, *w, true);
            if (!er.consistent()) {
              why = "internal: symbolic witness violates " + er.violated().front() + " under the explicit evaluator";
              return false;
            }
          }
        }
        states.add(vals, eval_condition(pr.t.cond, vals), opt.keep_witnesses ? &*w : nullptr);
        found.insert(vals);
        if (differ.empty()) break;
        s.add(z3::mk_or(differ));
      }
      return true;
    });
  } catch (const z3::exception& e) {
    why = std::string("z3: ") + e.msg();
  }
  return why;
}

}  // namespace ptxcheck::litmus
