// The merged symbolic engine (the default): the traces of a thread that differ only in the values their
// events carry (the values its reads return, and what it computes from them) have one shape; per combination
// of shapes (one for straight-line code, a few for branches and loops) one Z3 problem holds every trace of each
// shape, and which trace each thread runs is a Z3 variable. An event's value is then a term over that choice,
// rf(w, r) requires w's value to be r's, and a final register is a term over the choice too. The verdict is
// one query per combination (model and C, then model and not C for the observation); the full list of final
// states comes from blocking clauses over the condition's terms only. docs/litmus-merged-encoding.md.
#include "litmus/enumerate/engine.hpp"
#include "litmus/enumerate/graph_builder.hpp"
#include "litmus/enumerate/symbolic_choices.hpp"
#include "litmus/enumerate/trace_selection.hpp"
#include "memmodel/cat/explicit.hpp"
#include "memmodel/cat/symbolic.hpp"

#include <fmt/format.h>
#include <z3++.h>

#include <deque>
#include <mutex>
#include <set>

namespace ptxcheck::litmus {
namespace {
using cat::SymbolicEncoder;
using Valuation = std::map<std::string, std::int64_t>;

bool same_shape(const TEvent& a, const TEvent& b) {
  return a.kind == b.kind && a.sem == b.sem && a.scope == b.scope && a.proxy == b.proxy && a.rmw == b.rmw &&
         a.alias_fence == b.alias_fence && a.proxy_fence == b.proxy_fence && a.vloc == b.vloc && a.loc == b.loc &&
         a.bar_id == b.bar_id && a.bar_instance == b.bar_instance && a.bar_count == b.bar_count &&
         a.bar_arrive == b.bar_arrive && a.bar_cluster == b.bar_cluster &&
         a.op == b.op && a.async_edge == b.async_edge && a.sync_from == b.sync_from && a.addr == b.addr && a.data == b.data && a.ctrl == b.ctrl && a.text == b.text;
}
bool same_shape(const Trace& a, const Trace& b) {
  if (a.events.size() != b.events.size()) return false;
  for (std::size_t i = 0; i < a.events.size(); ++i)
    if (!same_shape(a.events[i], b.events[i])) return false;
  return true;
}

// Per thread, its traces grouped by shape, in order of first appearance (run_test's short-first order). A
// compact trace is a group of its own (Selection's product form); a group of several that holds compact ones is
// expanded into `storage` (they differ in more than their free reads).
using Shapes = std::vector<std::vector<const Trace*>>;
std::vector<Shapes> shapes_of(const Prepared& pr, std::deque<Trace>& storage) {
  std::vector<Shapes> out(pr.traces.size());
  for (std::size_t ti = 0; ti < pr.traces.size(); ++ti) {
    for (auto& tr : pr.traces[ti]) {
      auto it = std::find_if(out[ti].begin(), out[ti].end(), [&](auto& g) { return same_shape(*g.front(), tr); });
      if (it == out[ti].end()) out[ti].push_back({&tr});
      else it->push_back(&tr);
    }
    for (auto& group : out[ti]) {
      if (group.size() == 1 || std::none_of(group.begin(), group.end(), [](const Trace* t) { return !t->free.empty(); }))
        continue;
      std::vector<Trace> expanded;
      for (auto* t : group) expand_free_reads(*t, expanded);
      group.clear();
      for (auto& t : expanded) group.push_back(&storage.emplace_back(std::move(t)));
    }
  }
  return out;
}

// One combination of shapes: the candidate space of its first traces (value-blind rf candidates), the
// selections, and where each thread's events start.
struct Merged {
  CandidateSpace sp;
  std::vector<Selection> sel;
  std::vector<int> first;
  std::vector<z3::expr> constraints;
};

// The value of graph event e as a function of the selected trace (the initial writes have one value).
std::pair<const Selection*, Quantity> value_of(const Merged& mg, const Program& p, int e) {
  int np = static_cast<int>(p.pnames.size());
  if (e < np) {
    std::int64_t v = p.init[e];
    return {nullptr, Quantity{[v](const Trace&) { return v; }, [](const Trace&) { return -1; }}};
  }
  std::size_t ti = 0;
  while (ti + 1 < mg.first.size() && mg.first[ti + 1] <= e) ++ti;
  const int i = e - mg.first[ti];
  return {&mg.sel[ti], Quantity{[i](const Trace& t) { return t.events[static_cast<std::size_t>(i)].value; },
                                [i](const Trace& t) { return free_read_of_event(t, i); }}};
}

z3::expr event_value(z3::context& ctx, const Merged& mg, const Program& p, int e) {
  auto [s, q] = value_of(mg, p, e);
  return s ? s->pick(q) : ctx.bv_val(static_cast<int64_t>(q.of(Trace{})), 64);
}

// rf(w, r) needs equal values: the disjunction over the values both can carry.
std::optional<z3::expr> values_match(z3::context& ctx, const Merged& mg, const Program& p, int w, int r) {
  auto [sw, fw] = value_of(mg, p, w);
  auto [sr, fr] = value_of(mg, p, r);
  auto values = [](const Selection* s, const Quantity& q) { return s ? s->values(q) : std::set<std::int64_t>{q.of(Trace{})}; };
  auto guard = [&](const Selection* s, const Quantity& q, std::int64_t v) -> std::optional<z3::expr> {
    return s ? s->is_value(q, v) : std::optional<z3::expr>(ctx.bool_val(true));
  };
  z3::expr_vector any(ctx);
  auto vr = values(sr, fr);
  for (auto v : values(sw, fw)) {
    if (!vr.count(v)) continue;
    any.push_back(*guard(sw, fw, v) && *guard(sr, fr, v));
  }
  if (any.empty()) return std::nullopt;
  return z3::mk_or(any);
}

Merged merge(z3::context& ctx, const Prepared& pr, const std::vector<Shapes>& shapes, const std::vector<std::size_t>& idx) {
  Merged mg;
  std::vector<const Trace*> reps;
  int at = static_cast<int>(pr.p.pnames.size());
  for (std::size_t ti = 0; ti < shapes.size(); ++ti) {
    auto& group = shapes[ti][idx[ti]];
    reps.push_back(group.front());
    mg.first.push_back(at);
    at += static_cast<int>(group.front()->events.size());
    mg.sel.emplace_back(ctx, group, ti, mg.constraints);
  }
  mg.sp = build_space(pr.p, reps, /*match_values=*/false);
  return mg;
}

// A final register's value in a trace (its initial value when the trace never writes it).
std::int64_t reg_in(const Trace& tr, const Term& term, const Test& t) {
  auto it = tr.regs.find(term.name);
  if (it != tr.regs.end()) return it->second;
  auto ri = t.reg_init.find({term.thread, term.name});
  return ri != t.reg_init.end() ? ri->second : 0;
}
Quantity register_quantity(const Term& term, const Test& t) {
  return Quantity{[&term, &t](const Trace& tr) { return reg_in(tr, term, t); },
                  [&term](const Trace& tr) { return free_read_of_register(tr, term.name); }};
}

// The whole search: per combination of shapes one solver; in all-states mode every final state not found yet,
// otherwise one outcome satisfying the condition and one violating it (each at most once over the test).
class Search {
 public:
  Search(const Prepared& pr, const cat::Model& model, const Options& opt, Result& res)
      : pr_(pr), model_(model), opt_(opt), res_(res), states_(res) {}

