// Last-block tickets in a kernel's pair check (kernel_check.hpp, tickets.hpp): the sites the solver accepts, whether a
// consumer's run of the ticket read the last count, the orderings they give a pair, and the notes.
#include "checker/race/kernel_check.hpp"
#include "checker/race/notes.hpp"
#include "checker/race/ticket_count.hpp"
#include "semantics/ops/memory_access.hpp"

namespace ptxcheck::race {

namespace {
// The broadcast a ticket's result reaches a thread through is a store (ops::memory_access).
bool via_store(const ptx::ir::Instruction& in) {
  const auto m = ptx::ops::memory_access(in);
  return m && m->kind == ptx::ops::AccessKind::store;
}
}  // namespace

void KernelCheck::find_tickets() {
  // ---- the last-block ticket (tickets.hpp): the sites the solver accepts, and per consumer access whether, when it
  // runs, the T of its thread, or of the thread that broadcast its result to the CTA, read the last count V0 + N - 1.
  grid_ctas = z3::zext(launch.nctaid[0], 32) * z3::zext(launch.nctaid[1], 32) * z3::zext(launch.nctaid[2], 32);
  for (const TicketSite& site : find_ticket_sites(f, prep, T1)) {
    if (!update_of(T2, site.atom) || !access_of(T2, site.atom) || !ticket_useful(site, *access_of(T1, site.atom))) continue;
    const QueryBudget before = current;
    set_budget(o.query);
    const AtomicUpdate &u1 = *update_of(T1, site.atom), &u2 = *update_of(T2, site.atom);
    const Access& counter = *access_of(T1, site.atom);
    const std::vector<bool> after = after_ticket(prep.cfg, site);
    const auto runs1 = ticket_updates(T1, site.atom), runs2 = ticket_updates(T2, site.atom);
    std::string why;
    bool initial_unknown = false;
    const z3::expr adds_one = z3::implies(u1.pc, ticket_adds_one(u1.ret, u1.written, counter_initial(u1), grid_ctas));
    if (std::get<0>(check(u1.pc && u2.pc && same_cta && u1.addr == u2.addr)) != z3::unsat) {
      why = "two threads of one CTA may run it on one location";
    } else if (std::get<0>(check(!adds_one)) != z3::unsat) {
      // (atomicInc(&count, gridDim.x) wraps to 0 above gridDim.x: from an unknown initial content it may.)
      if (std::get<0>(check(!adds_one && counter_initial(u1) == 0)) == z3::unsat) initial_unknown = true;
      else why = "it does not always add 1 before the last count";
    }
    // Every other write to the counter: the last CTA's reset, after a run of T that read the last count (the thread's
    // own before it, or its CTA's broadcasting thread's, before a barrier before it: causality order, then
    // coherence order, 8.10).
    for (const auto& [t, runs] : {std::pair{&T2, &runs2}, std::pair{&T1, &runs1}})
      for (const Access& x : t->accesses) {
        if (!why.empty()) break;
        if (!x.write || x.instr == site.atom || never_conflict(x, counter)) continue;
        const z3::expr reaches = x.pc && accesses_overlap(x.addr, c.bv_val(x.size, 64), counter.addr, c.bv_val(counter.size, 64));
        z3::expr reset = c.bool_val(false);
        for (const AtomicUpdate* u : *runs)
          if (u->via ? after_broadcast(f, prep, *u->via, x.instr) : after[x.instr]) reset = reset || read_last(*u);
        if (std::get<0>(check(reaches && !reset)) != z3::unsat) why = "another write may reach the counter (" + where_of(m, f.body[x.instr]).text() + ")";
      }
    set_budget(before);
    if (!why.empty()) {
      ticket_rejected.push_back(note::ticket_rejected(where_of(m, f.body[site.atom]).text(), why));
    } else if (initial_unknown) {
      ticket_initial_unknown.push_back(site);
    } else {
      ticket_sites.push_back(site);
      ticket_runs.push_back({runs1, runs2, after});
      // Atomicity (8.10) over morally strong increments, each CTA's one: the runs on one location read distinct counts
      // below N (tickets.hpp); a forwarded run is of the forwarding thread's CTA.
      const z3::expr strong = includes(counter.scope);
      for (const AtomicUpdate* x : runs1)
        for (const AtomicUpdate* y : runs2) {
          const z3::expr distinct = x->via || y->via ? !same_cta : c.bool_val(true);
          s.add(z3::implies(distinct && x->pc && y->pc && x->addr == y->addr && strong, increments_before(*x) != increments_before(*y)));
        }
      for (const auto* runs : {&runs1, &runs2})
        for (const AtomicUpdate* u : *runs) s.add(z3::implies(u->pc && strong, z3::ult(increments_before(*u), grid_ctas)));
      // A run forwarded by the thread itself is its own run (T runs once).
      for (const auto& [t, runs] : {std::pair{&T1, &runs1}, std::pair{&T2, &runs2}}) {
        const AtomicUpdate& own = *update_of(*t, site.atom);
        for (const AtomicUpdate* w : *runs)
          if (w->via && w->forwarder_tid.size() == 3) s.add(z3::implies(all_eq(w->forwarder_tid, t->tid), w->ret == own.ret && w->pc == own.pc));
      }
    }
  }
  ticket_used.assign(ticket_sites.size(), false);
  ticket_needs_initial.assign(ticket_sites.size(), false);
  ticket_missing_acquire.assign(ticket_sites.size(), false);
  ticket_orders_increments.assign(ticket_sites.size(), false);
}

z3::expr KernelCheck::counter_initial(const AtomicUpdate& u) {
  return initial_memory(c, prep.objects[static_cast<std::size_t>(u.object)].name, u.ret.get_sort().bv_size() / 8, offset_in(u.object, u.addr));
}

// The increments before u in coherence order, and whether it read the last count (ticket_count.hpp).
z3::expr KernelCheck::increments_before(const AtomicUpdate& u) { return ticket_increments_before(u.ret, counter_initial(u)); }

z3::expr KernelCheck::read_last(const AtomicUpdate& u) { return u.pc && ticket_reads_last(u.ret, counter_initial(u), grid_ctas); }

// A thread's runs of T: its own, and those of the threads whose values reach it through a shared-memory broadcast
// (a store that a CTA barrier separates from the load, so the writer's acquire pattern is ordered before it).
std::vector<const AtomicUpdate*> KernelCheck::ticket_updates(const ThreadEncoding& t, std::uint32_t atom) {
  std::vector<const AtomicUpdate*> out;
  for (const auto* list : {&t.updates, &t.writer_updates})
    for (const AtomicUpdate& u : *list)
      if (u.instr == atom && (!u.via || via_store(f.body[*u.via]))) out.push_back(&u);
  return out;
}

bool KernelCheck::ticket_read(std::size_t k, std::uint32_t consumer, const AtomicUpdate& u) {
  const auto key = std::make_tuple(k, consumer, u.via);
  if (auto it = ticket_reads.find(key); it != ticket_reads.end()) return it->second;
  const QueryBudget before = current;
  set_budget(o.query);
  const z3::expr runs = access_of(T1, consumer)->pc && u.pc;
  const bool last = std::get<0>(check(runs && !read_last(u))) == z3::unsat;
  // Whether the initial content decides it: then an --assume settles it.
  if (!last && std::get<0>(check(runs && !read_last(u) && counter_initial(u) == 0)) == z3::unsat) ticket_needs_initial[k] = true;
  set_budget(before);
  return ticket_reads.emplace(key, last).first->second;
}

// When access pb (of encoding P) comes before P's increment at site k, or is the increment, and access ca (of C)
// after a run of T that read the last count (C's own, then ca after it; or its CTA's broadcasting thread's, then the
// broadcast store after it, and ca after a load of what that store stored, which a CTA barrier separates from it),
// and the memory model orders pb before ca (or before the broadcast store) when that run read P's increment
// (check_ticket_model.cpp): the executions in which both ran T on one location, in the places the model orders them.
z3::expr KernelCheck::ticket_orders(std::size_t k, const Access& ca, const ThreadEncoding& C, const Access& pb, const ThreadEncoding& P) {
  const TicketSite& site = ticket_sites[k];
  const bool increment = pb.instr == site.atom;
  const TicketRuns& runs = ticket_runs[k];
  const std::vector<const AtomicUpdate*>& runs1 = runs.runs1;
  const std::vector<const AtomicUpdate*>& runsC = &C == &T1 ? runs.runs1 : runs.runs2;
  const AtomicUpdate& up = *update_of(P, site.atom);
  const std::array<z3::expr, 3> place = {same_cta, same_cluster && !same_cta, !same_cluster};
  z3::expr ordered = c.bool_val(false);
  for (const AtomicUpdate* run : runsC) {
    const AtomicUpdate& uc = *run;
    const std::uint32_t after = uc.via ? *uc.via : ca.instr;  // what the model is asked to order after pb
    if (!(uc.via ? after_broadcast(f, prep, *uc.via, ca.instr) : runs.after[ca.instr])) continue;
    const auto& model = model_ticket_orders(site.atom, pb, after, ca.write);
    z3::expr places = c.bool_val(false);
    bool any = false;
    for (std::size_t n = 0; n < place.size(); ++n)
      if (model[n] == true) places = places || place[n], any = true;
    // Not ordered: when a __threadfence() right after T would order it (the model says), the note suggests one.
    if (!any && (increment || !ticket_model_orders_somewhere(site.atom, pb, after, ca.write, true))) continue;
    // (T1's run forwarded by the same instruction: the question is asked of T1.)
    const auto same = std::find_if(runs1.begin(), runs1.end(), [&](const AtomicUpdate* u) { return u->via == uc.via; });
    if (same == runs1.end() || !ticket_read(k, ca.instr, **same)) continue;
    if (!any) {  // the last CTA learnt it is last, but nothing orders pb before what it does after
      ticket_missing_acquire[k] = true;
      continue;
    }
    (increment ? ticket_orders_increments : ticket_used)[k] = true;
    // (T's scope including the other thread: the chain of morally strong atomics, Atomicity 8.10, tickets.hpp.)
    ordered = ordered || (up.pc && uc.pc && up.addr == uc.addr && includes(access_of(P, site.atom)->scope) && places);
  }
  return ordered;
}

void KernelCheck::note_tickets() {
  for (std::size_t k = 0; k < ticket_sites.size(); ++k) {
    if (ticket_used[k])
      res.notes.push_back(note::ticket_orders(where_of(m, f.body[ticket_sites[k].atom]).text()));
    else if (ticket_orders_increments[k])
      res.notes.push_back(note::ticket_orders_increments(where_of(m, f.body[ticket_sites[k].atom]).text()));
    else if (ticket_needs_initial[k])
      ticket_initial_unknown.push_back(ticket_sites[k]);
  }
  for (const TicketSite& site : ticket_initial_unknown)
    res.notes.push_back(note::ticket_needs_initial(where_of(m, f.body[site.atom]).text(), assume_example(site.object, "0")));
  for (const TicketSite& site : ticket_sites)
    if (auto it = ticket_unanswered.find(site.atom); it != ticket_unanswered.end())
      res.notes.push_back(note::ticket_unanswered(where_of(m, f.body[site.atom]).text(), it->second));
  // (Why a candidate orders nothing matters only where a race is possible.)
  if (std::any_of(res.races.begin(), res.races.end(), [](const RaceReport& r) { return r.possible; })) {
    for (const std::string& why : ticket_rejected) res.notes.push_back(why);
    for (std::size_t k = 0; k < ticket_sites.size(); ++k)
      if (ticket_missing_acquire[k])
        res.notes.push_back(note::ticket_missing_acquire(where_of(m, f.body[ticket_sites[k].atom]).text()));
  }
}

}  // namespace ptxcheck::race
