// Barrier forms the symbolic engine reads as CTA barriers (cfg.hpp cta_barrier: bar.sync without a thread count).
// - Thread counts that are the CTA's: `bar.sync 1, 256` in a CTA of 256 threads (ISA 9.7.13.1: "If no thread count
//   is specified, all threads in the CTA participate in the barrier"; with the count equal to the CTA's thread
//   count every thread of the CTA takes part too, and the barrier orders as bar.sync without one, 8.9.4 item 2).
//   Such counts come from named barriers (`__barrier_sync_count`, CUTLASS's NamedBarrier, inline asm) and from
//   the mbarrier.init of cuda::barrier (mbarrier.hpp).
// - The cluster barrier of cooperative groups' `this_cluster().sync()`: `barrier.cluster.arrive` (release) directly
//   followed by `barrier.cluster.wait` (acquire), 9.7.13.3: the wait returns once every non-exited thread of the
//   cluster has arrived, and what each did before its arrive is visible after it; with nothing but register
//   operations between the two, that is a CTA barrier for the threads of one CTA. The wait stays a possible
//   ordering for threads of different CTAs of one cluster (check_ordering.cpp may_synchronize).
#pragma once

#include "checker/race/encode.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ptxcheck::race {

// The value of 32-bit operands as terms over %ntid, when they are computed from constants and %ntid by mov, mul.lo,
// shl and add through registers written once.
class LaunchValues {
 public:
  // `block`: the launch's CTA shape when fixed; `x_only`: a symbolic shape has y = z = 1.
  LaunchValues(const ptx::ir::Function& f, const Shape& block, bool x_only);
  // Whether `o` holds %ntid.x * %ntid.y * %ntid.z for every launch shape the check allows.
  bool is_cta_thread_count(const ptx::ir::Operand& o) const;
  // o's value when it is the same for every launch shape.
  std::optional<std::uint64_t> constant(const ptx::ir::Operand& o) const;

 private:
  std::optional<z3::expr> value_of(z3::context& c, const ptx::ir::Operand& o, const std::vector<z3::expr>& ntid, int depth) const;
  const ptx::ir::Function& f_;
  const Shape block_;
  const bool x_only_;
  std::vector<std::vector<std::uint32_t>> defs_;  // register -> the instructions writing it
};

// `bar.sync 0` at instruction `at`'s place and source position.
ptx::ir::Instruction cta_barrier_at(const ptx::ir::Instruction& at);

// Rewrites each barrier.cluster.arrive that every thread of the CTA runs (unguarded, in code no thread-dependent
// branch leads to, not .relaxed) and that is followed by barrier.cluster.wait with only register operations (no
// branch) between, to `bar.sync 0`, when every barrier.cluster instruction of f is such an arrive or its wait.
// Returns where, for the report's notes.
std::vector<std::string> rewrite_cluster_barriers(ptx::ir::Function& f, const std::function<std::string(std::uint32_t)>& where);

// Drops the thread count of every CTA barrier (bar/barrier .sync or .red) whose count is the CTA's for every
// launch shape, when no instruction that may use the same barrier name has another count or arrives without
// waiting (bar.arrive: producer/consumer roles, where the waiting threads do not wait for the arriving ones to
// reach a barrier). Returns where, for the report's notes. Instruction indices and control flow are unchanged.
std::vector<std::string> rewrite_full_count_barriers(ptx::ir::Function& f, const Shape& block, bool x_only,
                                                     const std::function<std::string(std::uint32_t)>& where);

}  // namespace ptxcheck::race
