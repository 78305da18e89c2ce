// The explicit enumerator: traces x rf x co x fence-SC order x barrier grouping, each candidate graph
// checked by the explicit cat evaluator; final states collected and the condition decided.
#include "litmus/enumerate/enumerate.hpp"

#include "litmus/enumerate/graph_builder.hpp"
#include "memmodel/cat/explicit.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <numeric>

namespace ptxcheck::litmus {

std::string render_term(const Term& t) {
  if (t.kind == Term::reg) return "P" + std::to_string(t.thread) + ":" + t.name;
  if (t.kind == Term::loc) return t.name;
  return std::to_string(t.value);
}
std::string render_condition(const CondPtr& c) {
  switch (c->kind) {
    case Cond::and_: return "(" + render_condition(c->a) + " /\\ " + render_condition(c->b) + ")";
    case Cond::or_: return "(" + render_condition(c->a) + " \\/ " + render_condition(c->b) + ")";
    case Cond::not_: return "~" + render_condition(c->a);
    case Cond::eq: return render_term(c->lhs) + " == " + render_term(c->rhs);
    case Cond::ne: return render_term(c->lhs) + " != " + render_term(c->rhs);
  }
  return "?";
}
static std::int64_t term_value(const Term& t, const std::map<std::string, std::int64_t>& v) {
  if (t.kind == Term::imm) return t.value;
  auto it = v.find(render_term(t));
  return it == v.end() ? 0 : it->second;
}
bool eval_condition(const CondPtr& c, const std::map<std::string, std::int64_t>& v) {
  switch (c->kind) {
    case Cond::and_: return eval_condition(c->a, v) && eval_condition(c->b, v);
    case Cond::or_: return eval_condition(c->a, v) || eval_condition(c->b, v);
    case Cond::not_: return !eval_condition(c->a, v);
    case Cond::eq: return term_value(c->lhs, v) == term_value(c->rhs, v);
    case Cond::ne: return term_value(c->lhs, v) != term_value(c->rhs, v);
  }
  return false;
}
static void collect_terms(const CondPtr& c, std::vector<Term>& out) {
  if (!c) return;
  if (c->kind == Cond::eq || c->kind == Cond::ne) {
    for (auto* t : {&c->lhs, &c->rhs})
      if (t->kind != Term::imm &&
          std::none_of(out.begin(), out.end(), [&](const Term& o) { return render_term(o) == render_term(*t); }))
        out.push_back(*t);
    return;
  }
  collect_terms(c->a, out);
  collect_terms(c->b, out);
}

Result run_test(const Test& t, const cat::Model& model, const Options& opt) {
  auto t0 = std::chrono::steady_clock::now();
  Result res;
  res.file = t.file;
  res.name = t.name;
  res.quantifier = t.quantifier;
  res.condition = render_condition(t.cond);
  auto finish = [&]() -> Result {
    res.time_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return res;
  };
  std::vector<Diagnostic> diags;
  Program p;
  if (!build_program(t, p, diags)) {
    res.result = "unknown";
    for (auto& d : diags) res.unsupported.push_back(d.render());
    res.reason = "unsupported construct";
    return finish();
  }
  std::vector<Term> terms;
  collect_terms(t.cond, terms);
  for (auto& term : terms)
    if (term.kind == Term::loc && !p.vloc_of.count(term.name)) {
      res.result = "error";
      res.reason = "condition names unknown location '" + term.name + "'";
      return finish();
    }

  // Candidate read values: a fixpoint over the values the threads can write.
  std::vector<std::set<std::int64_t>> values(p.pnames.size());
  for (std::size_t l = 0; l < p.pnames.size(); ++l) values[l].insert(p.init[l]);
  std::vector<std::vector<Trace>> traces;
  for (int iter = 0;; ++iter) {
    traces.assign(p.threads.size(), {});
    for (std::size_t ti = 0; ti < p.threads.size(); ++ti)
      if (!thread_traces(t, p, static_cast<int>(ti), values, opt.unroll, traces[ti], diags)) {
        res.result = "unknown";
        res.reason = "unsupported construct";
        for (auto& d : diags) res.unsupported.push_back(d.render());
        return finish();
      }
    bool changed = false;
    for (auto& ts : traces)
      for (auto& tr : ts)
        for (auto& e : tr.events)
          if (e.kind == EvKind::write && values[e.loc].insert(e.value).second) changed = true;
    if (!changed) break;
    // A value in an execution that satisfies No-Thin-Air (8.10.4) comes from a dependency chain no longer
    // than the number of events of one execution, so that many rounds reach every such value.
    std::size_t longest = 0;
    for (auto& ts : traces) {
      std::size_t m = 0;
      for (auto& tr : ts) m = std::max(m, tr.events.size());
      longest += m;
    }
    if (static_cast<std::size_t>(iter) >= longest + 1) break;
    std::size_t total = 0;
    for (auto& v : values) total += v.size();
    if (total > 256) {
      res.result = "unknown";
      res.reason = "value set did not converge";
      return finish();
    }
  }
  for (auto& ts : traces) {
    std::size_t before = ts.size();
    ts.erase(std::remove_if(ts.begin(), ts.end(), [](const Trace& tr) { return tr.cut; }), ts.end());
    if (ts.size() != before) res.bounded = true;
  }

  // Enumerate candidates.
  std::vector<std::size_t> pick(p.threads.size(), 0);
  bool budget_hit = false;
  std::map<std::map<std::string, std::int64_t>, std::size_t> state_index;
  std::vector<std::string> explain_axioms;
  auto on_candidate = [&](const CandidateGraph& g) {
    if (++res.candidates > opt.max_candidates) { budget_hit = true; return false; }
    auto er = cat::evaluate_explicit(model, g.exec, !opt.explain);
    auto finals = final_states(g, terms, p, t);
    for (auto& vals : finals) {
      bool sat = eval_condition(t.cond, vals);
      if (!er.consistent()) {
        if (opt.explain && sat)
          for (auto& n : er.violated())
            if (std::find(explain_axioms.begin(), explain_axioms.end(), n) == explain_axioms.end())
              explain_axioms.push_back(n);
        continue;
      }
      auto [it, fresh] = state_index.emplace(vals, res.states.size());
      if (fresh) {
        FinalState fs;
        fs.values = vals;
        fs.satisfies = sat;
        if (opt.keep_witnesses) fs.witness = g.exec;
        res.states.push_back(std::move(fs));
      }
      res.states[it->second].executions++;
      (sat ? res.positive : res.negative)++;
    }
    return true;
  };
  std::function<bool(std::size_t)> over_traces = [&](std::size_t ti) -> bool {
    if (ti == p.threads.size()) {
      std::vector<const Trace*> chosen;
      for (std::size_t i = 0; i < pick.size(); ++i) chosen.push_back(&traces[i][pick[i]]);
      return enumerate_graphs(p, t, chosen, on_candidate);
    }
    for (pick[ti] = 0; pick[ti] < traces[ti].size(); ++pick[ti])
      if (!over_traces(ti + 1)) return false;
    return true;
  };
  bool any_empty = std::any_of(traces.begin(), traces.end(), [](auto& v) { return v.empty(); });
  if (!any_empty) over_traces(0);
  std::sort(res.states.begin(), res.states.end(), [](auto& a, auto& b) { return a.values < b.values; });
  res.explanation = explain_axioms;

  if (budget_hit) {
    res.result = "unknown";
    res.reason = "candidate budget exhausted (" + std::to_string(opt.max_candidates) + ")";
    return finish();
  }
  bool some_sat = res.positive > 0, some_unsat = res.negative > 0;
  bool holds = false, definite = true;
  switch (t.quantifier) {
    case Quantifier::exists: holds = some_sat; definite = some_sat || !res.bounded; break;
    case Quantifier::not_exists: holds = !some_sat; definite = some_sat || !res.bounded; break;
    case Quantifier::forall: holds = !some_unsat; definite = some_unsat || !res.bounded; break;
  }
  if (!definite) {
    res.result = "unknown";
    res.reason = "loop bound reached (--unroll " + std::to_string(opt.unroll) + "); no witness within the bound";
  } else {
    res.result = holds ? "holds" : "fails";
  }
  return finish();
}

}  // namespace ptxcheck::litmus
