// Whether a cooperative-groups grid synchronisation (grid_sync.hpp) orders what a thread does before it before what
// a thread of another CTA does after it, asked of the memory model (issue 33, "ordering asked of the model"), as
// flags, tickets and locks are (flag_model.hpp): a litmus test built from the kernel's own instructions of the idiom
// is run by the litmus engine under proofs/models/ptx-race.cat (over memmodel/models/ptx.cat).
//
// The test: two CTAs of two threads each, thread 0 of each the adding thread (P0 and P2), thread 1 the others (P1,
// P3), every thread between the two `bar.cta.sync 0` of its CTA running its path of the kernel's region:
//   adder:  bar.cta.sync 0; the cells before the add; the kernel's atom on W, adding 0x80000000 - (CTAs - 1) = 0x7fffffff
//           in the first CTA and 1 in the other (cooperative_groups' sync_grids); the cells after the add (W's loads
//           as written, fences); bar.cta.sync 0
//   others: bar.cta.sync 0; their cells (a path that skips the add); bar.cta.sync 0
// plus b, a weak access of `data` before the first barrier in one thread, and a, a weak access of `data` after the
// second in a thread of the other CTA. The spin ended: after W's last load on the adder's path of a's CTA the test
// computes whether W's top bit differs from what the add returned (the idiom's exit test, which the recogniser takes
// as given), and the condition asks for executions where it does. A path's cells are path_cell's (fences and strong
// memory operations: in the region these are W's), each once per minimal shape: a spin that loops more reads W more
// often, and a path around a loop has a loop-free path's cells as a subsequence; fewer events give fewer orderings
// (flag_model.hpp's premise), so a race in a longer run is one in the shorter. The question is whether `weak-data-race`
// (8.7.1 data races with a weak access: b and a, the test's only weak accesses) can be non-empty.
//
// CTAs beyond two: the C++ takes two CTAs as standing for N. With N CTAs the top bit of W flips with the last add in
// W's coherence order and no earlier (the partial sums are 0x80000000 - (N-1) + k with k < N-1 ones, or k <= N-1
// ones alone: below 0x80000000 for N <= 2^31), so the read that ends a spin reads from the last add, and every other
// CTA's add precedes that one in coherence order as an atomic, whose chain of atomics (8.9.2, observation order item
// 4: rf; rmw) the model follows as it follows the two-CTA chain. What the two-CTA test asks (the chain from b's CTA's
// add to a's CTA's read) is then the N-CTA chain less the other CTAs' adds in the middle of it.
// (tests/unit/race/test_grid_sync_model.cpp checks the partial sums of grid_sync_addend for 2 to 12 CTAs, and asks
// three CTAs too: ordered, and racing with a relaxed add.)
#pragma once

#include "checker/race/flag_model.hpp"
#include "checker/race/grid_sync.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace ptxcheck::race {

// What CTA `cta` of `ctas` adds to W: the first 0x80000000 - (ctas - 1), every other 1 (cooperative_groups' sync_grids).
std::int64_t grid_sync_addend(int cta, int ctas);

struct GridQuestion {
  std::string add;  // the atom's cell on W: `{d}` its destination, `{v}` the value it adds
  int ctas = 2;     // CTAs of the test (two stand for N; a test may ask more)
  // Per CTA: the adding thread's cells between the first barrier and the add and between the add and the second
  // barrier (W's accesses on `W`, `{d}` a destination), and the other thread's cells between the barriers.
  std::vector<PathShape> before, after, other;
  bool second_barrier = true;  // false: the test leaves the second bar.cta.sync out (a unit test's altered idiom)
  int b_cta = 0, a_cta = 1;    // b's and a's CTAs (different)
  bool b_adds = true, a_adds = false;  // b (a) in its CTA's adding thread
  bool b_writes = true, a_writes = false;
};

// The litmus test (herd PTX dialect) whose consistent executions under ptx-race.cat with `weak-data-race` non-empty
// are those in which a's CTA's spin ended and b and a race.
std::string grid_litmus(const GridQuestion& q);

// The model's answer: true when b and a race in some execution, false when in none; nullopt when the test could not
// be answered (`why`).
std::optional<bool> grid_races(const GridQuestion& q, std::string& why);

// The model's answer for one grid sync of `f`: ordered when no question races (every minimal path shape of each
// thread, b and a in either CTA, each in the adding thread or not, each kind: write / read, read / write, write /
// write). `question`: the litmus text of a question that raced or was not answered (empty when ordered).
struct GridOrder {
  std::optional<bool> ordered;  // nullopt: some question could not be answered and none raced
  std::string why, question;
  std::size_t asked = 0;  // tests asked
};
GridOrder grid_sync_orders(const ptx::ir::Function& f, const Cfg& g, const GridSync& gs);

}  // namespace ptxcheck::race
