// The per-combination symbolic engine (Engine::symbolic_split; the default engine before the merged one of
// symbolic_merged.cpp, kept for --explain, whose unsat cores are per combination, and as the bench baseline):
// one Z3 problem per combination of thread traces, in which the open choices of the candidate space are Z3
// variables (symbolic_choices.hpp), the model's axioms are encoded by cat::SymbolicEncoder, and the distinct
// final states are enumerated with blocking clauses.
#include "litmus/enumerate/engine.hpp"
#include "litmus/enumerate/graph_builder.hpp"
#include "litmus/enumerate/symbolic_choices.hpp"
#include "memmodel/cat/explicit.hpp"
#include "memmodel/cat/symbolic.hpp"

#include <fmt/format.h>
#include <z3++.h>

#include <algorithm>
#include <mutex>
#include <set>

namespace ptxcheck::litmus {
using cat::SymbolicEncoder;

std::optional<std::string> enumerate_symbolic_split(const Prepared& pr, const cat::Model& model, const Options& opt,
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
      Choices ch = encode_model(sp, model, enc);
      z3::solver s = model_solver(ctx, ch, enc);
      const solver::Budget budget = check_budget(opt.solver_timeout_ms);
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

      auto unknown = [&](const char* what, const solver::Answer& a) {
        why = std::string("z3 ") + what + ": " + a.reason;
        return false;
      };
      if (opt.explain) {
        // An outcome the test is about (explained_outcome) that some candidate reaches but no allowed execution does: the unsat
        // core over the axiom literals names the axioms that forbid it. (An unknown answer leaves the scope pushed:
        // the enumeration stops there.)
        solver::Scope explaining(s);
        z3::expr satisfies = cond_expr(
            pr.t.cond,
            [&](const Term& t) -> z3::expr {
              if (t.kind == Term::loc) return locs.at(t.name);
              auto it = regs.find(render_term(t));
              return ctx.bv_val(static_cast<int64_t>(it == regs.end() ? 0 : it->second), 64);
            },
            ctx);
        s.add(explained_outcome(pr.t.quantifier, true) ? satisfies : !satisfies);  // the outcomes explained_outcome names
        const solver::Answer cand = solver::check(s, budget);
        if (cand.unknown()) return explaining.keep(), unknown("check", cand);
        if (cand.sat()) {
          const solver::Answer r = solver::check(s, budget, guards);
          if (r.unknown()) return explaining.keep(), unknown("check", r);
          if (r.unsat())
            for (auto g : s.unsat_core()) {
              auto& nm = guard_axiom[g.to_string()];
              if (std::find(res.explanation.begin(), res.explanation.end(), nm) == res.explanation.end())
                res.explanation.push_back(nm);
            }
        }
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
        const solver::Answer r = solver::check(s, budget, guards);
        if (r.unknown()) return unknown("check", r);
        if (r.unsat()) break;
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
