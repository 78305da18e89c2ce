// tcgen05.shift (ISA 9.7.16.9.3) in the interpreter: the 32-byte elements of rows taddr.lane .. taddr.lane + 30 move
// down one row, in the Tensor Memory of the CTA (and of its peer with .cta_group::2). Completes, as tcgen05.mma
// does, at the next scheduling point (tcgen05.cpp); docs/tcgen05.md.
#include "semantics/interp/machine.hpp"

namespace ptx::interp {

// "shifting of 32-byte elements downwards across all the rows, except the last, by one row" of the matrix at taddr,
// whose lane "must be aligned to 32"; its shape is .31x256b (9.7.16.2.3: 31 lanes of 256 bits): the rows of lanes
// L .. L + 30 (L = taddr's lane) go to L + 1 .. L + 31, 8 cells from taddr's column; lane L keeps its cells (the
// text moves rows, it clears none).
void Machine::tcgen05_shift(Thread& t, const Instruction& ins) {
  const std::string name = ir::opcode_text(ins);
  auto illegal = [&](const std::string& why) { fail(Problem::Kind::illegal, name + ": " + why, {&t}); };
  const std::vector<Cta*> part = tcgen05_ctas(t, ins);
  if (part.empty()) return;
  tcgen05_apply_results();  // 9.7.16.6.2: mma -> shift on the same .cta_group is pipelined, in order
  const std::uint64_t taddr = address(t, ins.operands[0]);
  const auto lane0 = static_cast<std::uint32_t>(taddr >> 16), column0 = static_cast<std::uint32_t>(taddr & 0xffff);
  constexpr std::uint32_t kCells = 8, kRows = 31;  // 256 bits of 32-bit cells; .31x256b
  if (lane0 % 32 != 0 || lane0 + kRows >= kTmemLanes)
    return illegal("the lane of taddr (" + std::to_string(lane0) + ") is not aligned to 32 (ISA 9.7.16.9.3)");
  const std::uint64_t op = opt_.observer ? next_async_op_++ : 0;
  if (opt_.observer) opt_.observer->async_op_issue(op, {thread_ref(t)}, Observer::AsyncGroup::tcgen05, ins);
  for (Cta* c : part) {
    if (!c->tmem_allocated(column0, kCells))
      return illegal("columns " + std::to_string(column0) + "-" + std::to_string(column0 + kCells - 1) +
                     " are not allocated Tensor Memory in CTA rank " + std::to_string(c->rank) + " (ISA 9.7.16.7.1)");
    if (c->tmem.empty()) c->tmem.assign(kTmemLanes * kTmemColumns, 0);
    for (std::uint32_t r = 0; r < kRows; ++r) {
      if (opt_.observer) {
        observe_tmem(op, t.top->fn, ins, MemoryAccess::Kind::read, lane0 + r, column0, kCells, *c);
        observe_tmem(op, t.top->fn, ins, MemoryAccess::Kind::write, lane0 + r + 1, column0, kCells, *c);
      }
      std::uint32_t* from = c->tmem.data() + (lane0 + r) * kTmemColumns + column0;
      for (std::uint32_t k = 0; k < kCells; ++k) tcgen05_results_.push_back({from + kTmemColumns + k, from[k]});
    }
  }
}

}  // namespace ptx::interp
