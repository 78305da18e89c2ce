// The texts of the race check's report notes (KernelResult::notes), one function per kind of note, so that what the
// report tells the user can be read and reviewed in one place. The search decides when a note applies and passes
// its places (`where_of(...).text()`, joined with ", "), counts and reasons; the words are all here. Golden files
// under tests/cli and tests/unit/race pin these texts byte for byte. (The dynamic engine's notes are in
// dynamic.cpp.)
#pragma once

#include <cstddef>
#include <string>

namespace ptxcheck::race::note {

// ---- what the check assumed or stopped on (check.cpp, check_report.cpp, check_encode.cpp, run.cpp)

// The memory model could not be asked which operations release and acquire (model_rules.hpp); also the dynamic
// engine's.
inline std::string model_unanswered(const std::string& problem) {
  return "the memory model could not be asked which operations release and acquire (" + problem +
         "): those it did not answer were taken as neither, which can only report races that are not (docs/race/model-rules.md)";
}

inline std::string stopped_early(const std::string& why) {
  return "the check stopped early (" + why + "): the findings above came first; other pairs were not searched";
}
inline std::string loops_abstracted(std::size_t loops) {
  return std::to_string(loops) + " loop(s) abstracted for every iteration count (induction variables as init + k*step, toggles and shifts by a "
         "constant in closed form, other loop-modified registers havocked after iteration 0): no bound";
}
inline std::string no_aliasing() {
  return "distinct pointer parameters (pointers in struct parameters too) and variables are assumed not to alias; addresses are naturally aligned (ISA 6.4.1)";
}
inline std::string claims() {
  return "claims: a location every write to which is an atomicCAS from one value E to another value is "
         "claimed once, so two threads' CASes on it do not both return E (ISA 8.10 Atomicity)";
}
inline std::string atomic_counters() {
  return "atomic counters (locations written only by atom/red.add of a non-negative amount, or, in shared memory, "
         "also by writes in barrier intervals none of the adds is in) are assumed not to wrap around, so two "
         "threads' adds to one counter take disjoint ranges";
}
inline std::string replay_stopped(const std::string& why) { return "the replay of the witnesses stopped: " + why; }
inline std::string assumed_for_every_index(const std::string& assumption) {
  return "assumed (--assume): " + assumption + " for every index; the verdict is for the launches that satisfy it";
}
inline std::string assumed(const std::string& assumption) {
  return "assumed (--assume): " + assumption + "; the verdict is for the launches that satisfy it";
}
inline std::string unlaunchable_shape(const std::string& why) { return "no GPU launches this shape (" + why + "): checked as given"; }
inline std::string compiled_away_inconclusive(const std::string& why) {
  return "race free as compiled (no memory access left); the source-faithful -Xcicc -O0 check was inconclusive: " + why;
}
inline std::string dynamic_engine_runs_unsupported() {
  return "the dynamic engine runs the unsupported instructions: `ptxcheck race FILE --launch LAUNCH.json` "
         "checks one launch of the kernel (docs/race/dynamic-engine.md)";
}

// ---- calls (inline.cpp)

inline std::string indirect_call_undefined(const std::string& at) {
  return "indirect call at " + at + ": no function of the module has its address taken with a matching prototype; a call through it is undefined (whole-program compilation assumed), so no execution continues past it";
}
inline std::string indirect_calls_resolved() {
  return "indirect calls go to a function whose address the module takes with a matching prototype (whole-program compilation assumed)";
}
inline std::string pure_externs(const std::string& names) {
  return "functions declared without a body (" + names + ") are assumed pure (--assume-pure-externs): each call returns fresh values, writes no memory and contains no barrier";
}

// ---- barriers (check_prepare.cpp, check_barriers.cpp, check_encode.cpp)

inline std::string full_count_barriers(const std::string& at) {
  return "barriers with the CTA's thread count taken as CTA barriers (every thread of the CTA takes part, ISA 9.7.13.1): " + at;
}
inline std::string cluster_barriers(const std::string& at) {
  return "cluster barriers (barrier.cluster.arrive then .wait) taken as CTA barriers; for threads of different CTAs of a cluster "
         "they are possible orderings (ISA 9.7.13.3): " + at;
}
inline std::string cluster_scope_of_one_cta(const std::string& at) {
  return ".cluster scope taken with clusters of one CTA, the default launch's (the kernel has no .reqnctapercluster; "
         "larger clusters have at most these races, ISA 8.5): " + at;
}
inline std::string mbarrier_as_cta_barrier(const std::string& arrive_at) {
  return "mbarrier taken as a CTA barrier: every thread arrives once per phase and waits for it "
         "(init count = threads of the CTA; ISA 9.7.13.15.16 item 1; assumed: a thread of each CTA runs the init), arrive at " + arrive_at;
}
inline std::string pipeline_followed(const std::string& where) {
  return "block-scope pipeline followed: the mbarrier arrays in " + where +
         "; an access before a thread's k-th arrive on \"full\" is ordered before accesses after the k-th wait on it, on "
         "\"empty\" before those after the (k+S)-th (ISA 9.7.13.15.16; docs/race/pipeline.md; assumed: a thread of each "
         "CTA runs the inits, fewer than 2^31 stages and 2^32 iterations of a loop)";
}
inline std::string split_arrive_wait(std::size_t accesses, const std::string& arrive_at) {
  return "split arrive/wait: the " + std::to_string(accesses) + " access(es) between the arrive at " + arrive_at +
         " and its wait are ordered with no access of that phase or the next (ISA 9.7.13.15.16 item 5)";
}
inline std::string mbarrier_not_cta_barrier(const std::string& why) {
  return "mbarrier not taken as a CTA barrier: " + why + "; its arrives and waits are taken as possible orderings";
}
inline std::string named_barrier_single_phase(int name, const std::string& at) {
  return "named barrier " + std::to_string(name) + " (every thread passes one operation on it, with the CTA's thread count): "
         "what a thread does before its operation precedes what a waiting thread does after its own (ISA 8.9.4 item 2), at " + at;
}
// Why a named barrier's operations are not taken as single-phase: the lanes of a warp may take different operations
// on it (`diverge`), or the solver could not show they take one; at the two operations.
inline std::string named_barrier_warp_divergence(int name, bool diverge, const std::string& x_at, const std::string& y_at) {
  return "named barrier " + std::to_string(name) + ": " +
         (diverge ? "lanes of one warp may take different operations on it (undefined for aligned ones, ISA 9.7.13.1), at "
                  : "the solver could not show that the lanes of a warp take one operation on it, at ") +
         x_at + " and " + y_at;
}
inline std::string named_barrier_rejected(const std::string& why) { return why + "; its operations are taken as possible orderings"; }
inline std::string grid_sync(const std::string& at) {
  return "cooperative-groups grid synchronisation at " + at +
         " taken as a barrier of the whole grid: the memory model orders it (proofs/models/ptx-race.cat, docs/race/grid-sync.md); "
         "taken as given: the driver's grid workspace counter (%envreg), written by nothing else, and a cooperative launch";
}
// A recognised grid synchronisation the model does not order (`answered`: it found a race; else it could not answer).
inline std::string grid_sync_not_ordered(const std::string& at, bool answered, const std::string& why) {
  return "cooperative-groups grid synchronisation at " + at + " not taken as an ordering: " +
         (answered ? "the memory model finds that it does not order accesses before it before those after it in another CTA ("
                   : "the memory model did not answer whether it orders (") +
         why + "; docs/race/grid-sync.md)";
}

// ---- values one per CTA (check_prepare.cpp)

inline std::string shared_broadcast(const std::string& store_at, const std::string& loads_at) {
  return "shared-memory broadcast: the store at " + store_at + " is the only write to its word and a barrier separates it from the loads at " +
         loads_at +
         ", which read one value per CTA (and iteration of the loops around the store): what the CTA's "
         "writing thread stored, or the content before (ISA 8.9.4 item 2, 8.10 Causality; a second writer "
         "or barrier divergence is reported on its own)";
}
inline std::string shared_read_only_in_interval(const std::string& loads_at) {
  return "shared memory read in barrier intervals where no thread writes it: the loads at " + loads_at +
         " read one value per CTA and barrier interval (ISA 8.9.4 item 2, 8.10 Causality)";
}

// ---- message passing through a flag (check_flags.cpp)

inline std::string flag_site(const std::string& write_at, const std::string& read_at) {
  return "the flag written at " + write_at + " and read at " + read_at;
}
inline std::string flag_orders(const std::string& site) {
  return "message passing through " + site + ": accesses before its one writer's release pattern are ordered "
         "before those after the acquire pattern of a reader that waited for the value written (ISA 8.8, "
         "8.9.4 item 4; neither the initial content nor another write can give the reader that value)";
}
inline std::string flag_unanswered(const std::string& site, const std::string& why) {
  return "message passing through " + site + ": the memory model did not answer whether it orders some accesses (" + why +
         "); those were taken as unordered, which can only report races that are not (docs/race/message-passing.md)";
}
inline std::string flag_needs_initial(const std::string& site, const std::string& assume_example) {
  return "message passing through " + site + " orders nothing: at launch the flag may already hold the value "
         "its reader waits for; state its initial content with --assume (for example '" + assume_example + "')";
}

// ---- spin locks (check_locks.cpp)

inline std::string lock_site(const std::string& rmw_at, bool cta_private) {
  return "spin lock taken at " + rmw_at + (cta_private ? " (.cta scope, each location taken by threads of one CTA)" : "");
}
inline std::string lock_orders(const std::string& site, std::size_t guarded) {
  return site + ": the " + std::to_string(guarded) + " accesses after its acquire pattern and before its "
         "release pattern are ordered with those of other holders (ISA 8.8, 8.9.4 item 4; every "
         "write that may reach the lock is a lock operation)";
}
inline std::string lock_unanswered(const std::string& site, const std::string& why) {
  return site + ": the memory model did not answer whether it orders some accesses (" + why +
         "); those were taken as unordered, which can only report races that are not (docs/race/locks.md)";
}
inline std::string lock_orders_nothing(const std::string& site) {
  return site + ": orders no access (none lies after an acquire pattern and before a release pattern "
         "of it on every path, ISA 8.8)";
}
// A .cta-scoped lock in global memory that threads of two CTAs may take (`shared`), or that the solver could not
// show is taken by one CTA's threads only.
inline std::string lock_shared_across_ctas(bool shared, const std::string& rmw_at) {
  return std::string(shared ? "threads of two CTAs may take one location of this .cta-scoped lock in global memory"
                            : "the solver could not show that only threads of one CTA take each location of this .cta-scoped lock") +
         " (" + rmw_at + ")";
}
inline std::string lock_rejection(const std::string& why, const std::string& at) { return why + " (" + at + ")"; }
inline std::string lock_not_taken(const std::string& why) { return "spin lock not taken as ordering its critical sections: " + why; }

// ---- last-block tickets (check_tickets.cpp)

inline std::string ticket_orders(const std::string& atom_at) {
  return "the last-block ticket at " + atom_at +
         ": accesses before a CTA's increment and its release pattern are ordered before those after the "
         "acquire pattern of the CTA whose increment read the last count, the grid's CTAs less one more than "
         "the counter's initial content (ISA 8.9.2 observation order through the atomics, 8.9.4 item 4)";
}
inline std::string ticket_orders_increments(const std::string& atom_at) {
  return "the last-block ticket at " + atom_at +
         ": the other CTAs' increments are ordered before what the CTA whose increment read the last count "
         "runs after it (ISA 8.9.2 observation order, then 8.9.5 base causality order)";
}
inline std::string ticket_needs_initial(const std::string& atom_at, const std::string& assume_example) {
  return "the last-block ticket at " + atom_at + " orders nothing: which CTA reads the "
         "last count depends on the counter's content at launch; state it with --assume (for example '" + assume_example + "')";
}
inline std::string ticket_rejected(const std::string& atom_at, const std::string& why) {
  return "the atomic at " + atom_at + " is no last-block ticket: " + why;
}
inline std::string ticket_unanswered(const std::string& atom_at, const std::string& why) {
  return "the last-block ticket at " + atom_at + ": the memory model did not answer whether it orders some accesses (" + why +
         "); those were taken as unordered, which can only report races that are not (docs/race/last-block-ticket.md)";
}
inline std::string ticket_missing_acquire(const std::string& atom_at) {
  return "the last-block ticket at " + atom_at + " does not order the last "
         "CTA's accesses after the other CTAs' writes: no acquire fence follows the atomic (before its verdict "
         "is stored for the CTA, or before the access), and a barrier is no fence (ISA 8.8, 8.9.4); a "
         "__threadfence() right after the atomic makes it an acquire pattern";
}

}  // namespace ptxcheck::race::note
