// mma.sp / mma.sp::ordered_metadata (ISA 9.7.14.6) in the interpreter: the warp's D = A * B + C with a structured
// sparse A, decompressed from each lane's A fragment and the sparsity metadata (9.7.14.6.1-2); B, C and D are the
// dense fragments of mma_fragment.hpp. Accumulation as for the dense forms (docs/tensor-cores.md).
#include "semantics/interp/machine.hpp"
#include "semantics/interp/matrix_operand.hpp"
#include "semantics/interp/mma_fragment.hpp"
#include "semantics/interp/sparse_a.hpp"
#include "semantics/ir/mma_form.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <optional>

namespace ptx::interp {
namespace {
using namespace mma;

// One sparse form: the shape and types, and the sparse A's layout with the sparsity selector (operand f).
struct SparseForm {
  MmaForm f;
  SparseA sa;
  unsigned b_regs() const { return f.k * f.n * f.bits(f.b) / 1024; }
  unsigned c_regs(ST t) const { return t == ST::f16 ? 2 : 4; }
};

// The form of `ins`, or nothing: of the sparse forms semantics/ir/mma_form.hpp decodes (9.7.14.6.3's syntax),
// every one but .block_scale (.kind::mxf*); .kind::f8f6f4's 6- and 4-bit types in 8-bit containers; the operands
// d, a, b, c, e and an immediate f.
std::optional<SparseForm> sparse_form(const Instruction& ins) {
  const auto syntax = ir::mma_syntax(ins);
  if (!syntax || !syntax->sparse || syntax->block_scale) return std::nullopt;
  const auto d = mma_type_word(syntax->d), a = mma_type_word(syntax->a), b = mma_type_word(syntax->b), c = mma_type_word(syntax->c);
  if (!d || !a || !b || !c) return std::nullopt;
  SparseForm s;
  MmaForm& f = s.f;
  f.m = syntax->m, f.n = syntax->n, f.k = syntax->k;
  f.d = *d, f.a = *a, f.b = *b, f.c = *c;
  f.satfinite = syntax->satfinite;
  const auto& o = ins.operands;
  if (o[5].kind != ir::Operand::Kind::Immediate || o[5].imm > 3) return std::nullopt;  // "constant 0..3"
  s.sa = SparseA{f.a, f.bits(f.a), f.k, static_cast<unsigned>(o[5].imm)};
  if (operand_regs(o[0]) != s.c_regs(f.d) || operand_regs(o[1]) != s.sa.a_regs() || operand_regs(o[2]) != s.b_regs() ||
      operand_regs(o[3]) != s.c_regs(f.c) || o[4].kind == ir::Operand::Kind::Vector)
    return std::nullopt;
  return s;
}

}  // namespace

bool is_mma_sparse(const Instruction& ins) { return ins.q.has_word("sp") || ins.q.has_word("sp::ordered_metadata"); }
bool mma_sparse_supported(const Instruction& ins) { return sparse_form(ins).has_value(); }

// D = A * B + C over the warp, A decompressed. Lane l (g = l >> 2, t = l % 4) holds in A register r the stored
// elements of row g + 8 (r % 2), uncompressed columns firstcol = (64 / bits) (t + 4 (r / 2)) onward, i.e. the 32
// bits at 32 (t + 4 (r / 2)) of the compressed row (9.7.14.6.2.1-8, each section's row/firstcol formulas). A
// meaningless metadata nibble or a selector the shape does not allow is undefined (9.7.14.6.1): the run stops as
// `illegal`.
void Machine::warp_mma_sparse(Warp& w, std::uint32_t group, const Instruction& ins) {
  const auto form = sparse_form(ins);
  if (!form) return fail(Problem::Kind::unsupported, "mma.sp: this form is not modelled (ISA 9.7.14.6.3)", {});
  const SparseForm& s = *form;
  const MmaForm& f = s.f;
  const auto& o = ins.operands;
  const SparseA& sa = s.sa;
  const unsigned K = f.k, N = f.n;
  if (sa.selector > sa.max_selector())
    return fail(Problem::Kind::illegal, "mma.sp: sparsity selector " + std::to_string(sa.selector) +
                                            " is undefined for this shape (ISA 9.7.14.6.1)", {});
  std::vector<std::uint32_t> packed(16 * sa.row_bits() / 64, 0), meta(32, 0);
  std::vector<bool> has_meta(32, false);
  std::vector<double> A, B(K * N);
  std::vector<std::uint64_t> C(16 * N);
  for (std::uint32_t mask = group; mask; mask &= mask - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(mask)), g = lane >> 2, t = lane % 4;
    Thread& th = cta_->threads[w.lanes[lane]];
    for (unsigned r = 0; r < sa.a_regs(); ++r)
      pack_register(sa, packed, lane, r, static_cast<std::uint32_t>(read(th, operand_reg(o[1], r), 32).u64()));
    const unsigned bb = f.bits(f.b), per = 32 / bb;
    for (unsigned r = 0; r < s.b_regs(); ++r) {
      const std::uint64_t word = read(th, operand_reg(o[2], r), 32).u64();
      for (unsigned j = 0; j < per; ++j) {
        const Pos p = b_pos(f, lane, r * per + j);
        B[p.row * N + p.col] = matrix_element_value(f.b, static_cast<std::uint32_t>(bb == 32 ? word : (word >> (bb * j)) & ((1u << bb) - 1)));
      }
    }
    const unsigned cb = f.bits(f.c);
    for (unsigned i = 0; i < f.c_elems(); ++i) {
      const Pos p = c_pos(f, lane, i);
      const std::uint64_t word = read(th, operand_reg(o[3], cb == 16 ? i / 2 : i), 32).u64();
      C[p.row * N + p.col] = cb == 16 ? (word >> (16 * (i % 2))) & 0xffff : word;
    }
    // Only the selected lanes' metadata is read (the others' e need not be set).
    for (unsigned row : {g, g + 8})
      for (unsigned c = 0; c < sa.chunks(); ++c)
        if (sa.meta_pos(row, c).lane == t && !has_meta[lane])
          meta[lane] = static_cast<std::uint32_t>(read(th, o[4], 32).u64()), has_meta[lane] = true;
  }
  if (stop_) return;
  const BadNibble bad = decompress(sa, true, packed, meta, has_meta, A);
  if (bad.lane >= 0) {
    char msg[160];
    std::snprintf(msg, sizeof msg, "mma.sp: metadata 0x%x of lane %d (bits %u..%u) is not a meaningful index pair; undefined (ISA 9.7.14.6.1)",
                  bad.nibble, bad.lane, bad.bit + 3, bad.bit);
    return fail(Problem::Kind::illegal, msg, {&cta_->threads[w.lanes[static_cast<unsigned>(bad.lane)]]});
  }
  auto result = [&](unsigned row, unsigned col) -> std::uint64_t {
    const std::uint64_t c = C[row * N + col];
    auto a = [&](unsigned k) { return A[row * K + k]; };
    auto b = [&](unsigned k) { return B[k * N + col]; };
    if (f.d == ST::s32) {  // integers exactly, wrapped or clamped with .satfinite (9.7.14.6.3)
      std::int64_t acc = static_cast<std::int32_t>(static_cast<std::uint32_t>(c));
      for (unsigned k = 0; k < K; ++k) acc += static_cast<std::int64_t>(a(k)) * static_cast<std::int64_t>(b(k));
      if (f.satfinite) acc = std::clamp<std::int64_t>(acc, INT32_MIN, INT32_MAX);
      return static_cast<std::uint32_t>(acc);
    }
    return float_mma_element(f.d, f.c, c, K, f.rnd, a, b);
  };
  const unsigned db = f.bits(f.d);
  for (std::uint32_t mask = group; mask; mask &= mask - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(mask));
    Thread& th = cta_->threads[w.lanes[lane]];
    std::vector<std::uint64_t> regs(s.c_regs(f.d), 0);
    for (unsigned i = 0; i < f.c_elems(); ++i) {
      const Pos p = c_pos(f, lane, i);
      const std::uint64_t v = result(p.row, p.col);
      if (db == 16) regs[i / 2] |= (v & 0xffff) << (16 * (i % 2));
      else regs[i] = v;
    }
    for (std::size_t r = 0; r < regs.size(); ++r) write(th, operand_reg(o[0], r), domain::Concrete::lit(32, regs[r]));
  }
}

}  // namespace ptx::interp
