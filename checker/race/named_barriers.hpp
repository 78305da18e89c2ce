// Named barriers with producer/consumer roles (bar.arrive and bar.sync on one barrier, ISA 9.7.13.1) for the
// symbolic race check, in the form where their ordering is exact: every thread of the CTA passes exactly one
// operation on the barrier, and each operation's thread count is the CTA's.
//
// Why such a barrier orders an access x of thread T1 that precedes T1's operation on it with an access y of
// thread T2 (of the same CTA) that follows T2's operation when that operation waits (bar.sync): the barrier
// completes once, when every thread of the CTA has arrived; T1's operation, arrive or sync, synchronizes with T2's
// sync (8.9.4 item 2), so x precedes y in causality order (8.9.5: program order, synchronizes-with, program order).
// Nothing orders an access after an arrive (the arriving thread does not wait), nor one before a thread's operation
// with one after an arrive. Which operations release and which acquire is the memory model's answer
// (model_rules.hpp: barrier_arrive_releases, barrier_wait_acquires); a barrier with an operation the model says does
// not release is not taken. A barrier a thread could pass twice (in a loop, or two operations on one path) has
// phases this does not count; one not passed on some path to the kernel's end never completes for the others.
// Those, named barriers whose counts are not the CTA's, and bar.red mixed with bar.arrive (unpredictable, 9.7.13.1)
// stay possible orderings (check_ordering.cpp may_synchronize); the operations of the barriers taken are no longer such
// orderings. (Chains through several such barriers, each passed once by every thread, are taken to reduce to
// one of them; a chain the pairwise rule misses would give a definite race the execution may not have, never a
// missed one: the generated kernels of tests/unit/race/test_differential.cpp compare with the dynamic engine.)
#pragma once

#include "checker/race/cfg.hpp"
#include "checker/race/encode.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace ptxcheck::race {

struct SinglePhaseBarrier {
  std::uint64_t name = 0;
  std::vector<std::uint32_t> ops;  // its arrive and sync instructions
  std::vector<bool> before;        // instruction -> no operation of the barrier on any path to it
  std::vector<bool> after_wait;    // instruction -> on every path to it, the one operation passed was a waiting one
  // Per waiting operation (bar.sync), the instructions a thread that passed it reaches only after it: reachable from
  // it, and it not reachable from them (every path passes one operation, none in a loop). With the thread's path
  // condition of the operation, the path-sensitive form of after_wait where paths through arrives merge.
  std::vector<std::pair<std::uint32_t, std::vector<bool>>> after_sync;

  bool operates(std::uint32_t i) const { return std::find(ops.begin(), ops.end(), i) != ops.end(); }
};

struct NamedBarrierPhases {
  std::vector<SinglePhaseBarrier> barriers;
  std::vector<std::string> rejected;  // why a barrier used with bar.arrive is not one (for the report's notes)

  // Access x (instruction) of one thread precedes access y of another thread of its CTA in causality order
  // through one of the barriers.
  bool orders(std::uint32_t x, std::uint32_t y) const;
  // Instruction i is an operation on one of the barriers (whose ordering `orders` gives in full).
  bool models(std::uint32_t i) const;
};

// `block`, `x_only`: the launch shape, for the thread counts (barrier_forms.hpp LaunchValues).
NamedBarrierPhases find_single_phase_barriers(const ptx::ir::Function& f, const Cfg& g, const Shape& block, bool x_only);

}  // namespace ptxcheck::race
