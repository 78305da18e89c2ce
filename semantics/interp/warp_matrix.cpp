// The warp-collective matrix instructions of the interpreter, run when every lane of the group has arrived
// (complete_warp_sync): ldmatrix (ISA 9.7.14.5.15) and mma.sync (9.7.14.5.14), with each lane's operands
// gathered in its sync_a / sync_b / sync_c.
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

void Machine::warp_mma(Warp& w, std::uint32_t group, const Instruction& ins) {
  auto lane_thread = [&](unsigned j) -> Thread& { return cta_->threads[w.lanes[j]]; };
  auto each = [&](auto&& body) {
    for (std::uint32_t m = group; m; m &= m - 1) body(lane_thread(static_cast<unsigned>(std::countr_zero(m))), static_cast<unsigned>(std::countr_zero(m)));
  };
  const auto& ops = ins.operands;
  // Fragment layouts of ISA 9.7.14.5.8 (m16n8k16, .f16/.bf16) and 9.7.14.5.10 (m16n8k32, .s8/.u8):
  // g = lane >> 2, t = lane % 4. D = A * B + C, 16x8 result, C/D element i at row g (+8 for i >= 2),
  // column 2t + (i & 1).
  const bool k32 = ins.q.has_word("m16n8k32");
  const ir::ScalarType at = ins.q.types[1].scalar;
  // .f16 C and D (m16n8k16 .f16.f16.f16.f16): two .f16x2 registers, element i in bits 16i..16i+15 of the pair.
  const bool f16_acc = ins.q.types[3].scalar == ir::ScalarType::f16;
  const unsigned K = k32 ? 32 : 16;
  double A[16][32] = {}, B[32][8] = {};
  std::int64_t Ai[16][32] = {}, Bi[32][8] = {};
  CV Cv[16][8];
  auto fp_elem = [&](domain::u128 bits, unsigned i) -> double {
    std::uint64_t h = static_cast<std::uint64_t>(bits >> (16 * i)) & 0xffff;
    return domain::fp_to_double(at == ir::ScalarType::bf16 ? domain::FpFormat::bf16 : domain::FpFormat::f16, h);
  };
  auto int_elem = [&](domain::u128 bits, unsigned i) -> std::int64_t {
    std::uint64_t b = static_cast<std::uint64_t>(bits >> (8 * i)) & 0xff;
    return at == ir::ScalarType::s8 ? static_cast<std::int8_t>(b) : static_cast<std::int64_t>(b);
  };
  each([&](Thread& t, unsigned lane) {
    unsigned g = lane >> 2, tg = lane & 3;
    if (!k32) {
      for (unsigned i = 0; i < 8; ++i) {
        unsigned row = (i < 2 || (i >= 4 && i < 6)) ? g : g + 8, col = tg * 2 + (i & 1) + (i >= 4 ? 8 : 0);
        A[row][col] = fp_elem(t.sync_a.v, i);
      }
      for (unsigned i = 0; i < 4; ++i) B[tg * 2 + (i & 1) + (i >= 2 ? 8 : 0)][g] = fp_elem(t.sync_b.v, i);
    } else {
      for (unsigned i = 0; i < 16; ++i) {
        unsigned row = (i < 4 || (i >= 8 && i < 12)) ? g : g + 8, col = tg * 4 + (i & 3) + (i >= 8 ? 16 : 0);
        Ai[row][col] = int_elem(t.sync_a.v, i);
      }
      for (unsigned i = 0; i < 8; ++i) Bi[tg * 4 + (i & 3) + (i >= 4 ? 16 : 0)][g] = int_elem(t.sync_b.v, i);
    }
    for (unsigned i = 0; i < 4; ++i)
      Cv[i < 2 ? g : g + 8][tg * 2 + (i & 1)] = f16_acc ? domain::Concrete::extract(t.sync_c, 16 * i + 15, 16 * i)
                                                        : domain::Concrete::extract(t.sync_c, 32 * i + 31, 32 * i);
  });
  each([&](Thread& t, unsigned lane) {
    unsigned g = lane >> 2, tg = lane & 3;
    std::vector<CV> out;
    for (unsigned i = 0; i < 4; ++i) {
      unsigned row = i < 2 ? g : g + 8, col = tg * 2 + (i & 1);
      if (k32) {
        std::int64_t acc = static_cast<std::int32_t>(static_cast<std::uint32_t>(Cv[row][col].v));
        for (unsigned k = 0; k < K; ++k) acc += Ai[row][k] * Bi[k][col];
        out.push_back(domain::Concrete::lit(32, static_cast<std::uint64_t>(acc)));
      } else {
        // Products of f16/bf16 are exact; the sum is formed in f64 and rounded once to f32 (the ISA leaves
        // the accumulation order and intermediate precision to the implementation).
        // With .f16 C/D the same sum is rounded once to f16 (round to nearest even), the interpreter's choice.
        const auto c_bits = static_cast<std::uint64_t>(Cv[row][col].v);
        double acc = f16_acc ? domain::fp_to_double(domain::FpFormat::f16, c_bits) : static_cast<double>(domain::bits_to_f32(static_cast<std::uint32_t>(c_bits)));
        for (unsigned k = 0; k < K; ++k) acc += A[row][k] * B[k][col];
        if (f16_acc) {
          out.push_back(domain::Concrete::f2f(domain::FpFormat::f64, domain::FpFormat::f16, domain::Rnd::rn, domain::Concrete::lit(64, domain::f64_to_bits(acc))));
          continue;
        }
        float r = static_cast<float>(acc);
        out.push_back(domain::Concrete::lit(32, r != r ? 0x7fffffffu : domain::f32_to_bits(r)));
      }
    }
    if (f16_acc)  // pack d0,d1 and d2,d3 into the two .f16x2 registers
      out = {domain::Concrete::lit(32, (out[0].v & 0xffff) | (out[1].v & 0xffff) << 16), domain::Concrete::lit(32, (out[2].v & 0xffff) | (out[3].v & 0xffff) << 16)};
    const Operand& dst = ops[0];
    for (std::size_t k = 0; k < dst.elements.size() && k < out.size(); ++k) write(t, dst.elements[k], out[k]);
  });
}

}  // namespace ptx::interp
