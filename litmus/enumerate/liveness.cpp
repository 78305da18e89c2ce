// Liveness (docs/litmus-liveness.md): an execution hangs when every thread has terminated or is stuck, and one is
// stuck. A thread is stuck in a spin loop when the loop's last iteration is side-effect free, leaves the loop-head
// state as it found it, and reads only co-maximal writes (no write to the location is co-after the one read: the
// values never change again, so under fair scheduling the iteration repeats forever; Dat3M's definition). An
// iteration with RMW pairs (atom.exch / atom.cas spins) is stuck likewise when every write co-after the one each
// of its reads reads is a stuck iteration's write of the value read (it keeps reading back that value). A
// thread is stuck at a bar.sync / barrier.sync that never completes (ISA 9.7.13.1: the barrier waits until
// its count of threads has arrived; the phases are litmus/enumerate/barrier_phases.hpp's, as for the verdict). One Z3 query per combination of thread traces with a stuck thread: the
// model's axioms plus the co-maximality of every read of a repeating iteration; sat is a hang, its witness the
// stuck threads.
#include "litmus/enumerate/liveness.hpp"

#include "litmus/build/mbarrier_counter.hpp"
#include "litmus/enumerate/graph_builder.hpp"
#include "litmus/enumerate/symbolic_choices.hpp"
#include "memmodel/cat/symbolic.hpp"
#include "semantics/support/cpu_clock.hpp"

#include <fmt/format.h>
#include <z3++.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace ptxcheck::litmus {
namespace {
// A necessary condition for query() that needs no solver: every read of a repeating iteration needs a write of
// its value that every other write to the location, except repeating RMW writes of that value, may precede
// in co. None may if the write read is the initial one (co-first), and a later write of the same thread
// never may (8.9.6: co agrees with program order on same-location writes of a thread).
bool may_stick(const Program& p, const std::vector<Trace>& traces) {
  using At = std::pair<std::size_t, int>;  // (thread, event index); thread == traces.size(): the initial write
  auto exempt = [&](std::size_t ti, int k, std::int64_t v) {
    auto& tr = traces[ti];
    auto& e = tr.events[static_cast<std::size_t>(k)];
    return tr.end == Trace::End::spin && e.value == v &&
           std::find(tr.spin_events.begin(), tr.spin_events.end(), k) != tr.spin_events.end();
  };
  for (std::size_t ti = 0; ti < traces.size(); ++ti)
    for (int k : traces[ti].spin_events) {
      const TEvent& r = traces[ti].events[static_cast<std::size_t>(k)];
      if (r.kind != EvKind::read) continue;
      std::vector<At> others, sources;
      if (p.init[static_cast<std::size_t>(r.loc)] == r.value) sources.emplace_back(traces.size(), -1);
      for (std::size_t tj = 0; tj < traces.size(); ++tj)
        for (std::size_t i = 0; i < traces[tj].events.size(); ++i) {
          auto& e = traces[tj].events[i];
          if (e.kind != EvKind::write || e.loc != r.loc) continue;
          if (e.value == r.value) sources.emplace_back(tj, static_cast<int>(i));
          if (!exempt(tj, static_cast<int>(i), r.value)) others.emplace_back(tj, static_cast<int>(i));
        }
      bool some = false;
      for (auto& w : sources) {
        bool fine = true;
        for (auto& o : others)
          if (o != w && (w.first == traces.size() || (o.first == w.first && o.second > w.second))) fine = false;
        some |= fine;
      }
      if (!some) return false;
    }
  return true;
}

std::string describe(const Program& p, const std::vector<const Trace*>& chosen) {
  std::string out;
  for (std::size_t ti = 0; ti < chosen.size(); ++ti) {
    const Trace& tr = *chosen[ti];
    if (tr.end == Trace::End::done) continue;
    auto& th = p.threads[ti];
    std::string where = fmt::format("instruction {}", tr.stuck_pc + 1);
    for (auto& [l, pc] : th.labels)
      if (pc == tr.stuck_pc) where = l;
    if (!out.empty()) out += "; ";
    if (tr.end == Trace::End::barrier) {
      auto& e = tr.events.back();
      if (e.bar_cluster) out += fmt::format("P{} waits forever at {}", th.id, e.text);  // (one barrier per cluster)
      else out += fmt::format("P{} waits forever at {} {}", th.id, e.text, e.bar_id);
      continue;
    }
    out += fmt::format("P{} spins forever at {}", th.id, where);
    std::string reads;
    for (int k : tr.spin_events) {
      auto& e = tr.events[static_cast<std::size_t>(k)];
      if (e.kind != EvKind::read) continue;
      const auto mbar = p.mbarrier_expected.find(e.loc);  // an mbarrier object's state (mbarrier_counter.hpp)
      reads += fmt::format("{}{}={}", reads.empty() ? "" : ", ", p.pnames[static_cast<std::size_t>(e.loc)],
                           mbar == p.mbarrier_expected.end() ? std::to_string(e.value) : describe_mbarrier(e.value, mbar->second));
    }
    if (!reads.empty()) out += " reading " + reads;
  }
  return out;
}

// Whether the model allows an execution of these traces in which every read of a repeating spin
// iteration reads a co-maximal write. sat: a hang; unknown: `why` says why.
z3::check_result query(const Prepared& pr, const cat::Model& model, const Options& opt,
                       const std::vector<Trace>& traces, z3::context& ctx, std::string& why) {
  std::vector<const Trace*> ptrs;
  for (auto& tr : traces) ptrs.push_back(&tr);
  CandidateSpace sp = build_space(pr.p, ptrs);
  if (!sp.feasible) return z3::unsat;
  const mm::Execution& x = sp.g.exec;
  const int n = x.n;
  cat::SymbolicEncoder enc(ctx, n);
  Choices ch = encode_model(sp, model, enc);
  z3::solver s = model_solver(ctx, ch, enc);
  for (auto& a : enc.axioms()) s.add(a.holds);
  // The graph numbers the initial writes first, then each thread's events in order.
  std::vector<int> first(traces.size(), -1);
  for (int i = 0; i < n; ++i) {
    int t = sp.g.events[static_cast<std::size_t>(i)].thread;
    if (t >= 0 && first[static_cast<std::size_t>(t)] < 0) first[static_cast<std::size_t>(t)] = i;
  }
  std::map<int, std::size_t> read_index;
  for (std::size_t j = 0; j < sp.reads.size(); ++j) read_index[sp.reads[j]] = j;
  // The writes of the repeating iterations (their RMW pairs): once the other threads are done, the only
  // writes still made, again and again with the same values.
  std::set<int> spin_writes;
  for (std::size_t ti = 0; ti < traces.size(); ++ti)
    for (int k : traces[ti].spin_events)
      if (traces[ti].events[static_cast<std::size_t>(k)].kind == EvKind::write) spin_writes.insert(first[ti] + k);
  // A read of a repeating iteration keeps its value forever when every write co-after the one it reads is a
  // repeating write of that same value (none at all: the write read is co-maximal, Dat3M's condition).
  for (std::size_t ti = 0; ti < traces.size(); ++ti)
    for (int k : traces[ti].spin_events) {
      const TEvent& re = traces[ti].events[static_cast<std::size_t>(k)];
      if (re.kind != EvKind::read) continue;
      int r = first[ti] + k;
      for (int w : sp.rf_cands[read_index.at(r)]) {
        z3::expr_vector later(ctx);
        for (int w2 : sp.loc_writes[static_cast<std::size_t>(re.loc)]) {
          if (w2 == w || (spin_writes.count(w2) && sp.g.events[static_cast<std::size_t>(w2)].ev.value == re.value)) continue;
          later.push_back(enc.expr(ch.co.bits[static_cast<std::size_t>(w * n + w2)]));
        }
        if (!later.empty()) s.add(z3::implies(enc.expr(ch.rf.bits[static_cast<std::size_t>(w * n + r)]), !z3::mk_or(later)));
      }
    }
  const solver::Answer a = solver::check(s, check_budget(opt.solver_timeout_ms));
  if (a.unknown()) why = "z3 check: " + a.reason;
  return a.result;
}
}  // namespace

