// mma.sp / mma.sp::ordered_metadata (ISA 9.7.14.6) in the interpreter: the warp's D = A * B + C with a structured
// sparse A, decompressed from each lane's A fragment and the sparsity metadata (9.7.14.6.1-2); B, C and D are the
// dense fragments of mma_fragment.hpp. Accumulation as for the dense forms (docs/tensor-cores.md).
#include "semantics/interp/machine.hpp"
#include "semantics/interp/matrix_operand.hpp"
#include "semantics/interp/mma_fragment.hpp"
#include "semantics/interp/sparse_a.hpp"

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

bool is_int8(ST t) { return t == ST::s8 || t == ST::u8; }
bool is_int4(ST t) { return t == ST::s4 || t == ST::u4; }
bool is_fp8(ST t) { return t == ST::e4m3 || t == ST::e5m2; }

// Whether (shape, D, A, B, C) is in 9.7.14.6.3's syntax: m16n8 with .f16 (k16, k32; "for .m16n8k16 and .m16n8k32,
// .dtype must be the same as .ctype"), .bf16 (k16, k32), .tf32 (k8, k16), fp8 (k64, .f32; with .kind::f8f6f4 also
// .f16, and the 6- and 4-bit types in 8-bit containers), .s8/.u8 (k32, k64) and .s4/.u4 (k64, k128) into .s32.
bool sparse_form_exists(const MmaForm& f, bool kind_f8f6f4) {
  if (f.m != 16 || f.n != 8) return false;
  const unsigned k = f.k;
  auto fp = [](ST t) { return t == ST::f16 || t == ST::f32; };
  if (kind_f8f6f4) return k == 64 && (is_fp8(f.a) || is_f6f4(f.a)) && (is_fp8(f.b) || is_f6f4(f.b)) && fp(f.c) && fp(f.d);
  if (f.a == ST::f16 && f.b == ST::f16) return (k == 16 || k == 32) && fp(f.c) && f.d == f.c;
  const bool f32acc = f.c == ST::f32 && f.d == ST::f32;
  if (f.a == ST::bf16 && f.b == ST::bf16) return (k == 16 || k == 32) && f32acc;
  if (f.a == ST::tf32 && f.b == ST::tf32) return (k == 8 || k == 16) && f32acc;
  if (is_fp8(f.a) && is_fp8(f.b)) return k == 64 && f32acc;
  if (f.c != ST::s32 || f.d != ST::s32) return false;
  if (is_int8(f.a) && is_int8(f.b)) return k == 32 || k == 64;
  if (is_int4(f.a) && is_int4(f.b)) return k == 64 || k == 128;
  return false;
}

// The form of `ins`, or nothing: every qualifier must be one this reading knows (so .block_scale, .kind::mxf*, the
// 6- and 4-bit float types are refused by name), and the operands d, a, b, c, e and an immediate f.
std::optional<SparseForm> sparse_form(const Instruction& ins) {
  SparseForm s;
  MmaForm& f = s.f;
  std::vector<bool> layouts;
  std::vector<ST> t;  // .dtype, .atype, .btype, .ctype
  bool sync = false, aligned = false, ordered = false, kind = false;
  for (const auto& w : ins.q.words) {
    unsigned m = 0, n = 0, k = 0;
    char end = 0;
    if (w == "sp") continue;
    if (w == "sp::ordered_metadata") ordered = true;
    else if (w == "sync") sync = true;
    else if (w == "aligned") aligned = true;
    else if (w == "row" || w == "col") layouts.push_back(w == "row");
    else if (w == "satfinite") f.satfinite = true;
    else if (w == "kind::f8f6f4") kind = true;
    else if (std::sscanf(w.c_str(), "m%un%uk%u%c", &m, &n, &k, &end) == 3) f.m = m, f.n = n, f.k = k;
    else if (const auto ty = mma_type_word(w)) t.push_back(*ty);
    else return std::nullopt;
  }
  const auto& o = ins.operands;
  if (!sync || !aligned || t.size() != 4 || layouts != std::vector<bool>{true, false} || o.size() != 6) return std::nullopt;
  f.d = t[0], f.a = t[1], f.b = t[2], f.c = t[3];
  if (kind && !ordered) return std::nullopt;  // .kind is mma.sp::ordered_metadata's only
  if (!sparse_form_exists(f, kind) || (f.satfinite && f.d != ST::s32)) return std::nullopt;
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
