// The decompression of a structured-sparse A (ISA 9.7.14.6.1, 9.7.15.6.1), read at the bit level: chunk c's stored
// units 2c and 2c+1 go to units 4c + i0 and 4c + i1 (i0 in the nibble's bits 1..0, i1 in bits 3..2); the other two
// units are zero.
#include "semantics/interp/sparse_a.hpp"

#include "semantics/interp/matrix_operand.hpp"

namespace ptx::interp {
namespace {
unsigned bits_at(const std::vector<std::uint32_t>& words, unsigned at, unsigned n) {
  return (words[at / 32] >> (at % 32)) & ((1u << n) - 1);  // n <= 16, never straddling a word
}
bool usable(const SparseA& s, bool strict, unsigned nibble) {
  const unsigned i0 = nibble & 3, i1 = nibble >> 2;
  if (s.a == ir::ScalarType::tf32) return nibble == 0b0100 || nibble == 0b1110;
  return strict ? i0 < i1 : i0 != i1;
}
}  // namespace

BadNibble decompress(const SparseA& s, bool strict, const std::vector<std::uint32_t>& packed, const std::vector<std::uint32_t>& meta,
                     const std::vector<bool>& has_meta, std::vector<double>& A) {
  const unsigned ub = s.unit_bits(), row_words = s.row_bits() / 32, eb = s.elem_bits;
  A.assign(16 * s.k, 0.0);
  for (unsigned row = 0; row < 16; ++row) {
    std::vector<std::uint32_t> full(row_words, 0);
    const std::vector<std::uint32_t> stored(packed.begin() + row * (row_words / 2), packed.begin() + (row + 1) * (row_words / 2));
    for (unsigned c = 0; c < s.chunks(); ++c) {
      const SparseA::MetaPos mp = s.meta_pos(row, c);
      const unsigned lane = 4 * (row % 8) + mp.lane;
      if (!has_meta[lane]) continue;  // a lane that does not take part: its chunks stay zero
      const unsigned nibble = (meta[lane] >> mp.bit) & 15;
      if (!usable(s, strict, nibble)) return {static_cast<int>(lane), nibble, mp.bit};
      for (unsigned j = 0; j < 2; ++j) {
        const unsigned to = (4 * c + ((nibble >> (2 * j)) & 3)) * ub;
        full[to / 32] |= bits_at(stored, (2 * c + j) * ub, ub) << (to % 32);
      }
    }
    for (unsigned k = 0; k < s.k; ++k) A[row * s.k + k] = matrix_element_value(s.a, eb == 32 ? full[k] : bits_at(full, k * eb, eb));
  }
  return {};
}

}  // namespace ptx::interp
