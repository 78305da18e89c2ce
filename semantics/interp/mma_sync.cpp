// mma.sync.aligned (ISA 9.7.14.5.14) in the interpreter: which dense forms run (mma_sync_supported) and the warp's
// product D = A * B + C once every lane has arrived (Machine::warp_mma), with each lane's fragments placed by the
// row/column formulas of 9.7.14.5.1-11. The choices the spec leaves open are in docs/tensor-cores.md.
#include "semantics/interp/machine.hpp"
#include "semantics/interp/matrix_operand.hpp"
#include "semantics/interp/mma_fragment.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <optional>

namespace ptx::interp {
namespace {
using namespace mma;

bool is_int8(ST t) { return t == ST::s8 || t == ST::u8; }
bool is_fp8(ST t) { return t == ST::e4m3 || t == ST::e5m2; }
bool is_f16_or_f32(ST t) { return t == ST::f16 || t == ST::f32; }

// Whether (shape, D, A, B, C) is one of 9.7.14.5.14's dense forms (its syntax and the restrictions below it).
bool form_exists(const MmaForm& f) {
  const unsigned m = f.m, n = f.n, k = f.k;
  auto shape = [&](unsigned mm, unsigned kk) { return m == mm && n == 8 && k == kk; };
  if (f.a == ST::f16 && f.b == ST::f16) {
    if (shape(8, 4)) return (f.c == ST::f16 && is_f16_or_f32(f.d)) || (f.c == ST::f32 && f.d == ST::f32);  // .ctype .f32 => .dtype .f32
    if (shape(16, 8)) return is_f16_or_f32(f.c) && f.d == f.c;  // m16n8k8: .dtype = .ctype
    return shape(16, 16) && is_f16_or_f32(f.c) && is_f16_or_f32(f.d);
  }
  if ((f.a == ST::bf16 || f.a == ST::tf32) && f.b == f.a && f.c == ST::f32 && f.d == ST::f32)
    return f.a == ST::bf16 ? shape(16, 8) || shape(16, 16) : shape(16, 4) || shape(16, 8);
  if (is_fp8(f.a) && is_fp8(f.b)) return (shape(16, 16) || shape(16, 32)) && is_f16_or_f32(f.c) && is_f16_or_f32(f.d);
  if (f.a == ST::f64 && f.b == ST::f64 && f.c == ST::f64 && f.d == ST::f64)
    return shape(8, 4) || shape(16, 4) || shape(16, 8) || shape(16, 16);
  if (f.c != ST::s32 || f.d != ST::s32) return false;
  if (is_int8(f.a) && is_int8(f.b)) return shape(8, 16) || shape(16, 16) || shape(16, 32);
  // The syntax lists .atype and .btype {.u4, .s4} apart (and ptxas 13.0 takes .s4 x .u4), though 9.7.14.2's table
  // says "both .u4 or both .s4": mixed signedness runs, as for .s8/.u8.
  auto int4 = [](ST t) { return t == ST::s4 || t == ST::u4; };
  if (int4(f.a) && int4(f.b)) return shape(8, 32) || shape(16, 32) || shape(16, 64);
  return false;
}

// The form of `ins`, or nothing when it is not a dense form warp_mma runs: every qualifier must be one this reading
// knows, so .sp, .kind::mxf*, .block_scale, .b1 with .xor/.and.popc and anything unforeseen are refused by name.
std::optional<MmaForm> mma_form(const Instruction& ins) {
  MmaForm f;
  std::vector<bool> layouts;  // true = .row, in order: .alayout, .blayout
  std::vector<ST> t;          // .dtype, .atype, .btype, .ctype
  bool sync = false, aligned = false, rounding = false, f8f6f4 = false;
  for (const auto& w : ins.q.words) {
    unsigned m = 0, n = 0, k = 0;
    char end = 0;
    if (w == "sync") sync = true;
    else if (w == "aligned") aligned = true;
    else if (w == "row" || w == "col") layouts.push_back(w == "row");
    else if (w == "satfinite") f.satfinite = true;
    else if (w == "rn" || w == "rz" || w == "rm" || w == "rp") rounding = true;
    else if (w == "kind::f8f6f4") f8f6f4 = true;
    else if (std::sscanf(w.c_str(), "m%un%uk%u%c", &m, &n, &k, &end) == 3) f.m = m, f.n = n, f.k = k;
    else if (const auto ty = mma_type_word(w)) t.push_back(*ty);
    else return std::nullopt;
  }
  if (!sync || !aligned || t.size() != 4 || layouts.size() != 2 || ins.operands.size() != 4) return std::nullopt;
  f.d = t[0], f.a = t[1], f.b = t[2], f.c = t[3];
  // .kind::f8f6f4 (m16n8k32 only): .e4m3/.e5m2/.e3m2/.e2m3/.e2m1, each in an 8-bit container, so the fragments are
  // those of the fp8 form (9.7.14.5.10); the 6- and 4-bit types need the qualifier.
  auto f8f6f4type = [](ST x) { return is_fp8(x) || is_f6f4(x); };
  if (f8f6f4) {
    if (!(f.m == 16 && f.n == 8 && f.k == 32 && f8f6f4type(f.a) && f8f6f4type(f.b) && is_f16_or_f32(f.c) && is_f16_or_f32(f.d)))
      return std::nullopt;
  } else if (!form_exists(f)) return std::nullopt;
  f.quad = f.m == 8 && f.k == 4 && f.a == ST::f16;
  if (f.quad) f.a_col = !layouts[0], f.b_row = layouts[1];
  else if (!layouts[0] || layouts[1]) return std::nullopt;  // every other form is .row.col
  if (f.satfinite && f.d != ST::s32) return std::nullopt;  // .satfinite: the integer forms only
  if (rounding) {  // .rn/.rz/.rm/.rp: the .f64 forms only
    if (f.d != ST::f64 || !ins.q.rounding) return std::nullopt;
    f.rnd = ops::rounding_mode(*ins.q.rounding);
  }
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
// products summed in f64 after C and rounded once, to nearest even (an order the text leaves open).
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
      for (unsigned k = 0; k < K; ++k) acc += static_cast<std::int64_t>(a(k)) * static_cast<std::int64_t>(b(k));
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
