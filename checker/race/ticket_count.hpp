// The counting half of the last-block ticket (tickets.hpp) as terms: what check_tickets.cpp asks the solver of each
// run of T, and what it then assumes of the runs. A finite litmus environment cannot count N - 1 increments, so this
// is the part the memory model is not asked; the lemma proofs/race.cpp race.ticket_counts_last_block proves these
// same functions right on coherence-ordered chains of increments.
#pragma once

#include <z3++.h>

namespace ptxcheck::race {

// The increments before a run of T in coherence order: the value it read less the location's initial content, as
// 64 bits (a narrower counter's difference at its own width, zero-extended).
inline z3::expr ticket_increments_before(const z3::expr& read, const z3::expr& initial) {
  const unsigned bits = read.get_sort().bv_size();
  return bits == 64 ? read - initial : z3::zext(read - initial, 64 - bits);
}

// The run read the last count: N - 1 increments came before it (`ctas`: N, the grid's CTAs, 64 bits).
inline z3::expr ticket_reads_last(const z3::expr& read, const z3::expr& initial, const z3::expr& ctas) {
  return ticket_increments_before(read, initial) == ctas - 1;
}

// What the checker requires of every run: it writes the value it read plus 1 while fewer than N - 1 increments came
// before it (atomicAdd always; atomicInc(&count, N) below its wrap).
inline z3::expr ticket_adds_one(const z3::expr& read, const z3::expr& written, const z3::expr& initial, const z3::expr& ctas) {
  const z3::expr one = read.ctx().bv_val(1, read.get_sort().bv_size());
  return z3::implies(z3::ult(ticket_increments_before(read, initial), ctas - 1), written == read + one);
}

}  // namespace ptxcheck::race
