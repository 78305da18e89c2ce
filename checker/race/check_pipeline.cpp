// The order a block-scope pipeline's phases give two accesses, in a kernel's pair check (kernel_check.hpp).
#include "checker/race/kernel_check.hpp"
#include "checker/race/pipeline_order.hpp"

namespace ptxcheck::race {

// x happens before y through the pipeline (pipeline_order.hpp). The waits before y are bounded below by the counts
// of y's own arrives (the exploration's least differences at y), so each disjunct is a real order.
z3::expr KernelCheck::pipeline_orders(const Access& x, const Access& y) {
  if (!mbarriers.pipeline || x.pipeline_arrives.size() != 2 || y.pipeline_arrives.size() != 2) return c.bool_val(false);
  const auto bounds = mbarriers.pipeline->wait_bounds.find(y.instr);
  if (bounds == mbarriers.pipeline->wait_bounds.end()) return c.bool_val(false);
  auto wide = [&](const z3::expr& count) { return z3::zext(count, 32); };
  return pipeline_ordered(wide(x.pipeline_arrives[0]), wide(x.pipeline_arrives[1]), x.async, wide(y.pipeline_arrives[0]),
                          wide(y.pipeline_arrives[1]), bounds->second, mbarriers.pipeline->stages);
}

}  // namespace ptxcheck::race
