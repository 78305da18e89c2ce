// Spin locks for the symbolic race check: the structure of a lock's critical sections, from which the memory
// model's questions start (check_lock_model.cpp, docs/race/locks.md).
//
// A lock site is an `atom.cas [L], unlocked, locked` (or `atom.exch [L], locked`) whose result is compared with
// `unlocked` by the branch that ends its block: on the edge taken when they are equal, the thread holds the lock.
// A site's release writes are strong writes of `unlocked` to L. An instruction is `held` by a site when on every
// path to it the thread took the lock, and on every path from it a release write comes before the end of the kernel.
//
// The lock discipline kept here is the chain argument's premise: every write that may reach L is one of the lock's
// RMWs or a holder's release, at a scope that includes every thread that may take the lock (.gpu or wider for a
// lock in global memory, .cta for one in shared memory or for a global lock whose every location only threads of
// one CTA take: per-CTA locks `locks[blockIdx.x]`, `cta_private`, which the caller checks with the solver). Then
// the writes to L are morally strong and totally ordered in coherence (8.10 Coherence, Atomicity) and each release
// is read by the next successful RMW. Whether the holders' fences and orders make one critical section precede the
// next (8.8 patterns, 8.9.4 item 4, 8.9.5), through any holder in between, is ptx-race.cat's answer, not a rule here.
// proofs/model.cpp checks the argument on litmus tests (model.lock_orders_critical_sections*).
#pragma once

#include "checker/race/encode.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ptxcheck::race {

struct LockSite {
  std::uint32_t rmw = 0;               // the atom.cas / atom.exch that takes the lock
  std::uint64_t unlocked = 0, locked = 0;
  int object = -1;                     // the lock's allocation (Encoding::objects)
  Space space = Space::unknown;
  bool cta_private = false;            // global, .cta scope: ordering only if no two CTAs take one location
  // The structure the memory model's questions are built on (lock_model.hpp): the branch after the RMW and where it
  // goes when the lock was taken, and the site's release writes (strong writes of `unlocked` to its address term).
  std::uint32_t branch = 0, acquired_next = 0;
  std::vector<std::uint32_t> releases;
};

struct CriticalSections {
  std::vector<LockSite> sites;            // the sites whose lock discipline holds
  // instruction -> the sites whose lock is held on every path to it and released (a release write ahead) on every
  // path from it, whatever the fences and scopes: the structure alone, which the model's answers complete.
  std::vector<std::vector<int>> held;
  struct Rejection {
    std::uint32_t instr = 0;  // the instruction that breaks the lock discipline
    std::string why;
  };
  std::vector<Rejection> rejected;  // one per lock allocation that does not qualify (for the report's notes)
};

// `t`: one thread's encoding (its address terms tell which writes address a site's lock in the same execution).
// `barrier_between(i, j)`: a CTA-wide barrier separates instructions i and j on every path (they share no barrier
// interval). A shared-memory lock may also be written (initialised, reset) by writes that a barrier separates from
// every lock operation: those are ordered with every thread's lock operations (8.9.4 item 2), as an initial value is.
CriticalSections find_critical_sections(const ptx::ir::Function& f, const Prepared& p, const ThreadEncoding& t,
                                        const std::function<bool(std::uint32_t, std::uint32_t)>& barrier_between);

// Site `s`'s lock RMW in thread t's encoding (nullptr when t has none), and its address.
const Access* lock_access(const ThreadEncoding& t, const LockSite& s);
std::optional<z3::expr> lock_address(const ThreadEncoding& t, const LockSite& s);

}  // namespace ptxcheck::race
