// The warp-collective ldmatrix, stmatrix and movmatrix of the interpreter (ISA 9.7.14.5.15-17), run when every lane
// of the group has arrived (complete_warp_sync), with each lane's row address gathered in its sync_a. mma.sync is
// mma_sync.cpp, wmma wmma.cpp.
#include "semantics/interp/machine.hpp"
#include "semantics/ir/matrix_rows.hpp"

#include <bit>

namespace ptx::interp {
namespace {
std::size_t operand_regs(const Operand& o) { return o.kind == Operand::Kind::Vector ? o.elements.size() : 1; }
const Operand& operand_reg(const Operand& o, std::size_t r) { return o.kind == Operand::Kind::Vector ? o.elements[r] : o; }
}  // namespace

// ldmatrix and stmatrix: the forms of ir::matrix_rows_form (9.7.14.5.15-16); movmatrix (9.7.14.5.17):
// .sync.aligned.m8n8.trans.b16 with one register each side.
bool warp_matrix_supported(const Instruction& ins) {
  if (ins.op != ir::Opcode::movmatrix_) return ir::matrix_rows_form(ins).has_value();
  for (const auto& w : ins.q.words)
    if (w != "sync" && w != "aligned" && w != "trans" && w != "m8n8" && w != "b16") return false;
  return ins.q.has_word("sync") && ins.q.has_word("trans") && ins.q.has_word("m8n8") && ins.q.has_word("b16") &&
         ins.operands.size() == 2 && operand_regs(ins.operands[1]) == 1;
}

void Machine::warp_ldmatrix(Warp& w, std::uint32_t group, const Instruction& ins) {
  auto lane_thread = [&](unsigned j) -> Thread& { return cta_->threads[w.lanes[j]]; };
  auto each = [&](auto&& body) {
    for (std::uint32_t m = group; m; m &= m - 1) body(lane_thread(static_cast<unsigned>(std::countr_zero(m))), static_cast<unsigned>(std::countr_zero(m)));
  };
  const auto& ops = ins.operands;
  // Matrix j (of .x1/.x2/.x4) has its 8 rows of 8 b16 at the addresses of lanes 8j..8j+7. Lane i receives
  // row i/4, columns 2(i%4) and 2(i%4)+1 (with .trans: rows 2(i%4), 2(i%4)+1 of column i/4), packed.
  const ir::MatrixRows form = *ir::matrix_rows_form(ins);  // (instruction_supported refused the others)
  const unsigned count = form.matrices;
  const bool trans = form.trans;
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

// stmatrix (9.7.14.5.16): matrix j's rows (.trans: columns) are at the addresses of lanes 8j..8j+7. Lane i holds
// row i/4 of each matrix: of an 8x8 .b16 matrix columns 2(i%4) and 2(i%4)+1 (Figure 107); of a 16x8 .b8 matrix
// columns 2(i%4) + e%2 of rows i/4 and i/4 + 8 in its bytes e = 0..3 (Figure 108, which .trans stores column-major).
void Machine::warp_stmatrix(Warp& w, std::uint32_t group, const Instruction& ins) {
  auto lane_thread = [&](unsigned j) -> Thread& { return cta_->threads[w.lanes[j]]; };
  const ir::MatrixRows form = *ir::matrix_rows_form(ins);  // (instruction_supported refused the others)
  const unsigned count = form.matrices;
  const bool trans = form.trans, b8 = form.b8;
  const StateSpace space = ins.q.space.value_or(StateSpace::generic);
  const unsigned eb = b8 ? 1 : 2;
  // Element (row, col) of matrix j: at line row (.trans: col) of the matrix, element col (.trans: row) of it.
  auto put = [&](Thread& writer, unsigned j, unsigned row, unsigned col, std::uint32_t v) {
    const unsigned line = trans ? col : row, at = trans ? row : col, src = 8 * j + line;
    if (src >= w.lanes.size() || !((group >> src) & 1)) return;
    const std::uint64_t addr = lane_thread(src).sync_a.u64() + eb * at;
    if (opt_.observer) observe(writer, ins, MemoryAccess::Kind::write, space, addr, eb);
    if (std::uint8_t* p = locate(writer, space, addr, eb, true)) {
      p[0] = static_cast<std::uint8_t>(v);
      if (eb == 2) p[1] = static_cast<std::uint8_t>(v >> 8);
    }
  };
  for (std::uint32_t m = group; m && !stop_; m &= m - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
    Thread& t = lane_thread(lane);
    for (unsigned j = 0; j < count && !stop_; ++j) {
      const auto v = static_cast<std::uint32_t>(read(t, operand_reg(ins.operands[1], j), 32).v);
      if (b8)
        for (unsigned e = 0; e < 4; ++e) put(t, j, lane / 4 + 8 * (e / 2), 2 * (lane % 4) + e % 2, v >> (8 * e));
      else
        for (unsigned e = 0; e < 2; ++e) put(t, j, lane / 4, 2 * (lane % 4) + e, v >> (16 * e));
    }
  }
}

// movmatrix.trans (9.7.14.5.17): lane i holds elements (i/4, 2(i%4)) and (i/4, 2(i%4)+1) of the row-major 8x8
// source A (Figure 109, low half first as in ldmatrix); the result is laid out the same way for the transpose
// (Figure 110: lane i holds column i/4 of A, i.e. row i/4 of A^T), so lane i receives A[2(i%4)+e][i/4], e = 0, 1,
// which lane 4 (2(i%4)+e) + (i/4)/2 holds in its half (i/4) % 2.
void Machine::warp_movmatrix(Warp& w, std::uint32_t group, const Instruction& ins) {
  auto lane_thread = [&](unsigned j) -> Thread& { return cta_->threads[w.lanes[j]]; };
  std::uint32_t a[32] = {};
  for (std::uint32_t m = group; m; m &= m - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
    a[lane] = static_cast<std::uint32_t>(read(lane_thread(lane), ins.operands[1], 32).v);
  }
  for (std::uint32_t m = group; m; m &= m - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
    std::uint32_t d = 0;
    for (unsigned e = 0; e < 2; ++e) {
      const unsigned r = 2 * (lane % 4) + e, c = lane / 4;
      d |= ((a[4 * r + c / 2] >> (16 * (c % 2))) & 0xffffu) << (16 * e);
    }
    write(lane_thread(lane), ins.operands[0], domain::Concrete::lit(32, d));
  }
}

}  // namespace ptx::interp
