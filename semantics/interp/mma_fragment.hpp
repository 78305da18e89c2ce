// The fragments of mma.sync (ISA 9.7.14.5.1-11): a form's shape and types (MmaForm) and where element i of lane l's
// A, B, C and D registers lies in its matrix; shared by the dense (mma_sync.cpp) and sparse (mma_sparse.cpp) forms.
#pragma once

#include "semantics/domain/concrete.hpp"
#include "semantics/interp/matrix_operand.hpp"
#include "semantics/ir/ir.hpp"
#include "semantics/ir/wmma_form.hpp"

#include <optional>
#include <string_view>

namespace ptx::interp::mma {
using ST = ir::ScalarType;

// The 6- and 4-bit float types of .kind::f8f6f4 (9.7.14.5.14), one element in an 8-bit container: .e2m1 in bits 5..2,
// .e3m2/.e2m3 in bits 5..0. They are no IR scalar types; the mma readers name them by the packed types .e2m1x2,
// .e3m2x2, .e2m3x2 of the same formats (matrix_element_value decodes the container).
inline bool is_f6f4(ST t) { return t == ST::e2m1x2 || t == ST::e3m2x2 || t == ST::e2m3x2; }

// A qualifier word's element type: an IR scalar type, one of the 6- and 4-bit types above, or .b1 (single-bit
// elements, 9.7.14.5.14), no IR type either: it stands as ir::kWmmaB1 as in wmma.
inline std::optional<ST> mma_type_word(std::string_view w) {
  if (w == "b1") return ir::kWmmaB1;
  if (w == "e2m1") return ST::e2m1x2;
  if (w == "e3m2") return ST::e3m2x2;
  if (w == "e2m3") return ST::e2m3x2;
  if (w == "e2m1x2" || w == "e3m2x2" || w == "e2m3x2") return std::nullopt;  // not mma element types
  return ir::scalar_type_from_name(w);
}

// One dense mma.sync form: its shape, the types of D, A, B, C, and for m8n8k4 .f16 (9.7.14.5.1), which computes four
// independent 8x8x4 products, the layouts of A and B.
struct MmaForm {
  unsigned m = 0, n = 0, k = 0;
  ST d = ST::f32, a = ST::f16, b = ST::f16, c = ST::f32;
  bool quad = false;               // m8n8k4 .f16: four products, one per group of 8 lanes
  bool a_col = false, b_row = false;  // m8n8k4 .f16: .alayout .col, .blayout .row
  bool satfinite = false;
  domain::Rnd rnd = domain::Rnd::rn;  // .f64 only
  BitOp bit_op = BitOp::none;  // .b1: .xor.popc / .and.popc

  unsigned bits(ST t) const {
    if (is_f6f4(t)) return 8;  // the container
    if (t == ir::kWmmaB1) return 1;
    return t == ST::f64 ? 64 : t == ST::tf32 || t == ST::f32 || t == ST::s32 ? 32 : scalar_bits(t);
  }
  unsigned lanes() const { return quad ? 8 : 32; }  // lanes sharing one product
  unsigned a_elems() const { return m * k / lanes(); }  // per lane
  unsigned b_elems() const { return k * n / lanes(); }
  unsigned c_elems() const { return m * n / lanes(); }
  // Registers holding e elements of type t: one .f64 each, else packed in .b32 registers (element 0 lowest).
  unsigned regs(ST t, unsigned e) const { return bits(t) == 64 ? e : e * bits(t) / 32; }
};

// Fragment positions (row, column) of element i held by lane l. Every shape but m8n8k4 .f16 follows one pattern in
// p, the elements of a multiplicand per 32 bits (1 for .tf32 and .f64, 32 for .b1): with g = l >> 2 and t = l % 4,
//   A: row g + 8 ((i / p) % 2),  column p t + i % p + 4p (i / 2p)
//   B: row p t + i % p + 4p (i / p),  column g
//   C, D: row g + 8 (i / 2),  column 2t + i % 2
// which is, shape by shape, the text of 9.7.14.5.2-11 (e.g. m16n8k16 .f16 A, 9.7.14.5.8: row g for i < 2 or 4 <= i < 6,
// else g + 8; column 2t + (i & 1), + 8 for i >= 4). For M = 8 the row term of A and C is 0 (i < p, i < 2). The .b1
// shapes (9.7.14.5.5, .12, .13) too: m16n8k256's A at column 32t + (i & 0x1F) + 128 for i >= 64, B at row
// 32t + (i & 0x1F) + 128 for i >= 32. (The text's A formula writes "32t + i for i < 64", which its Figure 100 and the
// m16n8k128 formula give as 32t + (i & 0x1F): a32..a63 lie in columns 0..127 of rows 8..15.)
struct Pos {
  unsigned row, col;
};
inline unsigned per32(const MmaForm& f, ST t) { return f.bits(t) >= 32 ? 1 : 32 / f.bits(t); }

inline Pos a_pos(const MmaForm& f, unsigned l, unsigned i) {
  const unsigned hi = l >= 16 ? 4 : 0;
  if (f.quad) return f.a_col ? Pos{i % 4 + hi, l % 4} : Pos{l % 4 + hi, i};  // 9.7.14.5.1, Figures 46-47
  const unsigned p = per32(f, f.a), g = l >> 2, t = l % 4;
  return {g + 8 * ((i / p) % 2), p * t + i % p + 4 * p * (i / (2 * p))};
}
inline Pos b_pos(const MmaForm& f, unsigned l, unsigned i) {
  const unsigned hi = l >= 16 ? 4 : 0;
  if (f.quad) return f.b_row ? Pos{l % 4, i + hi} : Pos{i, l % 4 + hi};  // 9.7.14.5.1, Figures 48-49
  const unsigned p = per32(f, f.b), g = l >> 2, t = l % 4;
  return {p * t + i % p + 4 * p * (i / p), g};
}
inline Pos c_pos(const MmaForm& f, unsigned l, unsigned i) {
  const unsigned hi = l >= 16 ? 4 : 0;
  if (f.quad) {  // 9.7.14.5.1: .f16 C/D (Figure 50), .f32 (Figures 51-52)
    if (f.c == ST::f16) return {l % 4 + hi, i};
    return {(l & 1) + (i & 2) + hi, (i & 4) + (l & 2) + (i & 1)};
  }
  return {(l >> 2) + 8 * (i / 2), 2 * (l % 4) + i % 2};
}

// The C/D layout of m8n8k4 follows .ctype for C and .dtype for D: they differ in .f32.f16.f16.f16.
inline Pos d_pos(const MmaForm& f, unsigned l, unsigned i) {
  if (!f.quad) return c_pos(f, l, i);
  MmaForm g = f;
  g.c = f.d;
  return c_pos(g, l, i);
}

}  // namespace ptx::interp::mma
