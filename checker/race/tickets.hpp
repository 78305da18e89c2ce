// The last-block ticket for the symbolic race check: which accesses a counter that every CTA increments once orders
// between two threads (CUDA's threadFenceReduction: `partial[blockIdx.x] = x; __threadfence(); ticket =
// atomicInc(&count, gridDim.x); if (ticket == gridDim.x - 1) { __threadfence(); ... read every partial ... }`).
//
// A ticket site is an integer `atom` T in no loop that returns the value it read, on a location of a pointer argument
// or a module `.global` variable. check_tickets.cpp accepts it when the solver shows that no two threads of one CTA run T on
// one location, that T writes its read value plus 1 while fewer than N - 1 increments (N: the grid's CTAs) came
// before it (counting from the location's initial content V0, which an --assume names), and that every other write
// which may reach the location is made by a thread after its own T read V0 + N - 1 (the last CTA's reset).
//
// Why the CTA whose T read V0 + N - 1 ("the last") comes after every other CTA's T on that location: T's runs are
// morally strong (8.6), so by Atomicity (8.10) each reads the value of the one before it in coherence order; before
// the first read of V0 + N - 1 no reset can have run, so each earlier write is an increment and exactly N - 1
// increments precede it, one per other CTA: all of them. Each of them precedes the last's read in observation order
// (8.9.2, through the chain of RMWs), so an access b before a CTA's release pattern (a release fence on every path
// to T, 8.8) precedes an access a after the last's acquire pattern (T then an acquire fence) in causality order
// (8.9.4 item 4, 8.9.5), and so does an access of another thread of the last CTA that a barrier (8.9.4 item 2) puts
// after the last's shared-memory broadcast of its verdict (the store after the acquire pattern), or that the
// broadcasting thread itself runs after its T and an acquire fence (its own verdict read back: the same run of T,
// check_tickets.cpp ties the two); the increments
// themselves precede whatever the last CTA runs after its T (8.9.5 item 2: observation order, then base causality
// order). proofs/model.cpp checks the litmus form (model.ticket_orders_last_block, model.ticket_needs_its_conditions;
// proofs/models/ptx-race.cat counts an atom's read and write events as the one operation that 8.7.1 speaks of).
#pragma once

#include "checker/race/encode.hpp"

#include <vector>

namespace ptxcheck::race {

struct TicketSite {
  std::uint32_t atom = 0;  // T
  int object = -1;         // the counter's buffer or variable (Prepared::objects)
};

// The candidate sites of a kernel, from one thread's encoding (its updates tell the atomics' read values).
std::vector<TicketSite> find_ticket_sites(const ptx::ir::Function& f, const Prepared& p, const ThreadEncoding& t);

// The instructions that run after the site's T whenever both run: those reachable from T (T is in no loop), one flag
// per instruction.
std::vector<bool> after_ticket(const Cfg& g, const TicketSite& site);
// Whether access `a` runs after a load that reads what broadcast store `store` stored (broadcast.hpp: a CTA barrier
// separates the two) whenever `a` runs: an unguarded such load dominates it.
bool after_broadcast(const ptx::ir::Function& f, const Prepared& p, std::uint32_t store, std::uint32_t a);

}  // namespace ptxcheck::race