  // false: stop (done, or `why` says why the result is unknown).
  bool run(z3::context& ctx, const std::vector<Shapes>& shapes, const std::vector<std::size_t>& idx);
  std::optional<std::string> why;

 private:
  bool record(const z3::model& m, const Merged& mg, const Choices& ch, const SymbolicEncoder& enc,
              const std::map<std::string, z3::expr>& fin);
  const Prepared& pr_;
  const cat::Model& model_;
  const Options& opt_;
  Result& res_;
  StateCollector states_;
  std::set<Valuation> found_;
  bool have_pos_ = false, have_neg_ = false;
  Valuation last_;  // the state record() added last
};

bool Search::record(const z3::model& m, const Merged& mg, const Choices& ch,
                    const SymbolicEncoder& enc, const std::map<std::string, z3::expr>& fin) {
  Valuation vals;
  for (auto& [name, v] : fin) {
    std::uint64_t uv = 0;
    m.eval(v, true).is_numeral_u64(uv);
    vals[name] = static_cast<std::int64_t>(uv);
  }
  std::optional<mm::Execution> w;
  if (opt_.keep_witnesses || opt_.verify_witnesses) {
    // The traces the model selects, as a concrete graph (same event numbering: same shapes).
    std::vector<Trace> chosen;
    for (auto& s : mg.sel) chosen.push_back(s.chosen(m));
    std::vector<const Trace*> ptrs;
    for (auto& tr : chosen) ptrs.push_back(&tr);
    w = build_space(pr_.p, ptrs).g.exec;
    const int n = w->n;
    w->rels["rf"] = concrete(ch.rf, enc, m, n);
    w->rels["co"] = concrete(ch.co, enc, m, n);
    w->rels["sync_fence"] = concrete(ch.sync_fence, enc, m, n);
    w->rels["syncbar"] = concrete(ch.syncbar, enc, m, n);
    if (opt_.verify_witnesses) {
      auto er = cat::evaluate_explicit(model_, *w, true);
      if (!er.consistent()) {
        why = "internal: symbolic witness violates " + er.violated().front() + " under the explicit evaluator";
        return false;
      }
    }
  }
  bool sat = eval_condition(pr_.t.cond, vals);
  (sat ? have_pos_ : have_neg_) = true;
  states_.add(vals, sat, opt_.keep_witnesses ? &*w : nullptr);
  found_.insert(vals);
  last_ = std::move(vals);
  return true;
}

// When every term is a register that each trace of these shapes leaves with the same value, the one final
// state they can give; nullopt otherwise.
std::optional<Valuation> fixed_state(const Prepared& pr, const std::vector<Shapes>& shapes,
                                     const std::vector<std::size_t>& idx) {
  Valuation v;
  for (auto& term : pr.terms) {
    if (term.kind != Term::reg) return std::nullopt;
    std::size_t ti = 0;
    while (ti < pr.p.threads.size() && pr.p.threads[ti].id != term.thread) ++ti;
    std::set<std::int64_t> vals;
    if (ti == pr.p.threads.size()) vals.insert(reg_in(Trace{}, term, pr.t));
    else for (auto* tr : shapes[ti][idx[ti]]) {
      auto vs = values_in(*tr, register_quantity(term, pr.t));
      vals.insert(vs.begin(), vs.end());
    }
    if (vals.size() != 1) return std::nullopt;
    v[render_term(term)] = *vals.begin();
  }
  return v;
}

bool Search::run(z3::context& ctx, const std::vector<Shapes>& shapes, const std::vector<std::size_t>& idx) {
  // A combination that can only give a state already found (or, verdict only, of a kind already seen) cannot
  // change the result: not encoded (as the per-trace engine skips such trace combinations).
  if (auto st = fixed_state(pr_, shapes, idx)) {
    bool sat = eval_condition(pr_.t.cond, *st);
    if (opt_.all_states ? found_.count(*st) > 0 : (sat ? have_pos_ : have_neg_)) return true;
  }
  Merged mg = merge(ctx, pr_, shapes, idx);
  if (!mg.sp.feasible) return true;
  ++res_.candidates;
  const mm::Execution& x = mg.sp.g.exec;
  const int n = x.n;
  SymbolicEncoder enc(ctx, n);
  ValueMatch match = [&](int w, int r) { return values_match(ctx, mg, pr_.p, w, r); };
  Choices ch = encode_model(mg.sp, model_, enc, &match);
  z3::solver s = model_solver(ctx, ch, enc);
  for (auto& e : mg.constraints) s.add(e);
  for (auto& a : enc.axioms()) s.add(a.holds);

  // The condition's terms: a register is a term over its thread's selected trace; a location takes the value
  // of a co-maximal write (several when co leaves the last write open, as the explicit engine reads it).
  std::map<std::string, z3::expr> fin;
  for (auto& term : pr_.terms) {
    z3::expr v = ctx.bv_const(fmt::format("fin!{}", render_term(term)).c_str(), 64);
    fin.emplace(render_term(term), v);
    if (term.kind == Term::reg) {
      std::size_t ti = 0;
      while (ti < pr_.p.threads.size() && pr_.p.threads[ti].id != term.thread) ++ti;
      if (ti == pr_.p.threads.size()) { s.add(v == ctx.bv_val(static_cast<int64_t>(reg_in(Trace{}, term, pr_.t)), 64)); continue; }
      s.add(v == mg.sel[ti].pick(register_quantity(term, pr_.t)));
      continue;
    }
    int l = pr_.p.phys_of[pr_.p.vloc_of.at(term.name)];
    z3::expr_vector opts(ctx);
    std::vector<int> ws{l};
    ws.insert(ws.end(), mg.sp.loc_writes[l].begin(), mg.sp.loc_writes[l].end());
    for (int w : ws) {
      z3::expr_vector later(ctx);
      for (int w2 : mg.sp.loc_writes[l])
        if (w2 != w) later.push_back(!enc.expr(ch.co.bits[w * n + w2]));
      z3::expr is_max = later.empty() ? ctx.bool_val(true) : z3::mk_and(later);
      opts.push_back(is_max && v == event_value(ctx, mg, pr_.p, w));
    }
    s.add(z3::mk_or(opts));
  }
  z3::expr cond = cond_expr(pr_.t.cond, [&](const Term& t) { return fin.at(render_term(t)); }, ctx);

  auto check = [&]() -> std::optional<z3::check_result> {
    const solver::Answer a = solver::check(s, check_budget(opt_.solver_timeout_ms));
    if (!a.unknown()) return a.result;
    why = "z3 check: " + a.reason;
    return std::nullopt;
  };
  auto block = [&](const Valuation& st) {
    z3::expr_vector differ(ctx);
    for (auto& [name, v] : fin) differ.push_back(v != ctx.bv_val(static_cast<int64_t>(st.at(name)), 64));
    s.add(differ.empty() ? ctx.bool_val(false) : z3::mk_or(differ));
  };
  if (!opt_.all_states) {
    // The verdict and the observation: an outcome of a kind not seen yet (satisfying or violating the
    // condition), at most two queries; plain assertions, since the solver serves this combination only.
    for (;;) {
      if (have_pos_ && have_neg_) return false;
      if (have_pos_ || have_neg_) s.add(have_pos_ ? !cond : cond);
      auto r = check();
      if (!r) return false;
      if (*r == z3::unsat) return true;
      if (!record(s.get_model(), mg, ch, enc, fin)) return false;
    }
  }
  for (auto& st : found_) block(st);  // only new final states are looked for
  for (;;) {
    auto r = check();
    if (!r) return false;
    if (*r == z3::unsat) return true;
    z3::model m = s.get_model();
    if (!record(m, mg, ch, enc, fin)) return false;
    block(last_);
  }
}
}  // namespace

std::optional<std::string> enumerate_symbolic(const Prepared& pr, const cat::Model& model, const Options& opt,
                                              Result& res) {
  // --explain: the unsat cores name the axioms per combination of traces, as the per-combination engine does.
  if (opt.explain) return enumerate_symbolic_split(pr, model, opt, res);
  static std::once_flag mem_once;
  std::call_once(mem_once, [&] { z3::set_param("memory_max_size", static_cast<int>(opt.solver_memory_mb)); });
  res.states_complete = opt.all_states;
  Search search(pr, model, opt, res);
  try {
    z3::context ctx;
    std::deque<Trace> expanded;  // (groups of compact traces that shapes_of expands)
    auto shapes = shapes_of(pr, expanded);
    for (auto& sh : shapes)
      if (sh.empty()) return std::nullopt;  // a thread with no complete trace: no execution
    std::vector<std::size_t> idx(shapes.size(), 0);
    for (;;) {
      if (!search.run(ctx, shapes, idx)) break;
      std::size_t k = 0;
      for (; k < idx.size(); ++k) {
        if (++idx[k] < shapes[k].size()) break;
        idx[k] = 0;
      }
      if (k == idx.size()) break;
    }
  } catch (const z3::exception& e) {
    search.why = std::string("z3: ") + e.msg();
  }
  return search.why;
}

}  // namespace ptxcheck::litmus
