// The order a block-scope pipeline's phases give two accesses, in a kernel's pair check (kernel_check.hpp).
#include "checker/race/kernel_check.hpp"

namespace ptxcheck::race {

// x happens before y through the pipeline (pipeline.hpp, docs/race/pipeline.md): x's thread arrives on "full"
// after x (an async copy x completes within that arrive's phase, 9.7.13.15.15) in a phase y's thread waited for
// before y, directly or through the phase of "empty" S stages on; or, for x in program order, the same through
// "empty" (x is before the thread's arrive on it, and every thread's arrive on "full" for the stage S on comes
// after its wait on that phase of "empty"). The waits before y are bounded below by the counts of y's own arrives
// (the exploration's least differences at y), so each disjunct is a real order.
z3::expr KernelCheck::pipeline_orders(const Access& x, const Access& y) {
  if (!mbarriers.pipeline || x.pipeline_arrives.size() != 2 || y.pipeline_arrives.size() != 2) return c.bool_val(false);
  const auto bounds = mbarriers.pipeline->wait_bounds.find(y.instr);
  if (bounds == mbarriers.pipeline->wait_bounds.end()) return c.bool_val(false);
  const auto& least = bounds->second;
  auto wide = [&](const z3::expr& count) { return z3::zext(count, 32); };
  auto number = [&](std::int64_t k) { return c.bv_val(static_cast<std::uint64_t>(k), 64); };
  const z3::expr xf = wide(x.pipeline_arrives[0]), xe = wide(x.pipeline_arrives[1]);
  const z3::expr yf = wide(y.pipeline_arrives[0]), ye = wide(y.pipeline_arrives[1]);
  const z3::expr stages = number(mbarriers.pipeline->stages);
  // "arrives < W" for a lower bound of W: y's thread has passed wait number `arrives + 1`.
  auto waited_full = [&](const z3::expr& arrives) { return z3::slt(arrives, yf + number(least[0])) || z3::slt(arrives, ye + number(least[1])); };
  auto waited_empty = [&](const z3::expr& arrives) { return z3::slt(arrives, yf + number(least[2])) || z3::slt(arrives, ye + number(least[3])); };
  z3::expr ordered = waited_full(xf) || waited_empty(xf + stages);
  if (!x.async) ordered = ordered || waited_empty(xe + stages) || waited_full(xe + stages);
  return ordered;
}

}  // namespace ptxcheck::race
