// Builds the base sets and relations of candidate execution graphs (names as in memmodel/cat/base_names.cpp)
// and enumerates the choices the model leaves open: rf, co partial orders, fence-SC order, barrier groups.
#include "litmus/enumerate/graph_builder.hpp"

#include "litmus/build/cluster_barrier_cells.hpp"
#include "litmus/enumerate/barrier_phases.hpp"
#include "litmus/enumerate/engine.hpp"
#include "litmus/parse/ast.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <tuple>

namespace ptxcheck::litmus {
using mm::Rel;

namespace {
// All strict partial orders on k elements, as lists of (a, b) pairs.
const std::vector<std::vector<std::pair<int, int>>>& partial_orders(int k) {
  static std::map<int, std::vector<std::vector<std::pair<int, int>>>> cache;
  auto it = cache.find(k);
  if (it != cache.end()) return it->second;
  std::vector<std::pair<int, int>> pairs;
  for (int a = 0; a < k; ++a)
    for (int b = 0; b < k; ++b)
      if (a != b) pairs.emplace_back(a, b);
  std::vector<std::vector<std::pair<int, int>>> out;
  std::size_t np = pairs.size();
  for (std::uint64_t m = 0; m < (std::uint64_t{1} << np); ++m) {
    std::vector<std::vector<bool>> r(k, std::vector<bool>(k, false));
    for (std::size_t i = 0; i < np; ++i)
      if (m >> i & 1) r[pairs[i].first][pairs[i].second] = true;
    bool ok = true;
    for (int a = 0; a < k && ok; ++a)
      for (int b = 0; b < k && ok; ++b) {
        if (r[a][b] && r[b][a]) ok = false;
        for (int c = 0; c < k && ok; ++c)
          if (r[a][b] && r[b][c] && !r[a][c]) ok = false;
      }
    if (!ok) continue;
    std::vector<std::pair<int, int>> po;
    for (std::size_t i = 0; i < np; ++i)
      if (m >> i & 1) po.push_back(pairs[i]);
    out.push_back(std::move(po));
  }
  return cache[k] = std::move(out);
}


// Where each thread of the test runs, for scopes (ISA 8.5).
std::vector<mm::ThreadPlace> places(const Program& p) {
  std::vector<mm::ThreadPlace> out;
  for (const auto& t : p.threads) out.push_back(mm::ThreadPlace{t.cta, t.cluster, t.gpu});
  return out;
}

std::string label_of(const Program& p, const GraphEvent& g, int idx) {
  auto& e = g.ev;
  std::string s = "e" + std::to_string(idx) + ": ";
  s += g.thread < 0 ? std::string("init") : fmt::format("P{}", p.threads[g.thread].id);
  s += " ";
  switch (e.kind) {
    case EvKind::read: s += "R " + p.vnames[e.vloc] + "=" + std::to_string(e.value); break;
    case EvKind::write: s += "W " + p.vnames[e.vloc] + "=" + std::to_string(e.value); break;
    case EvKind::fence: s += "F"; break;
    case EvKind::barrier: s += e.bar_cluster ? std::string("B cluster") : "B" + std::to_string(e.bar_id); break;
  }
  if (g.thread >= 0) s += " (" + e.text + ")";
  return s;
}
}  // namespace

std::tuple<int, int, int> barrier_key(const Program& p, int ti, const TEvent& e) {
  int cta = ti;  // the CTA is named by its lowest thread index
  const auto where = places(p);
  for (int tj = 0; tj < static_cast<int>(p.threads.size()); ++tj)
    if (mm::scope_includes(Scope::cta, where, ti, tj)) { cta = tj; break; }
  return {cta, e.bar_id, e.bar_instance};
}

void note_barrier_users(Program& p, const std::vector<std::vector<Trace>>& traces) {
  p.barrier_users.clear();
  for (std::size_t ti = 0; ti < traces.size(); ++ti)
    for (auto& tr : traces[ti])
      for (auto& e : tr.events)
        if (e.kind == EvKind::barrier && !e.async_edge && !e.bar_cluster) p.barrier_users[barrier_key(p, static_cast<int>(ti), e)].insert(static_cast<int>(ti));
}

namespace {
// Barrier phases (barrier_phases.hpp): one choice over all barriers together, since an order of arrival at one
// barrier constrains the orders at the others (a thread waiting at one arrives at the next only after it).
// Adds the syncbar relation of each phasing to space.bar_choices; false when there is none.
bool add_barrier_choices(const Program& p, const std::vector<const Trace*>& traces, const std::vector<int>& first,
                         CandidateSpace& space) {
  const CandidateGraph& g = space.g;
  const int n = g.exec.n;
  std::vector<std::vector<BarrierArrival>> arrivals(traces.size());
  bool any_barrier = false;
  for (std::size_t ti = 0; ti < traces.size(); ++ti)
    for (int i = first[ti]; i < first[ti] + static_cast<int>(traces[ti]->events.size()); ++i) {
      const TEvent& e = g.events[i].ev;
      if (e.kind != EvKind::barrier || e.async_edge || e.bar_cluster) continue;
      arrivals[ti].push_back(BarrierArrival{i, barrier_key(p, static_cast<int>(ti), e), e.bar_count, !e.bar_arrive});
      any_barrier = true;
    }
  // Liveness: a trace ending at a barrier waits there forever (its arrival synchronises nothing).
  for (std::size_t ti = 0; ti < traces.size(); ++ti)
    if (traces[ti]->end == Trace::End::barrier && !traces[ti]->events.back().bar_cluster && !arrivals[ti].empty())
      arrivals[ti].back().never_completes = true;
  // barrier.cluster (ISA 9.7.13.3): its phases follow from the traces, one choice.
  const auto cluster = cluster_barrier_syncbar(p, traces, first, n);
  if (!cluster) return false;
  if (!cluster->empty()) space.bar_choices.push_back({*cluster});
  if (!any_barrier) return true;
  std::set<BarrierPhasing> phasings = barrier_phasings(arrivals, p.barrier_users);
  if (phasings.empty()) return false;
  std::vector<Rel> rels;
  for (auto& phases : phasings) {
    Rel r(n);
    // 8.9.4 item 2: each arrival synchronizes with the waiting ones (bar.sync) of its phase, not with an arrive.
    for (auto& phase : phases) mm::add_barrier_phase(r, phase, [&](int b) { return !g.events[b].ev.bar_arrive; });
    rels.push_back(r);
  }
  space.bar_choices.push_back(std::move(rels));
  return true;
}

// The graph thread of each event: its program thread, or for an asynchronous operation's events (TEvent::op) a
// thread of that operation's own, numbered after the program threads, at its issuer's place (`where` gets it).
std::vector<int> graph_threads(const std::vector<const Trace*>& traces, std::vector<mm::ThreadPlace>& where) {
  std::vector<int> out;
  for (std::size_t ti = 0; ti < traces.size(); ++ti) {
    std::map<int, int> op_thread;
    for (const TEvent& e : traces[ti]->events) {
      if (e.op < 0) { out.push_back(static_cast<int>(ti)); continue; }
      auto [it, fresh] = op_thread.emplace(e.op, static_cast<int>(where.size()));
      if (fresh) where.push_back(where[ti]);
      out.push_back(it->second);
    }
  }
  return out;
}

// The split-barrier edges of asynchronous operations (TEvent::sync_from: issue, completion), fixed by the traces: a
// barrier choice of one option, so that both engines read them as the barrier phases.
void add_async_edges(const std::vector<const Trace*>& traces, const std::vector<int>& first, CandidateSpace& space) {
  Rel r(space.g.exec.n);
  bool any = false;
  for (std::size_t ti = 0; ti < traces.size(); ++ti)
    for (std::size_t i = 0; i < traces[ti]->events.size(); ++i)
      for (int from : traces[ti]->events[i].sync_from) {
        mm::add_split_barrier_phase(r, {first[ti] + from}, {first[ti] + static_cast<int>(i)});
        any = true;
      }
  if (any) space.bar_choices.push_back({r});
}
}  // namespace

CandidateSpace build_space(const Program& p, const std::vector<const Trace*>& traces, bool match_values) {
  CandidateSpace space;
  CandidateGraph& g = space.g;
  g.traces = traces;
  for (std::size_t l = 0; l < p.pnames.size(); ++l) {
    GraphEvent ge;
    ge.ev.kind = EvKind::write;
    ge.ev.loc = static_cast<int>(l);
    ge.ev.vloc = p.vloc_of.at(p.pnames[l]);
    ge.ev.value = p.init[l];
    ge.ev.text = "init";
    g.events.push_back(ge);
  }
  std::vector<int> first(traces.size());
  for (std::size_t ti = 0; ti < traces.size(); ++ti) {
    first[ti] = static_cast<int>(g.events.size());
    for (auto& e : traces[ti]->events) g.events.push_back(GraphEvent{e, static_cast<int>(ti)});
  }
  const int n = static_cast<int>(g.events.size());
  std::vector<mm::ThreadPlace> where = places(p);
  const std::vector<int> thread_of = graph_threads(traces, where);
  std::vector<mm::BaseEvent> base;
  for (const GraphEvent& ge : g.events) {
    const TEvent& e = ge.ev;
    const int thread = ge.thread < 0 ? -1 : thread_of[base.size() - p.pnames.size()];
    // The read of a reduction (`red`, ISA 9.7.13.7): 8.8 says it never forms an acquire pattern.
    const bool red = e.text.rfind("red", 0) == 0 && (e.text.size() == 3 || e.text[3] == '.');
    const int va = e.vloc >= 0 ? p.va_of[e.vloc] : -1;
    base.push_back(mm::BaseEvent{e.kind, e.sem, e.scope, e.proxy, thread, e.loc, va, e.rmw, red, e.alias_fence, e.proxy_fence});
  }
  std::vector<std::pair<int, int>> rmw_pairs;
  for (std::size_t ti = 0; ti < traces.size(); ++ti) {
    auto& ev = traces[ti]->events;
    for (std::size_t i = 0; i + 1 < ev.size(); ++i)
      if (ev[i].rmw && ev[i].kind == EvKind::read && ev[i + 1].rmw && ev[i + 1].kind == EvKind::write)
        rmw_pairs.emplace_back(first[ti] + static_cast<int>(i), first[ti] + static_cast<int>(i) + 1);
  }
  g.exec = mm::base_execution(base, where, rmw_pairs);
  auto& x = g.exec;
  for (int i = 0; i < n; ++i) x.labels.push_back(label_of(p, g.events[i], i));
  Rel addr(n), data(n), ctrl(n);
  for (std::size_t ti = 0; ti < traces.size(); ++ti) {
    auto& ev = traces[ti]->events;
    for (std::size_t i = 0; i < ev.size(); ++i) {
      int gi = first[ti] + static_cast<int>(i);
      for (int r : ev[i].addr) addr.add(first[ti] + r, gi);
      for (int r : ev[i].data) data.add(first[ti] + r, gi);
      for (int r : ev[i].ctrl) ctrl.add(first[ti] + r, gi);
    }
  }
  x.rels["addr"] = addr;
  x.rels["data"] = data;
  x.rels["ctrl"] = ctrl;

  // ---- choices
  auto& reads = space.reads;
  auto& rf_cands = space.rf_cands;
  for (int r = 0; r < n; ++r)
    if (g.events[r].ev.kind == EvKind::read) {
      std::vector<int> c;
      for (int w = 0; w < n; ++w)
        if (g.events[w].ev.kind == EvKind::write && g.events[w].ev.loc == g.events[r].ev.loc &&
            (!match_values || g.events[w].ev.value == g.events[r].ev.value))
          c.push_back(w);
      if (c.empty()) { space.feasible = false; return space; }  // this read's value cannot be produced
      reads.push_back(r);
      rf_cands.push_back(std::move(c));
    }
  auto& loc_writes = space.loc_writes;
  loc_writes.assign(p.pnames.size(), {});
  for (int w = 0; w < n; ++w)
    if (g.events[w].ev.kind == EvKind::write && g.events[w].thread >= 0) loc_writes[g.events[w].ev.loc].push_back(w);
  for (int i = 0; i < n; ++i)
    if (g.events[i].ev.kind == EvKind::fence && g.events[i].ev.sem == Sem::sc) space.sc_fences.push_back(i);
  // Barrier phases: false when every order of arrival leaves a thread waiting (no execution).
  space.feasible = add_barrier_choices(p, traces, first, space);
  add_async_edges(traces, first, space);
  return space;
}

bool enumerate_graphs(const Program& p, const Test&, const std::vector<const Trace*>& traces,
                      const std::function<bool(const CandidateGraph&)>& f, bool* too_large) {
  CandidateSpace space = build_space(p, traces);
  if (!space.feasible) return true;
  CandidateGraph& g = space.g;
  auto& x = g.exec;
  const int n = x.n;
  const Rel& sr = x.rels.at("sr");
  auto& reads = space.reads;
  auto& rf_cands = space.rf_cands;
  auto& loc_writes = space.loc_writes;
  auto& bar_choices = space.bar_choices;
  std::vector<const std::vector<std::vector<std::pair<int, int>>>*> co_cands;
  for (auto& ws : loc_writes) {
    // More than 5 writes to one location: 2^30 relations to filter for partial orders; out of this
    // engine's reach (the symbolic engine has no such limit).
    if (ws.size() > 5) {
      if (too_large) *too_large = true;
      return false;
    }
    co_cands.push_back(&partial_orders(static_cast<int>(ws.size())));
  }
  std::vector<std::vector<int>> sc_orders;
  {
    std::vector<int> perm = space.sc_fences;
    std::sort(perm.begin(), perm.end());
    do sc_orders.push_back(perm);
    while (std::next_permutation(perm.begin(), perm.end()));
  }

  // Odometer over rf x co x sc x barrier.
  std::vector<std::size_t> rf_i(reads.size(), 0), co_i(co_cands.size(), 0), bar_i(bar_choices.size(), 0);
  std::size_t sc_i = 0;
  for (;;) {
    Rel rf(n), co(n), syncbar(n), sync_fence(n);
    for (std::size_t k = 0; k < reads.size(); ++k) rf.add(rf_cands[k][rf_i[k]], reads[k]);
    for (std::size_t l = 0; l < co_cands.size(); ++l) {
      auto& ws = loc_writes[l];
      for (int w : ws) co.add(static_cast<int>(l), w);  // the initial write is co-first
      for (auto [a, b] : (*co_cands[l])[co_i[l]]) co.add(ws[a], ws[b]);
    }
    for (std::size_t k = 0; k < bar_choices.size(); ++k) syncbar |= bar_choices[k][bar_i[k]];
    sync_fence = mm::fence_sc_order(sc_orders[sc_i], sr);
    x.rels["rf"] = rf;
    x.rels["co"] = co;
    x.rels["syncbar"] = syncbar;
    x.rels["sync_fence"] = sync_fence;
    if (!f(g)) return false;
    // advance
    std::size_t k = 0;
    for (; k < reads.size(); ++k) { if (++rf_i[k] < rf_cands[k].size()) break; rf_i[k] = 0; }
    if (k < reads.size()) continue;
    for (k = 0; k < co_cands.size(); ++k) { if (++co_i[k] < co_cands[k]->size()) break; co_i[k] = 0; }
    if (k < co_cands.size()) continue;
    for (k = 0; k < bar_choices.size(); ++k) { if (++bar_i[k] < bar_choices[k].size()) break; bar_i[k] = 0; }
    if (k < bar_choices.size()) continue;
    if (++sc_i < sc_orders.size()) continue;
    return true;
  }
}

std::int64_t register_value(const Term& term, const std::vector<const Trace*>& traces, const Program& p, const Test& t) {
  std::int64_t v = 0;
  auto ri = t.reg_init.find({term.thread, term.name});
  if (ri != t.reg_init.end()) v = ri->second;
  for (std::size_t ti = 0; ti < p.threads.size(); ++ti)
    if (p.threads[ti].id == term.thread) {
      auto it = traces[ti]->regs.find(term.name);
      if (it != traces[ti]->regs.end()) v = it->second;
    }
  return v;
}

std::vector<std::map<std::string, std::int64_t>> final_states(const CandidateGraph& g, const std::vector<Term>& terms,
                                                              const Program& p, const Test& t) {
  std::vector<std::map<std::string, std::int64_t>> out(1);
  const Rel& co = g.exec.rels.at("co");
  for (auto& term : terms) {
    if (term.kind == Term::reg) {
      std::string key = render_term(term);
      std::int64_t v = register_value(term, g.traces, p, t);
      for (auto& m : out) m[key] = v;
    } else if (term.kind == Term::loc) {
      int l = p.phys_of[p.vloc_of.at(term.name)];
      std::set<std::int64_t> finals;
      for (int w = 0; w < g.exec.n; ++w) {
        auto& e = g.events[w].ev;
        if (e.kind != EvKind::write || e.loc != l) continue;
        bool maximal = true;
        for (int w2 = 0; w2 < g.exec.n; ++w2)
          if (co.has(w, w2)) maximal = false;
        if (maximal) finals.insert(e.value);
      }
      std::vector<std::map<std::string, std::int64_t>> next;
      for (auto& m : out)
        for (auto v : finals) {
          auto m2 = m;
          m2[term.name] = v;
          next.push_back(std::move(m2));
        }
      out = std::move(next);
    }
  }
  return out;
}

}  // namespace ptxcheck::litmus
