// mma.sync.aligned (ISA 9.7.14.5.14) in the interpreter: which dense forms run (mma_sync_supported) and the warp's
// product D = A * B + C once every lane has arrived (Machine::warp_mma), with each lane's fragments placed by the
// row/column formulas of 9.7.14.5.1-11. The choices the spec leaves open are in docs/tensor-cores.md.
#include "semantics/interp/machine.hpp"
#include "semantics/interp/matrix_operand.hpp"
#include "semantics/interp/mma_fragment.hpp"
#include "semantics/ir/mma_form.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <optional>

namespace ptx::interp {
namespace {
using namespace mma;

// The form of `ins` when it is a dense form warp_mma runs: of the forms semantics/ir/mma_form.hpp decodes (the one
// reading of 9.7.14.5.14's syntax), every one but .block_scale (.kind::mxf*).
// .kind::f8f6f4's 6- and 4-bit types sit in 8-bit containers, so their fragments are those of the fp8 forms
// (9.7.14.5.10).
std::optional<MmaForm> mma_form(const Instruction& ins) {
  const auto s = ir::mma_syntax(ins);
  if (!s || s->sparse || s->block_scale) return std::nullopt;
  const auto d = mma_type_word(s->d), a = mma_type_word(s->a), b = mma_type_word(s->b), c = mma_type_word(s->c);
  if (!d || !a || !b || !c) return std::nullopt;
  MmaForm f;
  f.m = s->m, f.n = s->n, f.k = s->k;
  f.d = *d, f.a = *a, f.b = *b, f.c = *c;
  f.satfinite = s->satfinite;
  f.quad = f.m == 8 && f.k == 4 && f.a == ST::f16;  // the only form with .alayout.blayout other than .row.col
  if (f.quad) f.a_col = !s->a_row, f.b_row = s->b_row;
  if (s->rounding) f.rnd = ops::rounding_mode(*s->rounding);
  if (!s->bit_op.empty()) f.bit_op = s->bit_op == "and" ? BitOp::and_ : BitOp::xor_;
  return f;
}

}  // namespace

bool mma_sync_supported(const Instruction& ins) {
  if (is_mma_sparse(ins)) return mma_sparse_supported(ins);  // 9.7.14.6 (mma_sparse.cpp)
  const auto f = mma_form(ins);
  if (!f) return false;
  const auto& o = ins.operands;
  auto c_regs = [&](ST t) { return t == ST::f16 ? f->c_elems() / 2 : f->c_elems(); };
  return operand_regs(o[0]) == c_regs(f->d) && operand_regs(o[1]) == f->regs(f->a, f->a_elems()) &&
         operand_regs(o[2]) == f->regs(f->b, f->b_elems()) && operand_regs(o[3]) == c_regs(f->c);
}

// D = A * B + C over the warp (m8n8k4 .f16: four products, lanes 4q..4q+3 and 16+4q..16+4q+3 sharing product q).
// Each lane's A, B and C registers are read here, as every lane waits at the instruction. Accumulation, following
// 9.7.14.5.14's "Precision and rounding": integers exactly, then wrapped modulo 2^32 or clamped with .satfinite;
// .f64 as a chain of .f64 fma (C first, k ascending) in the instruction's rounding; the other types as the exact
// products summed in f64 after C and rounded once, to nearest even (an order the text leaves open). .b1: "the XOR,
// AND respectively of a k-bit row of A with a k-bit column of B, then counts the number of set bits", added to C
// (wrapping modulo 2^32, as the integer forms without .satfinite).
void Machine::warp_mma(Warp& w, std::uint32_t group, const Instruction& ins) {
  if (is_mma_sparse(ins)) return warp_mma_sparse(w, group, ins);
  const auto form = mma_form(ins);  // find_unsupported refuses other forms before the run; kept for indirect calls
  if (!form) return fail(Problem::Kind::unsupported, "mma.sync: this form is not modelled (ISA 9.7.14.5.14)", {});
  const MmaForm& f = *form;
  const auto& o = ins.operands;
  const unsigned M = f.m, N = f.n, K = f.k, Q = f.quad ? 4 : 1;
  std::vector<double> A(Q * M * K), B(Q * K * N);
  std::vector<std::uint64_t> C(Q * M * N);  // the bits of C's elements
  auto product = [&](unsigned lane) { return f.quad ? (lane % 16) / 4 : 0u; };
  // Element i of a multiplicand of type t from a lane's registers: packed from the low bits, or one .f64 a register.
  auto elements = [&](Thread& t, const Operand& op, ST type, unsigned count, auto&& place) {
    const unsigned bits = f.bits(type), per = bits >= 32 ? 1 : 32 / bits;
    for (unsigned r = 0; r * per < count; ++r) {
      const std::uint64_t word = read(t, operand_reg(op, r), bits == 64 ? 64 : 32).u64();
      for (unsigned j = 0; j < per; ++j) {
        const std::uint64_t e = bits >= 32 ? word : (word >> (bits * j)) & ((1u << bits) - 1);
        place(r * per + j, bits == 64 ? domain::bits_to_f64(e) : matrix_element_value(type, static_cast<std::uint32_t>(e)));
      }
    }
  };
  for (std::uint32_t mask = group; mask; mask &= mask - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(mask)), q = product(lane);
    Thread& t = cta_->threads[w.lanes[lane]];
    elements(t, o[1], f.a, f.a_elems(), [&](unsigned i, double v) { const Pos p = a_pos(f, lane, i); A[(q * M + p.row) * K + p.col] = v; });
    elements(t, o[2], f.b, f.b_elems(), [&](unsigned i, double v) { const Pos p = b_pos(f, lane, i); B[(q * K + p.row) * N + p.col] = v; });
    const unsigned cb = f.bits(f.c);
    for (unsigned i = 0; i < f.c_elems(); ++i) {
      const Pos p = c_pos(f, lane, i);
      const std::uint64_t word = read(t, operand_reg(o[3], cb == 16 ? i / 2 : i), cb == 64 ? 64 : 32).u64();
      C[(q * M + p.row) * N + p.col] = cb == 16 ? (word >> (16 * (i % 2))) & 0xffff : word;
    }
  }
  if (stop_) return;
  auto result = [&](unsigned q, unsigned row, unsigned col) -> std::uint64_t {
    const std::uint64_t c = C[(q * M + row) * N + col];
    auto a = [&](unsigned k) { return A[(q * M + row) * K + k]; };
    auto b = [&](unsigned k) { return B[(q * K + k) * N + col]; };
    if (f.d == ST::s32) {
      std::int64_t acc = static_cast<std::int32_t>(static_cast<std::uint32_t>(c));
      for (unsigned k = 0; k < K; ++k) acc += integer_mma_term(f.bit_op, static_cast<std::int64_t>(a(k)), static_cast<std::int64_t>(b(k)));
      if (f.satfinite) acc = std::clamp<std::int64_t>(acc, INT32_MIN, INT32_MAX);
      return static_cast<std::uint32_t>(acc);
    }
    return float_mma_element(f.d, f.c, c, K, f.rnd, a, b);
  };
  const unsigned db = f.bits(f.d), d_elems = f.c_elems();
  for (std::uint32_t mask = group; mask; mask &= mask - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(mask)), q = product(lane);
    Thread& t = cta_->threads[w.lanes[lane]];
    std::vector<std::uint64_t> regs(db == 16 ? d_elems / 2 : d_elems);
    for (unsigned i = 0; i < d_elems; ++i) {
      const Pos p = d_pos(f, lane, i);
      const std::uint64_t v = result(q, p.row, p.col);
      if (db == 16) regs[i / 2] |= (v & 0xffff) << (16 * (i % 2));
      else regs[i] = v;
    }
    for (std::size_t r = 0; r < regs.size(); ++r) write(t, operand_reg(o[0], r), domain::Concrete::lit(db == 64 ? 64 : 32, regs[r]));
  }
}

}  // namespace ptx::interp
