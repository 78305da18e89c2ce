// The warp-level wmma instructions (ISA 9.7.14.4) in the interpreter: which forms run (wmma_supported), and
// wmma.load / wmma.store / wmma.mma once every lane of the warp has arrived (Machine::warp_wmma). The spec leaves
// the distribution of matrix elements over the lanes unspecified (9.7.14.4.1); the one chosen here (wmma_pos)
// and the reasons for it are in docs/tensor-cores.md.
#include "semantics/interp/machine.hpp"
#include "semantics/interp/matrix_operand.hpp"
#include "semantics/ir/wmma_form.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <optional>

namespace ptx::interp {
namespace {
using ST = ir::ScalarType;
using ir::WmmaForm;
using ir::wmma_form;
constexpr ST kB1 = ir::kWmmaB1;
using Dims = ir::WmmaDims;
Dims dims(const WmmaForm& f, char x) { return ir::wmma_dims(f, x); }
unsigned type_bits(ST t) { return ir::wmma_element_bits(t); }

// Elements of matrix x of type t per lane (9.7.14.4.1's fragment tables): the matrix spread over 32 lanes, but
// an .f16 A or B fragment is always eight .f16x2 registers (16 elements), twice or four times as many.
unsigned frag_elems(const WmmaForm& f, char x, ST t) {
  const ir::WmmaDims d = ir::wmma_dims(f, x);
  return (x == 'a' || x == 'b') && t == ST::f16 ? 16 : d.rows * d.cols / 32;
}
// Registers of that fragment: one .f64 an element, else packed in 32-bit registers.
unsigned frag_regs(const WmmaForm& f, char x, ST t) {
  const unsigned e = frag_elems(f, x, t), b = ir::wmma_element_bits(t);
  return b == 64 ? e : e * b / 32;
}

// The element (row, col) of matrix x that element i of lane l's fragment holds: the mma.sync fragments of
// 9.7.14.5 tiled over the matrix (docs/tensor-cores.md). With g = l >> 2, t = l % 4 and p elements per 32 bits:
//   A, in tiles of min(M,16) rows: row g (+ 8 ((i / p) % 2) in 16-row tiles), column p t + i % p + 4p (i / 2p)
//       (16 rows) or p t + i % p + 4p (i / p) (8 rows)  -- 9.7.14.5.2-11's A (e.g. m16n8k16 .f16, m8n8k32 .s4)
//   B, in tiles of 8 columns: row p t + i % p + 4p (i / p), column g  -- their B
//   C, D, in tiles of min(M,16) x 8 (row-major): row g + 8 (i / 2), column 2t + i % 2  -- their C/D
// An .f16 A or B fragment holds the matrix twice or four times: element i is element i mod (rows x cols / 32).
struct Pos {
  unsigned row, col;
};
Pos wmma_pos(const WmmaForm& f, char x, ST t, unsigned l, unsigned i) {
  const Dims d = dims(f, x);
  const unsigned g = l >> 2, tg = l % 4, base = d.rows * d.cols / 32, bits = type_bits(t), p = bits >= 32 ? 1 : 32 / bits;
  i %= base;
  if (x == 'a') {
    const unsigned h = std::min(d.rows, 16u), per = h * d.cols / 32, tile = i / per, j = i % per;
    if (h == 16) return {tile * 16 + g + 8 * ((j / p) % 2), p * tg + j % p + 4 * p * (j / (2 * p))};
    return {g, p * tg + j % p + 4 * p * (j / p)};
  }
  if (x == 'b') {
    const unsigned per = d.rows * 8 / 32, tile = i / per, j = i % per;
    return {p * tg + j % p + 4 * p * (j / p), tile * 8 + g};
  }
  const unsigned h = std::min(d.rows, 16u), per = h * 8 / 32, tile = i / per, j = i % per, across = d.cols / 8;
  return {(tile / across) * h + g + 8 * (j / 2), (tile % across) * 8 + 2 * tg + j % 2};
}

// wmma.load / wmma.store (9.7.14.4.2-4): element (r, c) of a .row matrix is at p + (r stride + c) elements, of a
// .col matrix at p + (c stride + r); the default stride is the leading dimension's length. Each lane reads the
// elements of its fragment (an .f16 A or B element by each lane holding a copy) or writes those of its D.
void wmma_memory(Machine& m, Warp& w, std::uint32_t group, const Instruction& ins, const WmmaForm& f) {
  const bool load = f.op == WmmaForm::Op::load;
  const char x = f.matrix;
  const Dims d = dims(f, x);
  const unsigned bits = type_bits(f.type), elems = frag_elems(f, x, f.type), lead = f.row ? d.cols : d.rows;
  const StateSpace space = ins.q.space.value_or(StateSpace::generic);
  auto lane_thread = [&](unsigned j) -> Thread& { return m.cta_->threads[w.lanes[j]]; };
  Thread& first = lane_thread(static_cast<unsigned>(std::countr_zero(group)));
  const std::uint64_t p = first.sync_a.u64();
  const std::uint64_t stride = ins.operands.size() > 2 ? first.sync_b.u64() & 0xffffffffu : lead;
  const std::string name = load ? "wmma.load" : "wmma.store";
  // "undefined if all threads do not use the same ... values of p and stride" (9.7.14.4.3-4)
  for (std::uint32_t mask = group; mask; mask &= mask - 1) {
    Thread& t = lane_thread(static_cast<unsigned>(std::countr_zero(mask)));
    if (t.sync_a.u64() != p || (ins.operands.size() > 2 && (t.sync_b.u64() & 0xffffffffu) != stride))
      return m.fail(Problem::Kind::illegal, name + ": the lanes of the warp give different addresses or strides (ISA 9.7.14.4)", {&first, &t});
  }
  if (stride < lead)
    return m.fail(Problem::Kind::illegal, name + ": stride " + std::to_string(stride) + " is below the leading dimension " +
                  std::to_string(lead) + " (undefined, ISA 9.7.14.4.3)", {&first});
  // 9.7.14.4.2: every line starts at a multiple of the fragment's bytes -- but no more than one line's bytes at the
  // default stride, which the rule would otherwise forbid (m8n32k16 .f16 A .col: 16-byte lines, 32-byte fragments).
  const unsigned reg_bytes = bits == 64 ? 8 : 4;
  const std::uint64_t align = std::min<std::uint64_t>(frag_regs(f, x, f.type) * reg_bytes, std::max(1u, lead * bits / 8));
  if (p % align || (stride * bits / 8) % align || (stride * bits) % 8)
    return m.fail(Problem::Kind::misaligned, name + ": address " + std::to_string(p) + " or stride " + std::to_string(stride) +
                  " is not aligned to " + std::to_string(align) + " bytes (ISA 9.7.14.4.2)", {&first});
  auto bit_offset = [&](Pos q) { return ((f.row ? q.row : q.col) * stride + (f.row ? q.col : q.row)) * bits; };
  const unsigned bytes = std::max(1u, bits / 8);
  for (std::uint32_t mask = group; mask && !m.stop_; mask &= mask - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(mask));
    Thread& t = lane_thread(lane);
    const Operand& frag = ins.operands[load ? 0 : 1];
    std::vector<std::uint64_t> regs(frag_regs(f, x, f.type));
    if (!load)
      for (std::size_t r = 0; r < regs.size(); ++r) regs[r] = m.read(t, operand_reg(frag, r), bits == 64 ? 64 : 32).u64();
    for (unsigned i = 0; i < elems && !m.stop_; ++i) {
      const std::uint64_t bo = bit_offset(wmma_pos(f, x, f.type, lane, i)), addr = p + bo / 8;
      const unsigned per = bits >= 32 ? 1 : 32 / bits, r = i / per, sh = bits >= 32 ? 0 : bits * (i % per);
      const std::uint64_t mask_bits = bits >= 64 ? ~0ull : (1ull << bits) - 1;
      if (m.opt_.observer) m.observe(t, ins, load ? MemoryAccess::Kind::read : MemoryAccess::Kind::write, space, addr, bytes);
      std::uint8_t* q = m.locate(t, space, addr, bytes, !load);
      if (!q) return;
      if (load) {
        std::uint64_t v = 0;
        std::memcpy(&v, q, bytes);
        if (bits < 8) v >>= bo % 8;
        regs[r] |= (v & mask_bits) << sh;
      } else {
        const std::uint64_t v = (regs[r] >> sh) & mask_bits;
        std::memcpy(q, &v, bytes);
      }
    }
    if (load)
      for (std::size_t r = 0; r < regs.size(); ++r) m.write(t, operand_reg(frag, r), domain::Concrete::lit(bits == 64 ? 64 : 32, regs[r]));
  }
}

// wmma.mma (9.7.14.4.5): D = A * B + C on the whole matrices, gathered from the lanes' fragments. Accumulation as
// mma.sync's (mma_sync.cpp, docs/tensor-cores.md): integers exactly, then wrapped or, with .satfinite, clamped;
// .b1 as popc(a xor b) or popc(a and b) over a row of A and a column of B; .f64 as a chain of .f64 fma (C first,
// k ascending) in the named rounding; the other types as the exact products summed in f64 and rounded once.
void wmma_mma(Machine& m, Warp& w, std::uint32_t group, const Instruction& ins, const WmmaForm& f) {
  const auto& o = ins.operands;
  const unsigned M = f.m, N = f.n, K = f.k;
  std::vector<double> A(M * K), B(K * N);
  std::vector<std::uint64_t> C(M * N);
  auto lane_thread = [&](unsigned j) -> Thread& { return m.cta_->threads[w.lanes[j]]; };
  // Element i of lane `lane`'s fragment of matrix x (type t) from its registers, given to place(pos, bits).
  auto elements = [&](Thread& t, unsigned lane, const Operand& op, char x, ST type, auto&& place) {
    const unsigned bits = type_bits(type), per = bits >= 32 ? 1 : 32 / bits;
    for (unsigned i = 0; i < frag_elems(f, x, type); ++i) {
      const std::uint64_t word = m.read(t, operand_reg(op, i / per), bits == 64 ? 64 : 32).u64();
      const std::uint64_t e = bits >= 32 ? word : (word >> (bits * (i % per))) & ((1ull << bits) - 1);
      place(wmma_pos(f, x, type, lane, i), e);
    }
  };
  auto value = [](ST t, std::uint64_t e) {
    return t == ST::f64 ? domain::bits_to_f64(e) : matrix_element_value(t, static_cast<std::uint32_t>(e));
  };
  for (std::uint32_t mask = group; mask; mask &= mask - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(mask));
    Thread& t = lane_thread(lane);
    elements(t, lane, o[1], 'a', f.a, [&](Pos p, std::uint64_t e) { A[p.row * K + p.col] = value(f.a, e); });
    elements(t, lane, o[2], 'b', f.b, [&](Pos p, std::uint64_t e) { B[p.row * N + p.col] = value(f.b, e); });
    elements(t, lane, o[3], 'c', f.c, [&](Pos p, std::uint64_t e) { C[p.row * N + p.col] = e; });
  }
  if (m.stop_) return;
  auto result = [&](unsigned row, unsigned col) -> std::uint64_t {
    const std::uint64_t c = C[row * N + col];
    auto a = [&](unsigned k) { return A[row * K + k]; };
    auto b = [&](unsigned k) { return B[k * N + col]; };
    if (f.d == ST::s32) {
      std::int64_t acc = static_cast<std::int32_t>(static_cast<std::uint32_t>(c));
      const BitOp op = f.a != kB1 ? BitOp::none : f.popc_and ? BitOp::and_ : BitOp::xor_;
      for (unsigned k = 0; k < K; ++k) acc += integer_mma_term(op, static_cast<std::int64_t>(a(k)), static_cast<std::int64_t>(b(k)));
      if (f.satfinite) acc = std::clamp<std::int64_t>(acc, INT32_MIN, INT32_MAX);
      return static_cast<std::uint32_t>(acc);
    }
    return float_mma_element(f.d, f.c, c, K, f.rounding ? ops::rounding_mode(*f.rounding) : domain::Rnd::rn, a, b);
  };
  const unsigned db = type_bits(f.d);
  for (std::uint32_t mask = group; mask; mask &= mask - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(mask));
    std::vector<std::uint64_t> regs(frag_regs(f, 'd', f.d));
    for (unsigned i = 0; i < frag_elems(f, 'd', f.d); ++i) {
      const Pos p = wmma_pos(f, 'd', f.d, lane, i);
      const std::uint64_t v = result(p.row, p.col);
      if (db == 16) regs[i / 2] |= (v & 0xffff) << (16 * (i % 2));
      else regs[i] = v;
    }
    for (std::size_t r = 0; r < regs.size(); ++r) m.write(lane_thread(lane), operand_reg(o[0], r), domain::Concrete::lit(db == 64 ? 64 : 32, regs[r]));
  }
}
}  // namespace

