// Matrices in shared memory for the tensor-core tests (test_wgmma.cpp, test_tcgen05.cpp): a CuTe layout
// evaluator, element types with exactly representable small values, and the canonical layouts of ISA 9.7.15.5.1.10
// (= 9.7.16.3.3) placing element (mn, k) in bytes, with the descriptor each instruction family encodes for them.
#pragma once

#include "semantics/ir/build.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace matrix_test {
// A CuTe mode: (size, stride) pairs, a coordinate split colexicographically.
using Mode = std::vector<std::pair<long, long>>;
inline long eval(const Mode& m, long c) {
  long off = 0;
  for (auto [size, stride] : m) off += (c % size) * stride, c /= size;
  return off;
}

struct Type {
  const char* name;
  int bytes;
  // encodings of 0, 0.5, 1, 2, 3 (a sign bit of the top bit gives the negatives): from each format's definition
  std::uint32_t enc[5];
};
const Type kF16{"f16", 2, {0, 0x3800, 0x3c00, 0x4000, 0x4200}}, kBF16{"bf16", 2, {0, 0x3f00, 0x3f80, 0x4000, 0x4040}},
    kTF32{"tf32", 4, {0, 0x3f000000, 0x3f800000, 0x40000000, 0x40400000}}, kE4M3{"e4m3", 1, {0, 0x30, 0x38, 0x40, 0x44}},
    kE5M2{"e5m2", 1, {0, 0x38, 0x3c, 0x40, 0x42}}, kS8{"s8", 1, {}}, kU8{"u8", 1, {}};
// .kind::f8f6f4's 6- and 4-bit types, each in an 8-bit container (9.7.14.5.14: .e2m1 in the central bits 5..2,
// .e3m2/.e2m3 in bits 5..0), from 5.2.5's formats: e3m2 (bias 3) 0.5 = 0.10.00, 1 = 0.11.00, 2 = 1.00.00 (e = 4),
// 3 = 1.00.10; e2m3 (bias 1) 0.5 = subnormal 0.00.100, 1 = 0.01.000, 2 = 0.10.000, 3 = 0.10.100; e2m1 (bias 1)
// 0.5 = 0.00.1, 1 = 0.01.0, 2 = 0.10.0, 3 = 0.10.1, shifted left by 2. The sign is bit 5 of the container.
const Type kE3M2{"e3m2", 1, {0, 0x08, 0x0c, 0x10, 0x12}}, kE2M3{"e2m3", 1, {0, 0x04, 0x08, 0x10, 0x14}},
    kE2M1{"e2m1", 1, {0, 0x1 << 2, 0x2 << 2, 0x4 << 2, 0x5 << 2}};
inline std::uint32_t sign_bit(const Type& t) {
  const std::string n = t.name;
  return n == "e3m2" || n == "e2m3" || n == "e2m1" ? 0x20u : 1u << (8 * t.bytes - 1);
}
const double kValue[5] = {0, 0.5, 1, 2, 3};

// A matrix in shared memory: descriptor fields and its canonical layout (in elements, 9.7.15.5.1.10).
// ISA 5.5.7, the 128-byte swizzle's 32-byte atomicity sub-mode, as its table prints it: in 128-byte line r % 4 of
// the destination, position p (16 bytes each) holds the source's 16-byte element kAtom32Table[r % 4][p].
constexpr int kAtom32Table[4][8] = {{0, 1, 2, 3, 4, 5, 6, 7}, {2, 3, 0, 1, 6, 7, 4, 5}, {4, 5, 6, 7, 0, 1, 2, 3}, {6, 7, 4, 5, 2, 3, 0, 1}};

