// A block-scope cuda::pipeline's two mbarrier arrays ("full" and "empty", one slot per stage) as orderings the
// race checker can use (docs/race/pipeline.md). Every thread of the CTA arrives on full[s] once per stage it
// produces (after cp.async.mbarrier.arrive, ISA 9.7.13.15.15) and on empty[s] once per stage it consumes; it waits
// on full[s] before reading a stage and on empty[s] before refilling its slot. check_pipeline_protocol follows
// every run of one thread and checks that the k-th arrive on an array uses slot k mod S, that the k-th wait that
// returns True uses slot k mod S with the parity of the phase that holds the k-th arrives ("full") or the arrives S
// stages earlier ("empty", whose first S waits pass at once), and the interlocks between the two arrays. Then, by
// induction over the phases (docs/race/pipeline.md), phase n of full[s] holds exactly every thread's arrive number
// nS + s on "full", and the same for "empty"; with ISA 9.7.13.15.16 (arrive releases, a wait that returns True
// acquires, each over the whole phase) an access before a thread's a-th arrive on "full" happens before an access
// after another thread's w-th wait on "full" when a <= w, and on "empty" when a + S <= w.
#pragma once

#include "checker/race/cfg.hpp"
#include "semantics/ir/ir.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ptxcheck::race {

// The registers the rewrite adds to count a thread's arrives on each array (mbarrier.hpp rewrites each arrive to
// `add.u32 counter, counter, 1`); the encoder starts them at 0.
bool is_pipeline_counter(const ptx::ir::Register& r);
std::string pipeline_counter_name(bool full);

// One mbarrier operation on a slot of the arrays.
struct PipelineOp {
  std::uint32_t instr = 0;
  int array = 0;  // 0 or 1: which array (by its slot 0's offset)
  ptx::ir::MbarrierOp op = ptx::ir::MbarrierOp::none;
};

// Two arrays of mbarrier objects in one shared variable: slot s of array a at offset[a] + stride * s.
struct PipelineArrays {
  ptx::ir::VarRef var;
  std::int64_t stride = 0;
  std::array<std::int64_t, 2> offset{};
  std::uint64_t slots = 0;       // S
  std::vector<PipelineOp> ops;   // every arrive, wait and cp.async.mbarrier.arrive on a slot
};

// What the exploration found.
struct PipelineProtocol {
  int full = 0;  // which array is "full" (its waits wait for the same stage's arrives); the other is "empty"
  // Per instruction some run reaches: the least value, over those runs, of W_full - A_full, W_full - A_empty,
  // W_empty - A_full and W_empty - A_empty there (W: the thread's waits on the array that returned True before
  // it, A: its arrives on the array before it).
  std::map<std::uint32_t, std::array<std::int64_t, 4>> wait_bounds;
};

// Checks the protocol above on every run of one thread: the registers that address the slots and give the waits'
// parity are computed (concretely, through semantics/ops), the wait results are both True and False, every other
// branch goes both ways; counts are kept modulo 2S with their differences. nullopt, with `why`, when a run breaks
// the protocol or the registers are not computed from constants alone. `where(i)` names instruction i.
std::optional<PipelineProtocol> check_pipeline_protocol(const ptx::ir::Function& f, const Cfg& g, const PipelineArrays& arrays,
                                                        const std::function<std::string(std::uint32_t)>& where, std::string& why);

}  // namespace ptxcheck::race
