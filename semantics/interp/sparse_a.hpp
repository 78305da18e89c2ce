// A structured-sparse matrix A of 16 rows (ISA 9.7.14.6.1-2 for mma.sp; the same per warp for wgmma.mma_async.sp,
// 9.7.15.6.1-2): where each lane's A registers and metadata nibbles lie, and the decompression to dense values.
#pragma once

#include "semantics/ir/ir.hpp"

#include <cstdint>
#include <vector>

namespace ptx::interp {

struct SparseA {
  ir::ScalarType a = ir::ScalarType::f16;
  unsigned elem_bits = 16;  // of one element (8 for the 6- and 4-bit types' containers)
  unsigned k = 16;          // uncompressed columns
  unsigned selector = 0;    // the sparsity selector

  // A row is chunks of four units, two of which are stored. A unit is 16 bits for .f16/.bf16 (one element) and
  // .tf32 (half an element: 1:2 sparsity, whose only meaningful nibbles 0b0100 and 0b1110 name the two halves of
  // element 0 or 1), 8 bits for the 8-bit types (one element) and the 4-bit ones (the two-element sub-chunk of 4:8
  // pair-wise sparsity). Each chunk's two 2-bit indices are one nibble of metadata.
  unsigned unit_bits() const { return elem_bits >= 16 ? 16 : 8; }
  unsigned row_bits() const { return k * elem_bits; }                 // uncompressed
  unsigned chunks() const { return row_bits() / (4 * unit_bits()); }  // per row: 4, 8 or 16
  unsigned a_regs() const { return row_bits() / 128; }                // 16 rows x row_bits / 2, over 32 lanes
  // The largest selector the shape allows: one metadata thread per group of four (0..3), a pair (0..1) or all (0).
  unsigned max_selector() const { return chunks() == 4 ? 3 : chunks() == 8 ? 1 : 0; }

  struct MetaPos {
    unsigned lane, bit;  // lane: offset from 4 * groupID
  };
  // The lane and bit holding the nibble of chunk c of row `row` (9.7.14.6.2 Figures 119-147; 9.7.15.6.2 Figures
  // 176, 180-181): with 16-bit units, rows g and g+8 share a register (row g + 8 in bits 16..31), four chunks a lane;
  // with 8-bit units, a lane holds eight chunks of one row (rows g + 8 in the pair's odd lane; with sixteen chunks,
  // chunks 8.. in lanes 2 and 3).
  MetaPos meta_pos(unsigned row, unsigned c) const {
    const unsigned hi = row / 8, sel = selector;
    if (unit_bits() == 16) return chunks() == 4 ? MetaPos{sel, 4 * c + 16 * hi} : MetaPos{2 * sel + c / 4, 4 * (c % 4) + 16 * hi};
    return chunks() == 8 ? MetaPos{2 * sel + hi, 4 * c} : MetaPos{hi + 2 * (c / 8), 4 * (c % 8)};
  }
};

// A nibble decompress could not use: its lane (in the warp) and bit; lane < 0 when every nibble was usable.
struct BadNibble {
  int lane = -1;
  unsigned nibble = 0, bit = 0;
};

// The dense 16 x k values of A (A[row * k + col]) from `packed`, the stored bits of row r at words
// [r * row_bits / 64, (r + 1) * row_bits / 64), and the lanes' metadata words (`has_meta`: the lanes that gave one;
// the others' chunks stay zero). Lane l (g = l >> 2, t = l % 4) holds in A register r the 32 bits at
// 32 (t + 4 (r / 2)) of row g + 8 (r % 2): pack_register() places them. `strict` (mma.sp, 9.7.14.6.1): only the
// meaningful nibbles (two increasing indices; .tf32: 0b0100, 0b1110); otherwise (wgmma, 9.7.15.6.1: "two 2-bit
// indices", each 0b00-0b11) any two distinct indices.
BadNibble decompress(const SparseA& s, bool strict, const std::vector<std::uint32_t>& packed, const std::vector<std::uint32_t>& meta,
                     const std::vector<bool>& has_meta, std::vector<double>& A);
inline void pack_register(const SparseA& s, std::vector<std::uint32_t>& packed, unsigned lane, unsigned r, std::uint32_t word) {
  packed[((lane >> 2) + 8 * (r % 2)) * (s.row_bits() / 64) + lane % 4 + 4 * (r / 2)] = word;
}
// Stored element j of row `row` (A from a shared-memory descriptor, wgmma.mma_async.sp): at bit j * elem_bits of
// the row's stored bits.
inline void pack_stored(const SparseA& s, std::vector<std::uint32_t>& packed, unsigned row, unsigned j, std::uint32_t bits) {
  const unsigned at = j * s.elem_bits, mask = s.elem_bits >= 32 ? ~0u : (1u << s.elem_bits) - 1;
  packed[row * (s.row_bits() / 64) + at / 32] |= (bits & mask) << (at % 32);
}

}  // namespace ptx::interp