struct Smem {
  int swizzle = 0;  // bytes: 0, 32, 64, 128
  bool mn_major = false;
  long lbo = 0, sbo = 0, start = 0;  // bytes; start: from the 1024-aligned region
  // tcgen05 mode 1, the 128-byte swizzle with 32-byte atomicity: MN-major swizzle atoms of 8 x 4 16-byte elements
  // (Table 55), four k per atom, the table above as the swizzle.
  bool atom32 = false;
  // tcgen05's encoding (9.7.16.4.1, Table 42): bits 46-48 hold 0b001, the swizzling mode is bits 61-63 (0 none,
  // 2 128B, 4 64B, 6 32B).
  std::uint64_t tcgen05_desc(long region) const {
    const std::uint64_t mode = atom32 ? 1 : swizzle == 128 ? 2 : swizzle == 64 ? 4 : swizzle == 32 ? 6 : 0;
    return (((region + start) & 0x3ffff) >> 4) | ((lbo & 0x3ffff) >> 4) << 16 | ((sbo & 0x3ffff) >> 4) << 32 | 1ull << 46 | mode << 61;
  }
  // wgmma's encoding (9.7.15.5.1.11): the layout type is bits 62-63 (1 128B, 2 64B, 3 32B).
  std::uint64_t desc(long region) const {
    const std::uint64_t layout = swizzle == 128 ? 1 : swizzle == 64 ? 2 : swizzle == 32 ? 3 : 0;
    return (((region + start) & 0x3ffff) >> 4) | ((lbo & 0x3ffff) >> 4) << 16 | ((sbo & 0x3ffff) >> 4) << 32 | layout << 62;
  }
  // The byte offset (from the region) of element (mn, k) of a matrix of eb-byte elements, swizzle applied.
  long place(int eb, long region, int mn, int k) const {
    const long T = 16 / eb, S = swizzle ? swizzle / 16 : 1, big = 1 << 20;
    Mode mnm, km;
    if (!mn_major) {
      mnm = {{8, S * T}, {big, sbo / eb}};
      km = {{T, 1}, {swizzle ? S : 2, swizzle ? T : lbo / eb}};  // swizzled: K runs on through the swizzle row
    } else if (!swizzle) {
      mnm = {{T, 1}, {1, T}, {big, sbo / eb}};
      km = {{8, T}, {big, lbo / eb}};
    } else {
      mnm = {{T, 1}, {S, T}, {big, lbo / eb}};
      km = {{atom32 ? 4 : 8, S * T}, {big, sbo / eb}};
    }
    const long a = region + start + (eval(mnm, mn) + eval(km, k)) * eb;
    if (atom32) {  // the element's 16-byte position in its line, found in the table's row for the line
      const long line = a >> 7, element = (a >> 4) & 7;
      int p = 0;
      while (kAtom32Table[line % 4][p] != element) ++p;
      return (line << 7) + p * 16 + (a & 15);
    }
    // Swizzle<B,4,3> on the address
    const long bits = swizzle == 128 ? 7 : swizzle == 64 ? 3 : swizzle == 32 ? 1 : 0;
    return a ^ (((a >> 7) & bits) << 4);
  }
};

inline Smem kmajor(int swizzle, bool is_a, long start = 0) {
  if (!swizzle) return is_a ? Smem{0, false, 1024, 128, start} : Smem{0, false, 128, 384, start};  // LBO, SBO with a gap
  return Smem{swizzle, false, 16, 8 * swizzle, start};
}
inline Smem mnmajor(int swizzle, int mn_elems, int eb) {
  const long mn_bytes = mn_elems * eb;
  if (!swizzle) return Smem{0, true, mn_bytes / 16 * 128 + 256, 128, 0};  // LBO: the next 8 k, SBO: the next 16 bytes of MN
  const long atoms = (mn_bytes + swizzle - 1) / swizzle;
  return Smem{swizzle, true, 8L * swizzle, atoms * 8 * swizzle, 0};  // LBO: the next swizzle width of MN, SBO: next 8 k
}
// An MN-major matrix in tcgen05's mode 1 (Table 55's 8 x 4 atom): LBO the next 128 bytes of MN (an atom of 512
// bytes), SBO the next four k.
inline Smem mnmajor_atom32(int mn_elems, int eb) {
  Smem s{128, true, 512, (mn_elems * eb + 127) / 128 * 512, 0};
  s.atom32 = true;
  return s;
}
// The value of a D element of type dtype (s32, f32, or f16 in half `half` of the word), exactly for the tests' values.
inline double d_value(const std::string& dtype, std::uint64_t w, int half = 0) {
  if (dtype == "s32") return static_cast<std::int32_t>(static_cast<std::uint32_t>(w));
  if (dtype == "f64") { double d; std::memcpy(&d, &w, 8); return d; }
  if (dtype == "f32") { float f; const auto u = static_cast<std::uint32_t>(w); std::memcpy(&f, &u, 4); return f; }
  const std::uint32_t h = (w >> (16 * half)) & 0xffff;
  const int e = static_cast<int>((h >> 10) & 31);
  const double mag = e ? std::ldexp(1 + (h & 1023) / 1024.0, e - 15) : std::ldexp((h & 1023) / 1024.0, -14);
  return h & 0x8000 ? -mag : mag;
}

// A module built from PTX text, kept for the rest of the test run (results and instructions point into it).
inline const ptx::ir::Module& module_of(const std::string& text, const char* file) {
  static std::vector<std::unique_ptr<ptx::ir::BuildResult>> keep;
  keep.push_back(std::make_unique<ptx::ir::BuildResult>(ptx::ir::load_ptx(text, file)));
  for (const auto& e : keep.back()->errors) FAIL(e.render());
  REQUIRE(*keep.back());
  return *keep.back()->module;
}

inline std::vector<std::uint8_t> bytes_of(const std::vector<std::uint32_t>& w) {
  std::vector<std::uint8_t> b(w.size() * 4);
  std::memcpy(b.data(), w.data(), b.size());
  return b;
}
}  // namespace matrix_test
