// Spin locks for the symbolic race check: the critical sections a lock protects, and when two of them are ordered.
//
// A lock site is an `atom.cas [L], unlocked, locked` (or `atom.exch [L], locked`) whose result is compared with
// `unlocked` by the branch that ends its block: on the edge taken when they are equal, the thread holds the lock.
// An access is protected by a site when on every path to it the thread took the lock and then passed an acquire
// pattern (ISA 8.8: the strong read of the RMW followed by an acquire fence, or an .acquire RMW), and on every path
// from it passes a release pattern (a release fence followed by a strong write of `unlocked` to L, or a .release
// write) before the end of the kernel.
//
// Why two protected accesses of distinct threads on one lock are ordered: when every write that may reach L is
// one of the lock's RMWs or a holder's release, the writes to L are morally strong and totally ordered in
// coherence (8.10 Coherence, Atomicity), each release is read by the next successful RMW, and the release pattern
// of one holder synchronizes with the acquire pattern of the next (8.9.4 item 4), so the earlier critical section
// precedes the later one in base causality order (8.9.5, transitive through any holders in between). The scopes
// must include every thread that may take the lock: .gpu or wider for a lock in global memory, .cta for one in
// shared memory (a third thread of another CTA holding a .cta-scoped global lock would break the chain), or .cta
// for a global lock whose every location only threads of one CTA take (per-CTA locks `locks[blockIdx.x]`:
// `cta_private`, which the caller checks with the solver).
// proofs/model.cpp checks this on litmus tests (model.lock_orders_critical_sections*).
//
// Which critical sections are ordered is decided by the memory model (check_lock_model.cpp, issue 33): this file
// gives the structure its questions start from (`held`: held and released on every path, the sites' RMW, taken
// edge and release writes). `guarded`, the acquire and release patterns at the required scope written here as a
// dataflow, is the former C++ rule, kept only as the reference the model is compared with (docs/race/locks.md).
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
  std::vector<std::vector<int>> guarded;  // instruction -> the sites (indices into `sites`) that protect it
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