bool wmma_supported(const Instruction& ins) {
  const auto f = wmma_form(ins);
  if (!f) return false;
  const auto& o = ins.operands;
  if (f->op == WmmaForm::Op::load) return operand_regs(o[0]) == frag_regs(*f, f->matrix, f->type);
  if (f->op == WmmaForm::Op::store) return operand_regs(o[1]) == frag_regs(*f, 'd', f->type);
  return operand_regs(o[0]) == frag_regs(*f, 'd', f->d) && operand_regs(o[1]) == frag_regs(*f, 'a', f->a) &&
         operand_regs(o[2]) == frag_regs(*f, 'b', f->b) && operand_regs(o[3]) == frag_regs(*f, 'c', f->c);
}

// Dispatch once every lane of the warp has arrived (each lane's address in sync_a, its stride in sync_b).
void Machine::warp_wmma(Warp& w, std::uint32_t group, const Instruction& ins) {
  const auto form = wmma_form(ins);  // find_unsupported refuses other forms before the run
  if (!form) return fail(Problem::Kind::unsupported, "wmma: this form is not modelled (ISA 9.7.14.4)", {});
  // "undefined ... if any thread in the warp has exited" (9.7.14.4.3-5): the fragments need all 32 lanes.
  if (std::popcount(group) != 32)
    return fail(Problem::Kind::illegal, "wmma: " + std::to_string(std::popcount(group)) +
                " of the warp's 32 lanes execute it (a lane has exited, or the warp is partial; undefined, ISA 9.7.14.4)",
                {&cta_->threads[w.lanes[static_cast<unsigned>(std::countr_zero(group))]]});
  if (form->op == WmmaForm::Op::mma) return wmma_mma(*this, w, group, ins, *form);
  wmma_memory(*this, w, group, ins, *form);
}

}  // namespace ptx::interp
