// The pair search of a kernel's pair check (kernel_check.hpp): every pair of the two threads' accesses, in two passes,
// and the queries of one pair, from the orderings that rule it out to the refinements of its witness.
#include "checker/race/kernel_check.hpp"

namespace ptxcheck::race {
using ptx::ir::Opcode;

KernelCheck::PairQuery::PairQuery(const Access& a, const Access& b, const std::vector<Position>& pa, const std::vector<Position>& pb,
                                   Where wa, Where wb, RaceKey key, z3::context& c)
    : a(a), b(b), pa(pa), pb(pb), a_sh(a.space == Space::shared), b_sh(b.space == Space::shared), wa(std::move(wa)),
      wb(std::move(wb)), key(std::move(key)), q(c), concurrent(c), within_loops(c), facts(c) {}

void KernelCheck::search_pairs() {
  quick = o.query.fraction(20);
  two_passes = !(quick == o.query);
  const std::size_t n = T1.accesses.size();
  // Two passes: every pair first with a short solver budget, so that the easy answers (most races, most
  // proofs) come before the per-kernel time goes on hard pairs; then the pairs left unknown with the full budget.
  std::vector<std::pair<std::size_t, std::size_t>> hard;
  set_budget(quick);
  for (std::size_t i = 0; i < n && !stop; ++i)
    for (std::size_t j = i; j < n && !stop; ++j) {
      PairResult r = check_pair(i, j, !two_passes);
      if (r == PairResult::unknown && two_passes) hard.emplace_back(i, j);
      stop = r == PairResult::stop;
    }
  set_budget(o.query);
  for (std::size_t h = 0; h < hard.size() && !stop; ++h) stop = check_pair(hard[h].first, hard[h].second, true) == PairResult::stop;
}

// One pair of accesses, T1's i-th and T2's j-th; `final_pass`: an unknown answer is recorded as a reason.
KernelCheck::PairResult KernelCheck::check_pair(std::size_t i, std::size_t j, bool final_pass) {
  const Access& a = T1.accesses[i];
  const Access& b = T2.accesses[j];
  if (never_conflict(a, b)) return PairResult::done;
  if (grid_workspace.count(a.instr) || grid_workspace.count(b.instr)) return PairResult::done;  // the driver's memory
  const std::vector<Position> &pa = positions_of[i], &pb = positions_of[j];
  if (an_grid && !any_same_interval(*an_grid, pa, pb)) return PairResult::done;  // ordered by a grid synchronisation
  if (always_morally_strong(a, b)) return PairResult::done;
  Where wa = where_of(m, f.body[a.instr]), wb = where_of(m, f.body[b.instr]);
  // One report per pair of source locations (not one per thread pair).
  const RaceKey key = race_key(wa, wb);
  if (reported.count(key)) return PairResult::done;
  if (res.races.size() >= o.max_races) return PairResult::stop;
  if (res.queries >= o.max_queries) { budget = true; return PairResult::stop; }
  if (over_budget()) { timed_out = true; return PairResult::stop; }
  PairQuery p(a, b, pa, pb, wa, wb, key, c);
  if (!build_pair_query(p)) return PairResult::done;
  if (auto r = ask_pair(p, final_pass)) return *r;
  if (auto r = settle_loads_and_ballots(p, final_pass)) return *r;
  settle_atomics_between(p);
  if (auto r = settle_first_iteration(p, final_pass)) return *r;
  reported.insert(p.key);
  choose_witness(p);
  res.races.push_back(explain_race(p));
  return res.races.size() >= o.max_races ? PairResult::stop : PairResult::done;
}

// The pair's query: both run and overlap, with what orders them ruled out; false when an ordering rules out the pair.
bool KernelCheck::build_pair_query(PairQuery& p) {
  const Access &a = p.a, &b = p.b;
  const std::vector<Position> &pa = p.pa, &pb = p.pb;
  const bool a_sh = p.a_sh, b_sh = p.b_sh;
  std::optional<z3::expr>& plain_switch = p.plain_switch;
  z3::expr &q = p.q, &concurrent = p.concurrent, &within_loops = p.within_loops;
  q = both_overlap(a, b, &plain_switch) && counter_facts(a, b) && claim_facts(a, b);
  if (a_sh || b_sh) q = q && same_cta;
  // A named barrier every thread passes once orders the two within a CTA (named_barriers.hpp). A cp.async's copy
  // may land after its issue, so only one issued after the waiting operation is ordered by it.
  if ((!a.async && phases.orders(a.instr, b.instr)) || (!b.async && phases.orders(b.instr, a.instr))) {
    if (a_sh || b_sh) return false;
    q = q && !same_cta;
  } else if (!phases.barriers.empty()) {
    // Path-sensitively: x before every operation on the barrier, and the other thread past a bar.sync on it.
    auto waited_before = [&](const ThreadEncoding& t, const SinglePhaseBarrier& barrier, std::uint32_t y) {
      z3::expr passed = c.bool_val(false);
      for (const auto& [op, later] : barrier.after_sync)
        if (later[y])
          for (const Barrier& at : t.barriers)
            if (at.instr == op) passed = passed || at.pc;
      return passed;
    };
    z3::expr ordered = c.bool_val(false);
    for (const SinglePhaseBarrier& barrier : phases.barriers) {
      if (!a.async && barrier.before[a.instr]) ordered = ordered || waited_before(T2, barrier, b.instr);
      if (!b.async && barrier.before[b.instr]) ordered = ordered || waited_before(T1, barrier, a.instr);
    }
    if (!ordered.simplify().is_false()) q = q && !(same_cta && ordered);
  }
  // Within one CTA the two run concurrently only in a barrier interval both may be in, in iterations of the
  // barrier loops around them that the barriers keep together.
  // A span's path to a position outside a barrier loop the other access is in (or inside one it is not in) is
  // followed without branch conditions: it may be one that skips or leaves that loop, which the other thread,
  // past the same barriers, does not take. Races that need such a position are possible ones (`across_loop`),
  // unless the position left the loop with no barrier since, in a known iteration (then aligned like one in it).
  auto across_barrier_loop = [&](const AsyncPosition& x, bool x_async, const AsyncPosition& y, bool y_async) {
    auto aligned_outside = [&](const AsyncPosition& p, bool async, int L) {
      auto known = [&](const std::map<int, int>& m) { auto it = m.find(L); return it != m.end() && it->second != AsyncPosition::any_iteration; };
      return async && p.left_from.count(L) && (known(p.later) || known(p.entered));
    };
    for (std::size_t L = 0; L < prep.cfg.loops.size(); ++L) {
      if (!an.aligned[L] || in_body(L, x.instr) == in_body(L, y.instr)) continue;
      const auto& [outside, outside_async] = in_body(L, x.instr) ? std::pair{&y, y_async} : std::pair{&x, x_async};
      if (!aligned_outside(*outside, outside_async, static_cast<int>(L))) return true;
    }
    return false;
  };
  concurrent = c.bool_val(false);
  within_loops = c.bool_val(false);
  for (const Position& x : pa)
    for (const Position& y : pb) {
      if (!same_cta_interval(x, y)) continue;
      const z3::expr together = iterations_together(x, a.async, y, b.async);
      concurrent = concurrent || together;
      if (!((a.async || b.async) && across_barrier_loop(x.at, a.async, y.at, b.async))) within_loops = within_loops || together;
    }
  if (concurrent.is_false()) {
    if (a_sh || b_sh) return false;
    q = q && !same_cta;
  } else {
    q = q && z3::implies(same_cta, concurrent.simplify());
  }
  // A block-scope pipeline's phases order them within a CTA (check_pipeline.cpp).
  if (mbarriers.pipeline) q = q && !(same_cta && (pipeline_orders(a, b) || pipeline_orders(b, a)));
  // A full-mask bar.warp.sync between them orders two threads of one warp; a partial one, two in its mask.
  if (!any_same_interval(an_warp, pa, pb)) q = q && !same_warp;
  else if (!any_same_interval(an_subwarp, pa, pb)) q = q && !(same_warp && mutual_warp_sync);
  // The same, path-sensitively: barriers on one arm of a branch all threads take alike (check_barrier_counts.cpp).
  if (const z3::expr counted = ordered_by_barrier_counts(a, b); !counted.is_false()) q = q && !counted;
  // One wmma.load/store of a warp is one collective operation: its lanes access disjoint elements.
  if (a.collective && a.instr == b.instr) q = q && !(same_warp && same_iterations(prep.cfg.block_of[a.instr]));
  // Two critical sections of one spin lock are ordered, one after the other (locks.hpp: held and released on every
  // path), when the model orders each before the other in every place a taker may be in (check_lock_model.cpp).
  // (A cp.async's copy may happen after the release.)
  for (int la : a.async ? std::vector<int>{} : locks.held[a.instr])
    for (int lb : b.async ? std::vector<int>{} : locks.held[b.instr]) {
      const auto ia = static_cast<std::size_t>(la), ib = static_cast<std::size_t>(lb);
      const LockSite &sa = locks.sites[ia], &sb = locks.sites[ib];
      const auto &addr_a = lock_address1[ia], &addr_b = lock_address2[ib];
      if (sa.object != sb.object || !addr_a || !addr_b) continue;
      if (!lock_orders(ia, a, ib, b) || !lock_orders(ib, b, ia, a)) continue;
      // A shared-memory lock is one per CTA, and so is each location of a per-CTA one.
      q = q && !(*addr_a == *addr_b && (sa.space == Space::shared || sa.cta_private ? same_cta : c.bool_val(true)));
    }
  if (!a.async && !b.async)
    for (std::size_t k = 0; k < flag_sites.size(); ++k) q = q && !flag_orders(k, a, T1, b, T2) && !flag_orders(k, b, T2, a, T1);
  if (!a.async && !b.async)
    for (std::size_t k = 0; k < ticket_sites.size(); ++k) q = q && !ticket_orders(k, a, T1, b, T2) && !ticket_orders(k, b, T2, a, T1);
  if (a.strong && b.strong) {
    // ISA 8.6 morally strong: both strong, each scope includes the other thread, complete overlap.
    z3::expr ms = includes(a.scope) && includes(b.scope) && a.addr == b.addr && c.bool_val(a.size == b.size);
    q = q && !ms;
  }
  return true;
}

// Asks the pair's query (the abstraction first where there is one); a model within the barrier loops and across
// warps where there is one. A result when the pair is settled.
std::optional<KernelCheck::PairResult> KernelCheck::ask_pair(PairQuery& p, bool final_pass) {
  const Access &a = p.a, &b = p.b;
  const Where &wa = p.wa, &wb = p.wb;
  z3::expr& q = p.q;
  std::optional<z3::model>& model = p.model;
  const std::optional<z3::expr>& plain_switch = p.plain_switch;
  const z3::expr &concurrent = p.concurrent, &within_loops = p.within_loops;
  bool &across_loop = p.across_loop, &lane_unspecified = p.lane_unspecified;
  if (plain_switch) {
    // First without the plain overlap (its products are multiplier circuits): the factored one often refutes the
    // pair alone, and a query without a constraint has every model the one with it has.
    auto [abstract, unused, why0] = check(q);
    if (abstract == z3::unsat) return PairResult::done;
    // The query with the products is harder still: with a short budget the full one is asked first.
    if (abstract == z3::unknown && !final_pass) return PairResult::unknown;
    q = q && *plain_switch;
  }
  z3::check_result r;
  std::string why;
  std::tie(r, model, why) = check(q);
  if (r == z3::unknown) {
    if (final_pass) res.unknown_reasons.push_back("solver: " + why + " (accesses at " + wa.text() + " and " + wb.text() + ")");
    return PairResult::unknown;
  }
  if (r != z3::sat) return PairResult::done;
  // The copy in flight only across a barrier loop's edge (across_barrier_loop): unless the pair also races within.
  if (!concurrent.is_false() && !model->eval(z3::implies(same_cta, within_loops), true).is_true()) {
    const z3::expr q_within = q && z3::implies(same_cta, within_loops);
    auto [r4, within, why4] = check(q_within);
    if (r4 == z3::sat) { q = q_within; model = within; }
    else across_loop = true;
  }
  // A wmma matrix element is accessed by some lane of the warp, which one is unspecified (ISA 9.7.14.4.1): a pair
  // of two warps is a race of some lanes of theirs, a pair within one warp may be one thread's two accesses.
  if ((a.collective || b.collective) && model->eval(same_warp, true).is_true()) {
    auto [r5, across_warps, why5] = check(q && !same_warp);
    if (r5 == z3::sat) { q = q && !same_warp; model = across_warps; }
    else lane_unspecified = true;
  }
  return std::nullopt;
}

// The facts the pair's model may break, asked only then: read consistency and the ballots' lane bits. A result
// when they settle the pair.
std::optional<KernelCheck::PairResult> KernelCheck::settle_loads_and_ballots(PairQuery& p, bool final_pass) {
  const Access &a = p.a, &b = p.b;
  z3::expr& q = p.q;
  std::optional<z3::model>& model = p.model;
  z3::expr& facts = p.facts;
  bool &loads_unsettled = p.loads_unsettled, &ballots_unsettled = p.ballots_unsettled;
  // Read consistency is asked only of a pair the query without it admits, and whose model breaks it (it makes
  // most queries slower): when it rules the pair out, no race; when the solver cannot tell even with the full
  // budget, a possible race (leaving the facts out over-approximates: the race may need a thread to read two
  // values from one location where it cannot).
  std::vector<unsigned> pair_constants;  // those the accesses' addresses and conditions are built from
  for (const z3::expr& e : {a.addr, a.pc, b.addr, b.pc}) for (unsigned id : constants_of(e)) pair_constants.push_back(id);
  facts = load_facts(pair_constants).simplify();
  if (!facts.is_true() && !model->eval(facts, true).is_true()) {  // a model that keeps them needs no second query
    auto [r2, with_facts, why2] = check(q && facts);
    if (r2 == z3::unsat) return PairResult::done;
    if (r2 == z3::sat) { q = q && facts; model = with_facts; }
    else if (!final_pass) return PairResult::unknown;  // asked again with the full budget
    else loads_unsettled = true;
  }
  // Every lane's bit of the ballots (encode.hpp lane_facts), asked only of a pair whose model breaks them, with the
  // pass's budget. When the solver cannot tell even with the full budget, the race may need ballot values no
  // execution gives: a possible race.
  if (!lane_bits.is_true() && !model->eval(lane_bits, true).is_true()) {
    auto [r7, with_bits, why7] = check(q && lane_bits);
    if (r7 == z3::unsat) return PairResult::done;
    if (r7 == z3::sat) { q = q && lane_bits; model = with_bits; }
    else if (!final_pass) return PairResult::unknown;  // asked again with the full budget
    else ballots_unsettled = true;
  }
  return std::nullopt;
}

// Whether the race needs other threads' atomics between the two threads' own (ISA 8.10 Atomicity).
void KernelCheck::settle_atomics_between(PairQuery& p) {
  const Access &a = p.a, &b = p.b;
  z3::expr& q = p.q;
  std::optional<z3::model>& model = p.model;
  bool& needs_atomics_between = p.needs_atomics_between;
  // Two threads' atomics on one location may each return any value (memory content), but not both the content
  // before either: in its coherence order one comes after the other (ISA 8.10 Atomicity). A race that needs the
  // values they returned is certain when it holds with one of them reading what an atomic of the other thread
  // wrote (adjacent in that order); one that needs other threads' atomics between them, which the engine does not
  // count, is a possible one.
  {
    // A thread's atomics: its own, or those of the thread whose values it was forwarded (a broadcast's writer, a
    // shuffle's source lane: functions of the forwarding instance, so every term of the pair counts as used),
    // which is not the other checked thread only when the two are in different CTAs. An atomic reads from the
    // other side's atomics of the kind the other side's used one is (own or forwarded: the two lists may name one
    // operation twice).
    std::unordered_set<unsigned> used;
    std::vector<z3::expr> todo{a.addr, a.pc, b.addr, b.pc};
    while (!todo.empty()) {
      const z3::expr x = todo.back();
      todo.pop_back();
      if (!x.is_app() || !used.insert(x.id()).second) continue;
      for (unsigned k = 0; k < x.num_args(); ++k) todo.push_back(x.arg(k));
    }
    auto reads_from = [&](const AtomicUpdate& u, const std::vector<AtomicUpdate>& writers) {
      z3::expr any = c.bool_val(false);
      for (const AtomicUpdate& v : writers)
        if (v.ret.get_sort().bv_size() == u.ret.get_sort().bv_size()) any = any || (v.pc && v.addr == u.addr && u.ret == v.written);
      return any;
    };
    z3::expr adjacent = c.bool_val(true);
    for (bool forwarded1 : {false, true})
      for (bool forwarded2 : {false, true}) {
        const auto& of1 = forwarded1 ? T1.writer_updates : T1.updates;
        const auto& of2 = forwarded2 ? T2.writer_updates : T2.updates;
        const z3::expr distinct = forwarded1 || forwarded2 ? !same_cta : c.bool_val(true);
        for (const AtomicUpdate& u1 : of1)
          for (const AtomicUpdate& u2 : of2)
            if (used.count(u1.ret.id()) && used.count(u2.ret.id()))
              adjacent = adjacent && z3::implies(distinct && u1.pc && u2.pc && u1.addr == u2.addr, reads_from(u2, of1) || reads_from(u1, of2));
      }
    if (!adjacent.is_true() && !model->eval(adjacent, true).is_true()) {
      const QueryBudget pass = current;
      set_budget(quick);
      auto [r6, with_adjacent, why6] = check(q && adjacent);
      set_budget(pass);
      if (r6 == z3::sat) { q = q && adjacent; model = with_adjacent; }
      else needs_atomics_between = true;
    }
  }
}

// Whether orderings the engine does not model may order the pair, unless it races in the first iteration of its loops.
std::optional<KernelCheck::PairResult> KernelCheck::settle_first_iteration(PairQuery& p, bool final_pass) {
  const Access &a = p.a, &b = p.b;
  z3::expr& q = p.q;
  std::optional<z3::model>& model = p.model;
  std::set<std::string>& unmodelled = p.unmodelled;
  bool &possible = p.possible, &in_first_iteration = p.in_first_iteration;
  // Values the encoding does not model that the pair's addresses or conditions depend on: the race may need values
  // no execution produces.
  unmodelled = unmodelled_values(a, b);
  // An ordering that only a later iteration can bring: the pair races in the first.
  possible = may_be_ordered(a, b, false);
  in_first_iteration = false;
  if (possible && unmodelled.empty() && !may_be_ordered(a, b, true) && !over_budget()) {
    const z3::expr first = first_iterations(a, b);
    auto [r3, in_first, why3] = check(q && first);
    if (r3 == z3::sat) {
      q = q && first;
      model = in_first;
      possible = false;
      in_first_iteration = true;
    } else if (r3 == z3::unknown && !final_pass) {
      return PairResult::unknown;  // asked again with the full budget
    }
  }
  return std::nullopt;
}

}  // namespace ptxcheck::race
