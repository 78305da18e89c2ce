// setmaxnreg (ISA 9.7.19.5) in the interpreter. It changes the warp's register allocation only, which the
// interpreter does not model; what is left are its rules. ".sync ... causes the executing thread to wait until all
// threads in the warp execute the same setmaxnreg instruction": the warp's rendezvous (machine.cpp). "The same
// setmaxnreg instruction must be executed by all warps in a warpgroup ... If a setmaxnreg instruction is not executed
// by all warps in the warpgroup, then the behavior is undefined": the k-th setmaxnreg of each warp of a warpgroup
// must be the same operation (.inc or .dec, and the count), checked as each warp executes it and when the CTA ends.
// The warps do not wait for each other ("all warps in the warpgroup must synchronize explicitly before executing
// subsequent setmaxnreg instructions" is the program's duty). "The same instruction" is read as the same operation,
// not the same place in the program: CUTLASS's warp-specialized kernels reach it from each warp's role at a call
// site of its own and run on the hardware (tests/cute/programs/cutlass3_grouped_gemm.cu).
#include "semantics/interp/machine.hpp"

#include <algorithm>
#include <string>

namespace ptx::interp {
namespace {
std::string describe(std::uint32_t op) {
  return std::string(op & kSetmaxnregInc ? "setmaxnreg.inc " : "setmaxnreg.dec ") + std::to_string(op & 0xffff);
}
}  // namespace

void Machine::record_setmaxnreg(Warp& w, const Instruction& ins) {
  const std::uint32_t op = static_cast<std::uint32_t>(ins.operands[0].imm) | (ins.q.has(ir::Flag::maxnreg_inc) ? kSetmaxnregInc : 0);
  w.setmaxnreg_ops.push_back(op);
  const std::size_t k = w.setmaxnreg_ops.size() - 1, index = static_cast<std::size_t>(&w - cta_->warps.data());
  for (auto [j, end] = cta_->warpgroup_of(index); j < end; ++j) {
    const auto& other = cta_->warps[j].setmaxnreg_ops;
    if (j == index || other.size() <= k || other[k] == op) continue;
    fail(Problem::Kind::illegal,
         "warps " + std::to_string(j) + " and " + std::to_string(index) + " of a warpgroup execute different setmaxnreg operations as their number " +
             std::to_string(k + 1) + " (" + describe(other[k]) + ", " + describe(op) +
             "): \"The same setmaxnreg instruction must be executed by all warps in a warpgroup\" (ISA 9.7.19.5)",
         {&cta_->threads[w.lanes[0]]});
    return;
  }
}

// When the CTA's last thread exits: every warp of a warpgroup has executed as many setmaxnreg operations.
void Machine::check_setmaxnreg_at_exit() {
  for (std::size_t first = 0; first < cta_->warps.size() && !stop_; first += 4) {
    for (std::size_t j = first + 1, end = cta_->warpgroup_of(first).second; j < end; ++j) {
      const std::size_t a = cta_->warps[first].setmaxnreg_ops.size(), b = cta_->warps[j].setmaxnreg_ops.size();
      if (a == b) continue;
      const std::size_t more = a > b ? first : j, fewer = a > b ? j : first;
      fail(Problem::Kind::illegal,
           "warp " + std::to_string(more) + " executed " + std::to_string(std::max(a, b)) + " setmaxnreg operations and warp " +
               std::to_string(fewer) + " of its warpgroup " + std::to_string(std::min(a, b)) +
               ": \"If a setmaxnreg instruction is not executed by all warps in the warpgroup, then the behavior is undefined\" (ISA 9.7.19.5)",
           {&cta_->threads[cta_->warps[more].lanes[0]]});
      return;
    }
  }
}

}  // namespace ptx::interp
