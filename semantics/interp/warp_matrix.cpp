// The warp-collective ldmatrix of the interpreter (ISA 9.7.14.5.15), run when every lane of the group has arrived
// (complete_warp_sync), with each lane's row address gathered in its sync_a. mma.sync is mma_sync.cpp.
#include "semantics/interp/machine.hpp"

#include <bit>

namespace ptx::interp {

void Machine::warp_ldmatrix(Warp& w, std::uint32_t group, const Instruction& ins) {
  auto lane_thread = [&](unsigned j) -> Thread& { return cta_->threads[w.lanes[j]]; };
  auto each = [&](auto&& body) {
    for (std::uint32_t m = group; m; m &= m - 1) body(lane_thread(static_cast<unsigned>(std::countr_zero(m))), static_cast<unsigned>(std::countr_zero(m)));
  };
  const auto& ops = ins.operands;
  // Matrix j (of .x1/.x2/.x4) has its 8 rows of 8 b16 at the addresses of lanes 8j..8j+7. Lane i receives
  // row i/4, columns 2(i%4) and 2(i%4)+1 (with .trans: rows 2(i%4), 2(i%4)+1 of column i/4), packed.
  unsigned count = 1;
  for (const auto& word : ins.q.words) {
    if (word == "x2") count = 2;
    if (word == "x4") count = 4;
  }
  const bool trans = ins.q.has_word("trans");
  StateSpace space = ins.q.space.value_or(StateSpace::generic);
  auto element = [&](Thread& reader, unsigned j, unsigned row, unsigned col) -> std::uint32_t {
    unsigned src = 8 * j + row;
    if (src >= w.lanes.size() || !((group >> src) & 1)) return 0;
    std::uint64_t addr = lane_thread(src).sync_a.u64() + 2 * col;
    if (opt_.observer) observe(reader, ins, MemoryAccess::Kind::read, space, addr, 2);
    std::uint8_t* p = locate(reader, space, addr, 2, false);
    return p ? static_cast<std::uint32_t>(p[0] | (p[1] << 8)) : 0;
  };
  each([&](Thread& t, unsigned lane) {
    if (stop_) return;
    std::vector<CV> regs;
    for (unsigned j = 0; j < count; ++j) {
      std::uint32_t lo, hi;
      if (!trans) {
        lo = element(t, j, lane / 4, 2 * (lane % 4));
        hi = element(t, j, lane / 4, 2 * (lane % 4) + 1);
      } else {
        lo = element(t, j, 2 * (lane % 4), lane / 4);
        hi = element(t, j, 2 * (lane % 4) + 1, lane / 4);
      }
      regs.push_back(domain::Concrete::lit(32, lo | (hi << 16)));
    }
    const Operand& dst = ops[0];
    if (dst.kind == Operand::Kind::Vector)
      for (std::size_t k = 0; k < dst.elements.size() && k < regs.size(); ++k) write(t, dst.elements[k], regs[k]);
    else
      write(t, dst, regs[0]);
  });
}

}  // namespace ptx::interp
