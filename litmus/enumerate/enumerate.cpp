// run_test: the test's value sets and thread traces (shared by both engines), the engine chosen by
// Options::engine, and the verdict. Also the explicit engine: traces x rf x co x Fence-SC order x barrier
// grouping, each candidate graph checked by the explicit cat evaluator.
#include "litmus/enumerate/enumerate.hpp"

#include "litmus/enumerate/engine.hpp"
#include "litmus/enumerate/barrier_phases.hpp"
#include "litmus/enumerate/graph_builder.hpp"
#include "litmus/enumerate/liveness.hpp"
#include "memmodel/cat/explicit.hpp"
#include "semantics/support/diagnostic.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <numeric>

namespace ptxcheck::litmus {

std::string render_term(const Term& t) {
  if (t.kind == Term::reg) return fmt::format("P{}:{}", t.thread, t.name);
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

void StateCollector::add(const std::map<std::string, std::int64_t>& vals, bool sat, const mm::Execution* witness) {
  auto [it, fresh] = index_.emplace(vals, res_.states.size());
  if (fresh) {
    FinalState fs;
    fs.values = vals;
    fs.satisfies = sat;
    if (witness) fs.witness = *witness;
    res_.states.push_back(std::move(fs));
  }
  res_.states[it->second].executions++;
  (sat ? res_.positive : res_.negative)++;
}

// Replaces each compact trace by the traces it stands for; the reason when they would be too many to hold.
static std::optional<std::string> expand_compact_traces(std::vector<std::vector<Trace>>& traces) {
  constexpr std::size_t kMaxTraces = std::size_t{1} << 18;
  std::size_t total = 0;
  for (auto& ts : traces)
    for (auto& tr : ts) total += expanded_count(tr, kMaxTraces + 1);
  if (total > kMaxTraces)
    return fmt::format("more than {} thread traces (every combination of read values): only the default engine "
                       "(--engine symbolic) takes them without listing them", kMaxTraces);
  for (auto& ts : traces) {
    if (std::none_of(ts.begin(), ts.end(), [](const Trace& tr) { return !tr.free.empty(); })) continue;
    std::vector<Trace> out;
    for (auto& tr : ts) expand_free_reads(tr, out);
    ts = std::move(out);
  }
  return std::nullopt;
}

bool for_each_combination(const Prepared& pr, const std::function<bool(const std::vector<const Trace*>&)>& f) {
  for (auto& ts : pr.traces)
    if (ts.empty()) return true;
  std::vector<std::size_t> pick(pr.traces.size(), 0);
  std::function<bool(std::size_t)> rec = [&](std::size_t ti) -> bool {
    if (ti == pr.traces.size()) {
      std::vector<const Trace*> chosen;
      for (std::size_t i = 0; i < pick.size(); ++i) chosen.push_back(&pr.traces[i][pick[i]]);
      return f(chosen);
    }
    for (pick[ti] = 0; pick[ti] < pr.traces[ti].size(); ++pick[ti])
      if (!rec(ti + 1)) return false;
    return true;
  };
  return rec(0);
}

std::optional<std::string> enumerate_explicit(const Prepared& pr, const cat::Model& model, const Options& opt,
                                              Result& res) {
  bool budget_hit = false;
  StateCollector states(res);
  std::vector<std::string> explain_axioms;
  auto on_candidate = [&](const CandidateGraph& g) {
    if (++res.candidates > opt.max_candidates) { budget_hit = true; return false; }
    auto er = cat::evaluate_explicit(model, g.exec, !opt.explain);
    auto finals = final_states(g, pr.terms, pr.p, pr.t);
    for (auto& vals : finals) {
      bool sat = eval_condition(pr.t.cond, vals);
      if (!er.consistent()) {
        if (opt.explain && explained_outcome(pr.t.quantifier, sat))
          for (auto& n : er.violated())
            if (std::find(explain_axioms.begin(), explain_axioms.end(), n) == explain_axioms.end())
              explain_axioms.push_back(n);
        continue;
      }
      states.add(vals, sat, opt.keep_witnesses ? &g.exec : nullptr);
    }
    return true;
  };
  bool too_large = false;
  for_each_combination(pr, [&](const std::vector<const Trace*>& chosen) {
    return enumerate_graphs(pr.p, pr.t, chosen, on_candidate, &too_large);
  });
  res.explanation = explain_axioms;
  if (budget_hit) return "candidate budget exhausted (" + std::to_string(opt.max_candidates) + ")";
  if (too_large) return "candidate budget exhausted (more than 5 writes to one location)";
  return std::nullopt;
}

// The verdict from the outcomes found: definite when a witness decides it or no trace was cut at the loop bound.
static void set_verdict(Quantifier quantifier, int unroll, Result& res) {
  bool some_sat = res.positive > 0, some_unsat = res.negative > 0;
  bool holds = false, definite = true;
  switch (quantifier) {
    case Quantifier::exists: holds = some_sat; definite = some_sat || !res.bounded; break;
    case Quantifier::not_exists: holds = !some_sat; definite = some_sat || !res.bounded; break;
    case Quantifier::forall: holds = !some_unsat; definite = some_unsat || !res.bounded; break;
  }
  if (!definite) {
    res.result = "unknown";
    res.reason = "loop bound reached (--unroll " + std::to_string(unroll) + "); no witness within the bound";
  } else {
    res.result = holds ? "holds" : "fails";
  }
}

// Undefined operations (Trace::undefined): a register term per thread that has such a trace, 1 + the index of the
// trace's reason among its thread's in the final states of the executions reaching one, 0 in the others.
using UndefinedReasons = std::map<std::string, std::vector<std::string>>;  // term -> its thread's reasons
static UndefinedReasons mark_undefined_operations(const Program& p, std::vector<std::vector<Trace>>& traces, std::vector<Term>& terms) {
  UndefinedReasons undefined_why;
  for (std::size_t ti = 0; ti < traces.size(); ++ti)
    for (auto& tr : traces[ti])
      if (!tr.undefined.empty()) {
        Term u;
        u.kind = Term::reg;
        u.thread = p.threads[ti].id;
        u.name = kUndefinedRegister;
        auto [it, fresh] = undefined_why.try_emplace(render_term(u));
        if (fresh) terms.push_back(u);
        auto& reasons = it->second;
        const auto at = std::find(reasons.begin(), reasons.end(), tr.undefined);
        tr.regs[kUndefinedRegister] = 1 + (at - reasons.begin());
        if (at == reasons.end()) reasons.push_back(tr.undefined);
      }
  return undefined_why;
}

// The answer is unknown, with the operation's reason, when some consistent execution reaches an undefined operation;
// otherwise the marking terms leave the final states.
static bool reaches_undefined_operation(const UndefinedReasons& undefined_why, Result& res) {
  for (auto& st : res.states)
    for (auto& [term, reasons] : undefined_why) {
      if (st.values.count(term) && st.values.at(term) != 0) {
        res.result = "unknown";
        res.reason = "an execution reaches an undefined operation: " + reasons.at(static_cast<std::size_t>(st.values.at(term) - 1));
        return true;
      }
      st.values.erase(term);
    }
  return false;
}

namespace {
// run_test under one reading of the question Program::fence_after_read_completion names.
Result run_reading(const Test& t, const cat::Model& model, const Options& opt, bool fence_after_read_completion) {
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
  const bool built = build_program(t, p, diags);
  p.fence_after_read_completion = fence_after_read_completion;
  if (!built) {
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
      // (An error in the test: file:line:col, as the parser's.)
      res.reason = make_diagnostic(t.text, t.file, term.offset, "the condition names location '" + term.name +
                                   "', which no initialisation or instruction of the test names").render();
      return finish();
    }

  // Candidate read values: a fixpoint over the values the threads can write. A value is kept with its
  // provenance, the write events ("sites": the k-th write of a thread, unique in any one execution) that its
  // data-dependency chain goes through. A write's value is derived only from read values whose provenance
  // avoids the write itself: in an execution where rf | data is acyclic (8.10.4 No-Thin-Air) every value has
  // such a derivation, so the fixpoint keeps every value of such executions and terminates (chains are no
  // longer than the number of sites). Provenances are kept as minimal sets (bit masks).
  std::vector<std::map<std::int64_t, std::vector<std::uint64_t>>> prov(p.pnames.size());
  for (std::size_t l = 0; l < p.pnames.size(); ++l) prov[l][p.init[l]] = {0};
  std::map<std::pair<std::size_t, int>, int> site_bit;
  auto add_prov = [](std::vector<std::uint64_t>& v, std::uint64_t m) {
    for (auto o : v)
      if ((o & m) == o) return false;  // an existing subset already derives it
    v.erase(std::remove_if(v.begin(), v.end(), [&](std::uint64_t o) { return (o & m) == m; }), v.end());
    v.push_back(m);
    return true;
  };
  std::vector<std::set<std::int64_t>> values(p.pnames.size());
  std::vector<std::vector<Trace>> traces;
  // With a liveness question the stuck prefixes are traced too: their writes count toward the value sets.
  const bool live = opt.liveness && has_blocking_code(p);
  for (int iter = 0;; ++iter) {
    for (std::size_t l = 0; l < p.pnames.size(); ++l)
      for (auto& [v, ps] : prov[l]) values[l].insert(v);
    traces.assign(p.threads.size(), {});
    for (std::size_t ti = 0; ti < p.threads.size(); ++ti)
      if (!thread_traces(t, p, static_cast<int>(ti), values, opt.unroll, traces[ti], diags, live, /*compact=*/true)) {
        res.result = "unknown";
        res.reason = "unsupported construct";
        for (auto& d : diags) res.unsupported.push_back(d.render());
        return finish();
      }
    bool changed = false;
    for (std::size_t ti = 0; ti < traces.size(); ++ti)
      for (auto& tr : traces[ti]) {
        int ordinal = 0;
        for (auto& e : tr.events) {
          if (e.kind != EvKind::write) continue;
          auto [it, fresh] = site_bit.emplace(std::make_pair(ti, ordinal++), static_cast<int>(site_bit.size()));
          if (it->second >= 64) {
            res.result = "unknown";
            res.reason = "more than 64 write events per execution";
            return finish();
          }
          std::uint64_t site = std::uint64_t{1} << it->second;
          std::vector<std::uint64_t> acc{site};
          for (int r : e.data) {
            auto& re = tr.events[static_cast<std::size_t>(r)];
            std::vector<std::uint64_t> next;
            for (auto a : acc)
              for (auto pm : prov[re.loc][re.value])
                if (!(pm & site)) add_prov(next, a | pm);
            acc = std::move(next);
          }
          for (auto a : acc) changed |= add_prov(prov[e.loc][e.value], a);
        }
      }
    if (!changed) break;
    std::size_t total = 0;
    for (auto& v : prov) total += v.size();
    if (total > 256 || iter > 64) {
      res.result = "unknown";
      res.reason = "value set did not converge";
      return finish();
    }
  }
  note_barrier_users(p, traces);  // cut traces too: a thread that may arrive at a barrier is waited for
  for (auto& ts : traces) {
    std::size_t before = ts.size();
    ts.erase(std::remove_if(ts.begin(), ts.end(), [](const Trace& tr) { return tr.cut; }), ts.end());
    if (ts.size() != before) res.bounded = true;
  }
  if (live) {
    Prepared all{t, p, terms, traces};
    check_liveness(all, model, opt, res.bounded, res);
  }
  // The verdict is about the executions that terminate: the stuck prefixes are the liveness check's only.
  for (auto& ts : traces) {
    ts.erase(std::remove_if(ts.begin(), ts.end(), [](const Trace& tr) { return tr.end != Trace::End::done; }), ts.end());
    // Short traces first: their combinations are the cheapest to solve and often allowed, so a test whose
    // terms are all registers stops looking early (the symbolic engine skips combinations with known states).
    std::stable_sort(ts.begin(), ts.end(), [](const Trace& a, const Trace& b) { return a.events.size() < b.events.size(); });
  }

  const UndefinedReasons undefined_why = mark_undefined_operations(p, traces, terms);
  // Only the merged symbolic engine reads compact traces (trace_selection.hpp); the others get them expanded.
  if (opt.engine != Engine::symbolic || opt.explain) {
    if (auto why = expand_compact_traces(traces)) {
      res.result = "unknown";
      res.reason = *why;
      return finish();
    }
  }
  Prepared pr{t, std::move(p), std::move(terms), std::move(traces)};
  std::optional<std::string> why;
  try {
    switch (opt.engine) {
      case Engine::explicit_: why = enumerate_explicit(pr, model, opt, res); break;
      case Engine::symbolic_split: why = enumerate_symbolic_split(pr, model, opt, res); break;
      case Engine::symbolic: why = enumerate_symbolic(pr, model, opt, res); break;
    }
  } catch (const BarrierPhaseLimit& e) {
    why = e.what();
  } catch (const std::runtime_error& e) {  // a model that does not type-check, or a let rec out of reach
    why = std::string("model: ") + e.what();
  }
  std::sort(res.states.begin(), res.states.end(), [](auto& a, auto& b) { return a.values < b.values; });
  if (why) {
    res.result = "unknown";
    res.reason = *why;
    return finish();
  }
  if (reaches_undefined_operation(undefined_why, res)) return finish();
  set_verdict(t.quantifier, opt.unroll, res);
  return finish();
}

bool waits_for_reads_only(const Test& t) {
  for (const auto& row : t.rows)
    for (const auto& cell : row)
      if (cell.has_instr && cell.instr.opcode == "cp.async.bulk.wait_group.read") return true;
  return false;
}
}  // namespace

// A test with cp.async.bulk.wait_group.read is answered under both readings of whether the completion of a copy's
// reads is followed by a generic-async proxy fence (memmodel/models/NOTES.md, "Async proxy"): where the verdict or
// the observation differ, the answer is unknown, citing the sentences.
Result run_test(const Test& t, const cat::Model& model, const Options& opt) {
  Result without = run_reading(t, model, opt, false);
  if (!waits_for_reads_only(t) || (without.result != "holds" && without.result != "fails")) return without;
  Result with = run_reading(t, model, opt, true);
  const auto observation = [](const Result& r) { return std::pair{r.positive == 0, r.negative == 0}; };
  if (with.result == without.result && observation(with) == observation(without)) return without;
  auto verdict = [&](const Result& r) {
    return r.result + " (" + (r.positive == 0 ? "Never" : r.negative == 0 ? "Always" : "Sometimes") + ")";
  };
  const std::string both = "without the fence " + verdict(without) + ", with it " + verdict(with);
  without.result = "unknown";
  without.reason = "the answer depends on whether the completion of a bulk copy's reads, which "
      "cp.async.bulk.wait_group.read waits for (ISA 9.7.9.25.6.2: \"completed ... the reading from their source "
      "locations\"), is followed by a generic-async proxy fence: 9.7.9.25.2 states one only after \"The completion "
      "of a cp{.reduce}.async.bulk operation\", and chapter 8 (8.6, 8.9.5) says nothing of it; " + both +
      " (memmodel/models/NOTES.md, \"Async proxy\")";
  without.time_ms += with.time_ms;
  return without;
}

}  // namespace ptxcheck::litmus
