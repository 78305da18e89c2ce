// A thread's own accesses while its cp.async is in flight, in a kernel's pair check (kernel_check.hpp).
#include "checker/race/kernel_check.hpp"

namespace ptxcheck::race {
using ptx::ir::Opcode;

// ISA 9.7.13.15.15: cp.async.mbarrier.arrive makes an arrive-on the mbarrier once the thread's earlier cp.async
// copies complete, and a wait that then finds that phase complete sees their writes (9.7.13.15.16): a copy completed
// so (cuda::memcpy_async with a cuda::pipeline or barrier) needs no wait_group. Which phase a wait observes the engine
// does not follow: the thread's access to the copy's bytes is then a possible race only, when the copy reaches a
// cp.async.mbarrier.arrive and the access is reachable from an mbarrier wait such an arrive reaches.
bool KernelCheck::mbarrier_may_complete(std::uint32_t copy, std::uint32_t access) {
  if (reaches_copy_arrive.empty()) {
    std::vector<std::uint32_t> copy_arrives, waits;
    for (std::uint32_t i = 0; i < f.body.size(); ++i)
      if (ptx::ir::mbarrier_op(f.body[i]) == ptx::ir::MbarrierOp::copy_arrive) copy_arrives.push_back(i);
    reaches_copy_arrive.assign(f.body.size(), false);
    after_copy_arrive_wait.assign(f.body.size(), false);
    std::vector<bool> after_arrive(f.body.size(), false);
    mark_reachable(prep.cfg, copy_arrives, reaches_copy_arrive, false);
    mark_reachable(prep.cfg, copy_arrives, after_arrive, true);
    for (std::uint32_t i = 0; i < f.body.size(); ++i)
      if (after_arrive[i] && ptx::ir::mbarrier_op(f.body[i]) == ptx::ir::MbarrierOp::wait) waits.push_back(i);
    mark_reachable(prep.cfg, waits, after_copy_arrive_wait, true);
  }
  return reaches_copy_arrive[copy] && after_copy_arrive_wait[access];
}

void KernelCheck::check_own_copies() {
  // ---- a thread's own accesses while its cp.async is in flight. ISA 9.7.9.25.3.3: the copy's writes become visible
  // to the thread only when its group completes, and the copy is ordered with none of the thread's later
  // instructions, its other copies included (9.7.9.25.3.2): one thread's access may race with its own copy. Asked of
  // a solver without the two threads being distinct. An access in a later iteration than the copy's is T2's
  // encoding as that iteration of T1: T1's ids, its iteration `later` on, values loaded or havocked of its own.
  for (std::size_t i = 0; i < T1.accesses.size() && !stop && !spans.empty(); ++i) {
    const Access& a = T1.accesses[i];
    if (!a.async) continue;
    for (std::size_t j = 0; j < T1.accesses.size() && !stop; ++j) {
      if (never_conflict(a, T1.accesses[j])) continue;  // (j == i too: the same copy in a later iteration)
      for (const AsyncPosition& p : spans.at(a.instr)) {
        if (p.instr != T1.accesses[j].instr) continue;
        // (Loops the span has left say only when it left them: the access after one is T2's, as before.)
        const bool same_iteration = std::all_of(p.later.begin(), p.later.end(), [&](const auto& l) { return l.second == 0 && in_body(static_cast<std::size_t>(l.first), p.instr); });
        if (same_iteration && p.instr == a.instr) continue;  // the copy's own read and write
        const Access& b = same_iteration ? T1.accesses[j] : T2.accesses[j];
        Where wa = where_of(m, f.body[a.instr]), wb = where_of(m, f.body[b.instr]);
        const RaceKey key = race_key(wa, wb);
        if (reported.count(key)) break;
        if (res.races.size() >= o.max_races) { stop = true; break; }
        if (res.queries >= o.max_queries) { budget = true; stop = true; break; }
        if (over_budget()) { timed_out = true; stop = true; break; }
        if (!one_thread) {
          // T2 here is T1 in a later iteration: T2's facts that tie its iteration counters to its ids (a forwarded
          // value's lane view, encode.cpp lane_view: `s72.k1(ctaid, tid) == k1`, true of one thread at one instance)
          // would force T2's iterations to be T1's. They are left out (fewer facts admit more executions).
          std::unordered_set<unsigned> t2_iterations, t2_facts;
          for (const auto& [L, k] : T2.k) t2_iterations.insert(k.id());
          for (const z3::expr& fact : T2.facts) t2_facts.insert(fact.id());
          auto pins_t2_iteration = [&](const z3::expr& e) {
            if (!t2_facts.count(e.id())) return false;
            for (unsigned id : constants_of(e))
              if (t2_iterations.count(id)) return true;
            return false;
          };
          one_thread.emplace(c);  // (its checks run under the current budget: check_on)
          for (const z3::expr& e : s.assertions())
            if (!z3::eq(e, distinct_threads) && !pins_t2_iteration(e)) one_thread->add(e);
        }
        const ThreadEncoding& tb = same_iteration ? T1 : T2;
        z3::expr q = both_overlap(a, b);
        if (!same_iteration) {
          q = q && all_eq(T2.tid, T1.tid) && all_eq(T2.ctaid, T1.ctaid);
          // One thread: what it computed once, outside the loops, is the same in both encodings.
          if (T1.once_symbols.size() == T2.once_symbols.size())
            for (std::size_t n = 0; n < T1.once_symbols.size(); ++n)
              if (z3::eq(T1.once_symbols[n].get_sort(), T2.once_symbols[n].get_sort())) q = q && T1.once_symbols[n] == T2.once_symbols[n];
          for (const auto& [L, later] : p.later)
            if (later != AsyncPosition::any_iteration && in_body(static_cast<std::size_t>(L), p.instr))
              q = q && T2.k.at(L) == T1.k.at(L) + c.bv_val(static_cast<std::uint64_t>(later), 64);
        }
        for (const auto& [L, iteration] : p.entered)
          if (iteration != AsyncPosition::any_iteration && in_body(static_cast<std::size_t>(L), p.instr))
            q = q && tb.k.at(L) == c.bv_val(static_cast<std::uint64_t>(iteration), 64);
        if (!same_iteration && p.instr == a.instr) {
          // The copy against a later run of its own instruction (an iteration `any_iteration` away leaves the k free):
          // another run, in another iteration of some loop around it.
          z3::expr another = c.bool_val(false);
          for (std::size_t L = 0; L < prep.cfg.loops.size(); ++L)
            if (in_body(L, a.instr)) another = another || T2.k.at(static_cast<int>(L)) != T1.k.at(static_cast<int>(L));
          q = q && another;
        }
        // The copy completes within a phase the access waits for; and b runs after the copy's issue, so the thread
        // has made at least as many arrives on each array by then.
        if (mbarriers.pipeline && a.pipeline_arrives.size() == 2 && b.pipeline_arrives.size() == 2) {
          // (No arrive on "empty" comes between a copy and the next arrive on "full", pipeline.cpp: so an access
          // with the copy's count on "full" has its count on "empty" too.)
          const z3::expr &af = a.pipeline_arrives[0], &ae = a.pipeline_arrives[1], &bf = b.pipeline_arrives[0], &be = b.pipeline_arrives[1];
          q = q && !pipeline_orders(a, b) && z3::uge(be, ae) && (z3::ugt(bf, af) || (bf == af && be == ae));
          // (Fewer than 2^32 iterations of a loop, the note's assumption: a later iteration is not one 2^32 on, in
          // which every 32-bit count has wrapped back to the same value.)
          for (const ThreadEncoding* t : {&T1, &T2})
            for (const auto& [L, k] : t->k) q = q && z3::ult(k, c.bv_val(std::uint64_t{1} << 32, 64));
        }
        auto [r, model, why] = check_on(*one_thread, q);
        if (r == z3::unknown) res.unknown_reasons.push_back("solver: " + why + " (accesses at " + wa.text() + " and " + wb.text() + ")");
        if (r != z3::sat) continue;
        reported.insert(key);
        RaceReport rr;
        rr.first = describe(a, *model);
        rr.second = describe(b, *model);
        rr.t1 = rr.t2 = ids_of(*model, T1);
        rr.witness = witness_of(*model);
        rr.note = "one thread: its own access while its cp.async is in flight" + std::string(same_iteration ? "" : " (in a later iteration of the loop)") +
                  "; the copy's writes are visible to the thread only after the cp.async.wait_group or wait_all that completes "
                  "its group (ISA 9.7.9.25.3.3)";
        if (!unmodelled_values(a, b).empty()) rr.possible = true;
        if (rr.possible) rr.note += "; the accesses' addresses or conditions depend on values the symbolic engine does not model";
        if (mbarrier_may_complete(a.instr, b.instr)) {
          rr.possible = true;
          rr.note += "; a cp.async.mbarrier.arrive after the copy and an mbarrier wait before the access may complete it "
                     "(ISA 9.7.13.15.15), which the engine does not follow";
        }
        res.races.push_back(rr);
        break;
      }
    }
  }
}

}  // namespace ptxcheck::race