void check_liveness(const Prepared& pr, const cat::Model& model, const Options& opt, bool bounded, Result& res) {
  const double t0 = thread_cpu_seconds();  // Z3 runs in this thread: its work counts
  // Past the loop bound only a hang can be concluded (never ok): the search gets a smaller budget (Options).
  const unsigned max_queries = bounded ? opt.liveness_queries_bounded : opt.liveness_queries;
  const unsigned budget_ms = bounded ? opt.liveness_budget_ms / 4 : opt.liveness_budget_ms;
  unsigned queries = 0;
  std::string unknown_why;
  bool hang = false;
  try {
    z3::context ctx;
    std::vector<Trace> ready;
    for_each_combination(pr, [&](const std::vector<const Trace*>& chosen) {
      bool stuck = false;
      for (auto* tr : chosen) stuck |= tr->end != Trace::End::done;
      if (!stuck) return true;
      // A trace stuck at a barrier keeps its arrival: the candidate space admits only orders of arrival that leave
      // exactly such threads waiting (litmus/enumerate/barrier_phases.hpp).
      ready.clear();
      for (auto* tr : chosen) ready.push_back(*tr);
      if (!may_stick(pr.p, ready)) return true;
      if (queries == max_queries) {
        unknown_why = fmt::format("liveness budget exhausted ({} queries)", max_queries);
        return false;
      }
      if ((thread_cpu_seconds() - t0) * 1e3 > budget_ms) {
        unknown_why = fmt::format("liveness budget exhausted ({} ms of CPU time)", budget_ms);
        return false;
      }
      ++queries;
      std::string why;
      auto r = query(pr, model, opt, ready, ctx, why);
      if (r == z3::unknown) { unknown_why = why; return true; }
      if (r == z3::unsat) return true;
      hang = true;
      res.liveness_detail = describe(pr.p, chosen);
      return false;
    });
  } catch (const z3::exception& e) {
    unknown_why = std::string("z3: ") + e.msg();
  } catch (const std::runtime_error& e) {
    unknown_why = std::string("model: ") + e.what();
  }
  if (hang) { res.liveness = "hang"; return; }
  if (!unknown_why.empty() || bounded) {
    res.liveness = "unknown";
    res.liveness_detail = !unknown_why.empty() ? unknown_why
        : fmt::format("no hang found, but a loop that is not a side-effect-free spin loop reached the loop bound "
                      "(--unroll {}): an execution past it might hang", opt.unroll);
    return;
  }
  res.liveness = "ok";
}

}  // namespace ptxcheck::litmus
