// mbarrier objects used as CTA barriers (ISA 9.7.13.15), the pattern of cuda::barrier's arrive_and_wait: an
// object initialised once with the CTA's thread count, on which every thread arrives once per phase (an unguarded
// mbarrier.arrive, count 1, release, in code no thread-dependent branch leads to) and then, before any memory
// access, waits until a test_wait / try_wait on the state that arrive returned comes back True. Every phase then
// holds exactly one arrive-on of each thread, the k-th of each, and item 1 of 9.7.13.15.16 orders what every
// thread did before its k-th arrive before what any thread does after its k-th wait: the order bar.sync gives
// (8.9.4 item 2). Such an arrive is rewritten to `bar.sync 0`, and the waits after it to .relaxed ones (which order
// nothing: the barrier has that job), so every analysis of the engine sees a CTA barrier there. A
// cp.async.mbarrier.arrive (cuda::memcpy_async with the barrier) that the thread follows with its arrive, no memory
// access between, becomes `cp.async.wait_all`: its copies complete before that phase does (9.7.13.15.15).
// Two arrays of mbarriers in one variable that a block-scope cuda::pipeline uses (pipeline.hpp) are followed when
// their protocol holds on every run of a thread: then their arrives count in two added registers and their waits
// are .relaxed, and the pair check orders accesses by those counts (check_search.cpp).
// Split arrive/wait (`auto t = bar.arrive(); ...; bar.wait(std::move(t));`), outside loops: the accesses a thread
// makes between its arrive and its wait are ordered with nothing of that phase or the next (item 5 of
// 9.7.13.15.16), so they are also placed in the barrier interval that ends at the arrive (`split`).
#pragma once

#include "checker/race/encode.hpp"

#include <array>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ptxcheck::race {

struct MbarrierRewrite {
  std::vector<std::string> barriers;  // per object rewritten: where, for the report's notes
  std::vector<std::string> rejected;  // per object not rewritten: why (its operations stay possible orderings)
  // The mbarrier.init of each object rewritten: the rewrite also needs that one thread per CTA runs it (a second
  // init of an initialised object is undefined, 9.7.13.15.9), which the pair check asks the solver.
  std::vector<std::uint32_t> inits;
  // Per arrive with memory accesses before its wait: the arrive and those accesses.
  std::vector<std::pair<std::uint32_t, std::vector<std::uint32_t>>> split;
  // A block-scope pipeline's arrays taken as ordering (pipeline.hpp): its stage count and what the exploration
  // bounds; its arrives are rewritten to count in the registers pipeline_counter_name names.
  struct Pipeline {
    std::int64_t stages = 0;
    std::map<std::uint32_t, std::array<std::int64_t, 4>> wait_bounds;
    std::string where;  // for the notes
  };
  std::optional<Pipeline> pipeline;
};

// Rewrites f in place as described above (instruction indices and control flow unchanged). `block`: the launch's
// CTA shape when fixed; `x_only`: a symbolic shape has y = z = 1. `where(i)` names instruction i for the notes.
// Objects are named by address as mbarrier_address.hpp follows them; the objects of a variable some operation
// uses as an array (a slot by index) are not taken, with the reason (docs/race/mbarrier.md says what remains).
MbarrierRewrite rewrite_mbarrier_barriers(const ptx::ir::Module& m, ptx::ir::Function& f, const Shape& block, bool x_only,
                                          const std::function<std::string(std::uint32_t)>& where);

}  // namespace ptxcheck::race
