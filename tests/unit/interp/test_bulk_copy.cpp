// Bulk asynchronous copies in the interpreter (PTX ISA 9.0 9.7.9.25.4-6) on the kernels of data/bulk_copy.ptx
// (valid for ptxas -arch=sm_90a): expected memory contents are computed here from the spec's definitions
// (copy, reduce table, .tile box with out-of-bound fill, 5.5.7 swizzle tables), not taken from a run.
#include "semantics/interp/launch.hpp"
#include "semantics/interp/launch_json.hpp"
#include "semantics/interp/tensor_map_layout.hpp"
#include "semantics/ir/build.hpp"
#include "tests/unit/interp/kernel_run.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <bit>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>
#include <string>

using namespace ptx::interp;
using interp_test::buf;
using interp_test::u32;
using interp_test::word;

namespace {
const ptx::ir::Module& bulk_module() { return interp_test::data_module("bulk_copy.ptx"); }

std::vector<std::uint8_t> words(const std::vector<std::uint32_t>& w) {
  std::vector<std::uint8_t> b(w.size() * 4);
  std::memcpy(b.data(), w.data(), b.size());
  return b;
}

RunResult roundtrip(std::uint32_t size, std::uint32_t expect, std::uint32_t cta_form, std::uint32_t src_off, const std::vector<std::uint8_t>& in,
                    Options opt = {}) {
  Launch l;
  l.kernel = "roundtrip";
  l.block = {32, 1, 1};
  l.buffers = {{"out", std::vector<std::uint8_t>(1024)}, {"in", in}};
  l.params = {buf("out"), buf("in"), u32(size), u32(expect), u32(cta_form), u32(src_off)};
  return run(bulk_module(), l, opt);
}
std::vector<std::uint8_t> pattern(std::size_t n) {
  std::vector<std::uint8_t> b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(i * 7 + 3);
  return b;
}
}  // namespace

TEST_CASE("cp.async.bulk global -> shared with complete_tx, then shared -> global bulk_group (ISA 9.7.9.25.4.1, 9.7.9.25.6)") {
  const auto in = pattern(512);
  for (std::uint32_t cta_form : {0u, 1u})
    for (std::uint32_t size : {256u, 128u, 16u}) {
      CAPTURE(cta_form);
      CAPTURE(size);
      const RunResult r = roundtrip(size, size, cta_form, 0, in);
      REQUIRE_MESSAGE(r.ok(), r.problem.message);
      const auto& out = r.buffers[0].second;
      for (std::size_t k = 0; k < 512; ++k) CHECK(out[k] == (k < size ? in[k] : 0));  // the bulk_group copy back
      for (std::size_t i = 0; i < 32; ++i) {  // word i of shared memory, read after the wait by thread i
        std::uint32_t expect = 0;
        if (4 * i < size) std::memcpy(&expect, in.data() + 4 * i, 4);
        CHECK(word(r, 0, 128 + i) == expect);
      }
    }
}

TEST_CASE("cp.async.bulk: expect_tx of more bytes than copied never completes the phase: a deadlock (ISA 9.7.13.15.6)") {
  const RunResult r = roundtrip(128, 144, 0, 0, pattern(512));
  CHECK(r.problem.kind == Problem::Kind::deadlock);
  CHECK(r.problem.message.find("tx-count 16") != std::string::npos);
  CHECK(r.problem.threads.size() == 8);
  for (std::uint64_t seed : {1, 2, 3}) {  // the same with copies completing late
    Options opt;
    opt.seed = seed;
    const RunResult s = roundtrip(128, 144, 1, 0, pattern(512), opt);
    CHECK(s.problem.kind == Problem::Kind::deadlock);
    CHECK(s.problem.message.find("tx-count 16") != std::string::npos);
  }
  // The exact count completes the phase: no deadlock; one byte less is a negative tx-count, also never 0.
  CHECK(roundtrip(128, 128, 0, 0, pattern(512)).ok());
  CHECK(roundtrip(128, 112, 0, 0, pattern(512)).problem.kind == Problem::Kind::deadlock);
}

TEST_CASE("cp.async.bulk: a size that is not a multiple of 16, or an address not 16-byte aligned, stops the run") {
  const RunResult r = roundtrip(40, 40, 0, 0, pattern(512));
  CHECK(r.problem.kind == Problem::Kind::misaligned);
  CHECK(r.problem.message.find("size 40") != std::string::npos);
  const RunResult a = roundtrip(32, 32, 1, 8, pattern(512));
  CHECK(a.problem.kind == Problem::Kind::misaligned);
  const RunResult oob = roundtrip(256, 256, 0, 384, pattern(512));  // [in + 384, + 256) overruns `in`
  CHECK(oob.problem.kind == Problem::Kind::out_of_bounds);
}

TEST_CASE("cp.async.bulk with --seed: completion may come late, but no later than the mbarrier wait (ISA 9.7.9.25.1)") {
  const auto in = pattern(512);
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    Options opt;
    opt.seed = seed;
    const RunResult r = roundtrip(256, 256, seed & 1, 0, in, opt);
    REQUIRE_MESSAGE(r.ok(), r.problem.message);
    CHECK(std::equal(in.begin(), in.begin() + 256, r.buffers[0].second.begin()));
  }
  // Reading the destination before the wait sees the copy (completed at issue) without a seed, and with some seeds
  // the old contents (0); after the wait always the copy.
  Launch l;
  l.kernel = "early_read";
  l.buffers = {{"out", std::vector<std::uint8_t>(8)}, {"in", words({0x11223344, 5, 6, 7})}};
  l.params = {buf("out"), buf("in")};
  const RunResult plain = run(bulk_module(), l);
  REQUIRE(plain.ok());
  CHECK(word(plain, 0, 0) == 0x11223344u);
  std::set<std::uint32_t> early;
  for (std::uint64_t seed = 1; seed <= 16; ++seed) {
    Options opt;
    opt.seed = seed;
    const RunResult r = run(bulk_module(), l, opt);
    REQUIRE(r.ok());
    early.insert(word(r, 0, 0));
    CHECK(word(r, 0, 1) == 0x11223344u);
  }
  CHECK(early == std::set<std::uint32_t>{0u, 0x11223344u});
}

TEST_CASE("cp.async.bulk.wait_group N: all but the N most recent bulk async-groups are complete (ISA 9.7.9.25.6.2)") {
  Launch l;
  l.kernel = "groups";
  l.buffers = {{"out", std::vector<std::uint8_t>(44)}};
  l.params = {buf("out")};
  std::set<std::uint32_t> second;
  for (std::uint64_t seed = 0; seed <= 16; ++seed) {
    Options opt;
    opt.seed = seed;
    const RunResult r = run(bulk_module(), l, opt);
    REQUIRE_MESSAGE(r.ok(), r.problem.message);
    CHECK(word(r, 0, 8) == 7);    // the first group, complete after wait_group 1
    CHECK(word(r, 0, 10) == 9);   // the second, complete after wait_group 0
    second.insert(word(r, 0, 9));  // the second after wait_group 1: done or not
    if (seed == 0) CHECK(word(r, 0, 9) == 9);  // without a seed every copy completes at issue
  }
  CHECK(second == std::set<std::uint32_t>{0u, 9u});
}

TEST_CASE("cp.reduce.async.bulk .global bulk_group: each element reduced by the operation of the type table (ISA 9.7.9.25.4.2)") {
  // out starts as old[k] = 3 * k - 40 (as u32); sources: pos[i] = i + 1, neg[i] = -(i + 1), flt[i] = float(i + 1).
  std::vector<std::uint32_t> old(320);
  for (std::size_t k = 0; k < old.size(); ++k) old[k] = static_cast<std::uint32_t>(3 * static_cast<std::int32_t>(k) - 40);
  for (std::size_t i = 0; i < 32; ++i) old[256 + i] = std::bit_cast<std::uint32_t>(0.5f * static_cast<float>(i));
  Launch l;
  l.kernel = "reduce";
  l.block = {32, 1, 1};
  l.buffers = {{"out", words(old)}};
  l.params = {buf("out")};
  const RunResult r = run(bulk_module(), l);
  REQUIRE_MESSAGE(r.ok(), r.problem.message);
  for (std::uint32_t i = 0; i < 32; ++i) {
    CAPTURE(i);
    const std::uint32_t pos = i + 1, neg = static_cast<std::uint32_t>(-static_cast<std::int32_t>(i + 1));
    auto o = [&](std::size_t region) { return old[32 * region + i]; };
    CHECK(word(r, 0, i) == o(0) + pos);                                                                     // add.u32
    CHECK(word(r, 0, 32 + i) == static_cast<std::uint32_t>(std::min<std::int32_t>(static_cast<std::int32_t>(o(1)), static_cast<std::int32_t>(neg))));  // min.s32
    CHECK(word(r, 0, 64 + i) == static_cast<std::uint32_t>(std::max<std::int32_t>(static_cast<std::int32_t>(o(2)), static_cast<std::int32_t>(neg))));  // max.s32
    CHECK(word(r, 0, 96 + i) == (o(3) ^ pos));                                                              // xor.b32
    CHECK(word(r, 0, 128 + i) == (o(4) >= pos ? 0u : o(4) + 1));                                           // inc.u32
    CHECK(word(r, 0, 160 + i) == ((o(5) == 0 || o(5) > pos) ? pos : o(5) - 1));                             // dec.u32
    CHECK(word(r, 0, 192 + i) == (o(6) & pos));                                                             // and.b32
    CHECK(word(r, 0, 224 + i) == (o(7) | pos));                                                             // or.b32
    CHECK(std::bit_cast<float>(word(r, 0, 256 + i)) == 0.5f * static_cast<float>(i) + static_cast<float>(i + 1));  // add.f32
  }
  for (std::uint32_t k = 0; k < 16; ++k) {  // add.u64 over pairs of pos words: (2k + 1) | (2k + 2) << 32
    CAPTURE(k);
    const std::uint64_t before = (std::uint64_t(old[289 + 2 * k]) << 32) | old[288 + 2 * k];
    const std::uint64_t after = (std::uint64_t(word(r, 0, 289 + 2 * k)) << 32) | word(r, 0, 288 + 2 * k);
    CHECK(after == before + ((std::uint64_t(2 * k + 2) << 32) | (2 * k + 1)));
  }
}

TEST_CASE("cp{.reduce}.async.bulk.shared::cluster.shared::cta between the 2 CTAs of a cluster (ISA 9.7.9.25.4.1-2)") {
  Launch l;
  l.kernel = "dsmem";
  l.grid = {2, 1, 1};
  l.block = {32, 1, 1};
  l.buffers = {{"out", std::vector<std::uint8_t>(512)}};
  l.params = {buf("out")};
  for (std::uint64_t seed : {0, 1, 2, 3}) {
    Options opt;
    opt.seed = seed;
    const RunResult r = run(bulk_module(), l, opt);
    REQUIRE_MESSAGE(r.ok(), r.problem.message);
    for (std::uint32_t rank = 0; rank < 2; ++rank)
      for (std::uint32_t i = 0; i < 32; ++i) {
        const std::uint32_t peer = (1 - rank) * 1000 + i;  // the other CTA's src, copied into this CTA's dst
        CHECK(word(r, 0, rank * 32 + i) == peer);
        CHECK(word(r, 0, 64 + rank * 32 + i) == 2 * peer);  // then its src added to it
      }
  }
}

TEST_CASE("cp.async.bulk .multicast::cluster: the copy and the complete-tx land in every CTA of ctaMask (ISA 9.7.9.25.4.1)") {
  std::vector<std::uint32_t> in(32);
  for (std::uint32_t i = 0; i < 32; ++i) in[i] = 0xabc000 + i * i;
  Launch l;
  l.kernel = "multicast";
  l.grid = {2, 1, 1};
  l.block = {32, 1, 1};
  l.buffers = {{"out", std::vector<std::uint8_t>(256)}, {"in", words(in)}};
  l.params = {buf("out"), buf("in")};
  for (std::uint64_t seed : {0, 5}) {
    Options opt;
    opt.seed = seed;
    const RunResult r = run(bulk_module(), l, opt);
    REQUIRE_MESSAGE(r.ok(), r.problem.message);
    for (std::uint32_t rank = 0; rank < 2; ++rank)
      for (std::uint32_t i = 0; i < 32; ++i) CHECK(word(r, 0, rank * 32 + i) == in[i]);
  }
}

namespace {
// A 10 x 6 tensor of u32, A[y][x] = 100 y + x, rows 48 bytes apart (2 words of padding, 0xdeadbeef), and a tensor
// map of it with an 8-wide box of `rows` rows.
struct Tile {
  RunResult r;
  std::uint32_t a(std::uint32_t x, std::uint32_t y) const { return word(r, 2, y * 12 + x); }
};
Launch tile_launch(const char* kernel, std::uint32_t rows, const std::string& swizzle) {
  std::vector<std::uint32_t> a(6 * 12, 0xdeadbeef);
  for (std::uint32_t y = 0; y < 6; ++y)
    for (std::uint32_t x = 0; x < 10; ++x) a[y * 12 + x] = 100 * y + x;
  Launch l;
  l.kernel = kernel;
  l.block = {64, 1, 1};
  l.buffers = {{"out", std::vector<std::uint8_t>(256)}, {"tmap", std::vector<std::uint8_t>(128)}, {"A", words(a)}};
  Launch::TensorMap m;
  m.buffer = "tmap";
  m.data_type = "u32";
  m.global = "A";
  m.global_dim = {10, 6};
  m.global_strides = {48};
  m.box_dim = {8, rows};
  m.element_strides = {1, 1};
  m.swizzle = swizzle;
  l.tensor_maps.push_back(m);
  return l;
}
std::vector<ParamValue> tile_params(std::int32_t x0, std::int32_t y0, std::int32_t x1, std::int32_t y1, std::uint32_t bytes) {
  return {buf("out"), buf("tmap"), u32(static_cast<std::uint32_t>(x0)), u32(static_cast<std::uint32_t>(y0)),
          u32(static_cast<std::uint32_t>(x1)), u32(static_cast<std::uint32_t>(y1)), u32(bytes)};
}
Tile tile2d(std::int32_t x0, std::int32_t y0, std::int32_t x1, std::int32_t y1, std::uint32_t rows, const std::string& swizzle = "none") {
  Launch l = tile_launch("tile2d", rows, swizzle);
  l.params = tile_params(x0, y0, x1, y1, 32 * rows);
  return {run(bulk_module(), l)};
}
}  // namespace

TEST_CASE("cp.async.bulk.tensor.2d .tile: a box partly out of bounds loads zeros there; a store skips them (ISA 5.5.3, 9.7.9.25.5.2)") {
  for (auto [x0, y0] : {std::pair{4, 3}, std::pair{-2, -1}, std::pair{0, 0}}) {
    CAPTURE(x0);
    CAPTURE(y0);
    const Tile t = tile2d(x0, y0, 2, 4, 4);
    REQUIRE_MESSAGE(t.r.ok(), t.r.problem.message);
    for (std::int32_t j = 0; j < 4; ++j)
      for (std::int32_t i = 0; i < 8; ++i) {
        const std::int32_t x = x0 + i, y = y0 + j;
        const bool in = x >= 0 && x < 10 && y >= 0 && y < 6;
        CHECK(word(t.r, 0, static_cast<std::size_t>(j * 8 + i)) == (in ? static_cast<std::uint32_t>(100 * y + x) : 0u));
      }
    // The store of src (5000 + k at box element k) at (2, 4): rows 4 and 5 of x 2..9; rows 6 and 7 are out of bounds.
    for (std::uint32_t y = 0; y < 6; ++y)
      for (std::uint32_t x = 0; x < 12; ++x) {
        const bool stored = y >= 4 && x >= 2 && x < 10;
        const std::uint32_t expect = stored ? 5000 + (y - 4) * 8 + (x - 2) : x < 10 ? 100 * y + x : 0xdeadbeef;
        CHECK(t.a(x, y) == expect);
      }
  }
}

TEST_CASE("cp.async.bulk.tensor: 32B, 64B and 128B swizzle move 16-byte chunks as the tables of ISA 5.5.7") {
  // An 8 x 8 box of u32 at (0, 0): element e = 8 y + x at byte 4e before swizzling, in 128-byte row e / 32 and
  // 16-byte chunk (e / 4) mod 8; 32B swizzle XORs the chunk with row mod 2, 64B with row mod 4.
  // A store reads each element from its swizzled place: src word w holds 5000 + w, so element e stores 5000 + w(e).
  // (The box holds 2 rows of 128 bytes, so 128B shows only its first two rows here.)
  for (auto [name, mask] : {std::pair{"32B", 1u}, std::pair{"64B", 3u}, std::pair{"128B", 7u}}) {
    CAPTURE(name);
    const Tile t = tile2d(0, 0, 0, 0, 8, name);
    REQUIRE_MESSAGE(t.r.ok(), t.r.problem.message);
    for (std::uint32_t e = 0; e < 64; ++e) {
      const std::uint32_t x = e % 8, y = e / 8;
      const std::uint32_t w = e ^ (((e / 32) & mask) << 2);  // the word the element lands in
      CHECK(word(t.r, 0, w) == (y < 6 ? 100 * y + x : 0u));
      if (y < 6) CHECK(t.a(x, y) == 5000 + w);
    }
  }
}

// The 128B mode's 32- and 64-byte atomicity (5.5.7): the tables written out as "shared chunk q of a row holds the
// box's chunk table[row][q]" in 16-byte chunks, four rows for 32B atomicity (the pattern repeats), two for 64B.
TEST_CASE("cp.async.bulk.tensor: 128B swizzle with 32- and 64-byte atomicity moves units as 5.5.7's tables") {
  const std::uint32_t k32[4][8] = {{0, 1, 2, 3, 4, 5, 6, 7}, {2, 3, 0, 1, 6, 7, 4, 5}, {4, 5, 6, 7, 0, 1, 2, 3}, {6, 7, 4, 5, 2, 3, 0, 1}};
  const std::uint32_t k64[2][8] = {{0, 1, 2, 3, 4, 5, 6, 7}, {4, 5, 6, 7, 0, 1, 2, 3}};
  for (const char* name : {"128B_atom_32B", "128B_atom_64B"})
    for (std::uint32_t off : {0u, 64u, 128u}) {
      const bool a32 = std::string(name) == "128B_atom_32B";
      if (!a32 && off == 64) continue;
      CAPTURE(name);
      CAPTURE(off);
      // A 32 x 6 box of u32: 128-byte rows, element e = 32 y + x; the tensor is 32 wide here.
      Launch l = tile_launch("tile2d_at", 6, name);
      std::vector<std::uint32_t> a(32 * 6);
      for (std::uint32_t e = 0; e < a.size(); ++e) a[e] = 7000 + e;
      l.buffers[2].second = words(a);
      l.tensor_maps[0].global_dim = {32, 6};
      l.tensor_maps[0].global_strides = {128};
      l.tensor_maps[0].box_dim = {32, 6};
      l.block = {192, 1, 1};
      l.buffers[0].second.assign(4 * 192, 0);
      l.params = {buf("out"), buf("tmap"), u32(off), u32(128 * 6)};
      const RunResult r = run(bulk_module(), l);
      REQUIRE_MESSAGE(r.ok(), r.problem.message);
      for (std::uint32_t w = 0; w < 192; ++w) {  // word w of the box's bytes, at shared byte off + 4w
        const std::uint32_t b = off + 4 * w, row = b / 128, q = (b / 16) % 8;  // rows and chunks of shared memory
        const std::uint32_t chunk = a32 ? k32[row % 4][q] : k64[row % 2][q];
        const std::uint32_t src = row * 128 + chunk * 16 + b % 16;  // the shared byte it would hold unswizzled
        // (a box that starts within a row has units whose partners lie past its end: those bytes hold no element)
        if (src >= off && src < off + 768) CHECK(word(r, 0, w) == 7000 + (src - off) / 4);
      }
    }
  // 32-byte atomicity "requires 32 byte alignment at shared memory"; 64-byte 64.
  for (auto [name, off] : {std::pair{"128B_atom_32B", 16u}, std::pair{"128B_atom_64B", 32u}}) {
    Launch l = tile_launch("tile2d_at", 6, name);
    l.tensor_maps[0].box_dim = {8, 6};
    l.params = {buf("out"), buf("tmap"), u32(off), u32(32 * 6)};
    const RunResult r = run(bulk_module(), l);
    CHECK(r.problem.kind == Problem::Kind::misaligned);
  }
}

// A box of a swizzled map that starts within the pattern's repeat: the rows of 5.5.7's table are rows of shared
// memory (its address bits 7-9), so the pattern goes on from the row the box starts in (5.5.7: "The value of swizzle
// base offset is 0 when the dstMem shared memory address is located at the following boundary: 128-Byte swizzle
// 1024-Byte boundary ..."). CUTLASS 3's Hopper GEMMs place 128B-swizzled tiles so (at 384 bytes past a 1024-byte
// boundary) and run on the hardware. Expectation: element
// e = 8 y + x (byte 4e of the box, before swizzling) at shared address B = off + 4e lands at B with its chunk bits
// 4-6 XORed with its row bits 7-9 (& 1 or 3 for 32B and 64B), written out from the table's rule here.
TEST_CASE("cp.async.bulk.tensor: a swizzled box that starts within the repeat follows the address's row (ISA 5.5.7)") {
  for (auto [name, mask] : {std::pair{"32B", 1u}, std::pair{"64B", 3u}, std::pair{"128B", 7u}})
    for (std::uint32_t off : {0u, 128u, 384u, 896u}) {
      CAPTURE(name);
      CAPTURE(off);
      Launch l = tile_launch("tile2d_at", 6, name);
      l.params = {buf("out"), buf("tmap"), u32(off), u32(32 * 6)};
      const RunResult r = run(bulk_module(), l);
      REQUIRE_MESSAGE(r.ok(), r.problem.message);
      for (std::uint32_t e = 0; e < 48; ++e) {
        const std::uint32_t b = off + 4 * e, landed = b ^ (((b >> 7) & mask) << 4);
        CHECK(word(r, 0, (landed - off) / 4) == 100 * (e / 8) + e % 8);
      }
    }
  // 16 bytes suffice (5.5.3.1), with or without a swizzle: the row a chunk is in is its address's; 8 bytes do not.
  for (const char* name : {"none", "128B"}) {
    CAPTURE(name);
    Launch l = tile_launch("tile2d_at", 6, name);
    l.params = {buf("out"), buf("tmap"), u32(16), u32(32 * 6)};
    const RunResult p = run(bulk_module(), l);
    REQUIRE_MESSAGE(p.ok(), p.problem.message);
    for (std::uint32_t e = 0; e < 48; ++e) {
      const std::uint32_t b = 16 + 4 * e, landed = std::string(name) == "none" ? b : b ^ (((b >> 7) & 7) << 4);
      CHECK(word(p, 0, (landed - 16) / 4) == 100 * (e / 8) + e % 8);
    }
    l.params = {buf("out"), buf("tmap"), u32(8), u32(32 * 6)};
    const RunResult m = run(bulk_module(), l);
    CHECK(m.problem.kind == Problem::Kind::misaligned);
    CHECK(m.problem.message.find("not 16-byte aligned") != std::string::npos);
  }
}

TEST_CASE("cp.async.bulk.tensor: OOB-NaN fill for a float tensor; elementStrides skip rows (ISA 5.5.3.2-3)") {
  // f32 map of the same bytes, oob_fill nan: an out-of-bound element reads the canonical NaN 0x7fffffff.
  Launch l = tile_launch("tile2d", 4, "none");
  l.tensor_maps[0].data_type = "f32";
  l.tensor_maps[0].oob_fill = "nan";
  l.params = tile_params(6, 4, 0, 0, 128);
  const RunResult r = run(bulk_module(), l);
  REQUIRE_MESSAGE(r.ok(), r.problem.message);
  for (std::uint32_t j = 0; j < 4; ++j)
    for (std::uint32_t i = 0; i < 8; ++i) {
      const std::uint32_t x = 6 + i, y = 4 + j;
      CHECK(word(r, 0, j * 8 + i) == (x < 10 && y < 6 ? 100 * y + x : 0x7fffffffu));
    }
  // element_strides {1, 2} with box_dim {8, 4}: ceil(4 / 2) = 2 rows, y0 and y0 + 2 (64 bytes of tx); the store
  // at (2, 4) writes row 4 only (row 6 is out of bounds).
  Launch s = tile_launch("tile2d", 4, "none");
  s.tensor_maps[0].element_strides = {1, 2};
  s.params = tile_params(1, 1, 2, 4, 64);
  const RunResult q = run(bulk_module(), s);
  REQUIRE_MESSAGE(q.ok(), q.problem.message);
  for (std::uint32_t j = 0; j < 2; ++j)
    for (std::uint32_t i = 0; i < 8; ++i) CHECK(word(q, 0, j * 8 + i) == 100 * (1 + 2 * j) + 1 + i);
  for (std::uint32_t k = 16; k < 64; ++k) CHECK(word(q, 0, k) == 0);
  for (std::uint32_t x = 0; x < 10; ++x) {
    CHECK(word(q, 2, 4 * 12 + x) == (x >= 2 ? 5000 + x - 2 : 400 + x));
    CHECK(word(q, 2, 5 * 12 + x) == 500 + x);
  }
}

TEST_CASE("cp.reduce.async.bulk.tensor .add.tile: in-bound elements of the box add the source (ISA 9.7.9.25.5.3)") {
  Launch l = tile_launch("tile2d_add", 4, "none");
  l.params = {buf("tmap"), u32(5), u32(3)};
  const RunResult r = run(bulk_module(), l);
  REQUIRE_MESSAGE(r.ok(), r.problem.message);
  for (std::uint32_t y = 0; y < 6; ++y)
    for (std::uint32_t x = 0; x < 12; ++x) {
      const bool in = x >= 5 && x < 10 && y >= 3;
      const std::uint32_t k = (y - 3) * 8 + (x - 5);  // the box element over (x, y): source value k + 1
      CHECK(word(r, 2, y * 12 + x) == (x >= 10 ? 0xdeadbeef : 100 * y + x + (in ? k + 1 : 0)));
    }
}

namespace {
const ptx::ir::Module& sm100_module() { return interp_test::data_module("bulk_copy_sm100.ptx"); }
}  // namespace

TEST_CASE("cp.async.bulk.tensor .cta_group::2 .multicast::cluster: each destination's signal goes to the mbarrier's side of its CTA pair (ISA 9.7.9.25.5.2)") {
  Launch l = tile_launch("pair_tile", 4, "none");
  l.grid = {4, 1, 1};
  l.block = {32, 1, 1};
  l.buffers[0].second.assign(4 * 256, 0);
  l.params = {buf("out"), buf("tmap")};
  for (std::uint64_t seed : {0, 7}) {
    CAPTURE(seed);
    Options opt;
    opt.seed = seed;
    const RunResult r = run(sm100_module(), l, opt);
    REQUIRE_MESSAGE(r.ok(), r.problem.message);  // an odd CTA's signal on its own (uninitialized) object: illegal
    for (std::uint32_t rank = 0; rank < 4; ++rank)
      for (std::uint32_t i = 0; i < 32; ++i) {
        CAPTURE(rank);
        CAPTURE(i);
        CHECK(word(r, 0, 64 * rank + i) == 100 * (i / 8) + i % 8);        // box0: rows 0-3 at (0, 0)
        CHECK(word(r, 0, 64 * rank + 32 + i) == 100 * (2 + i / 8) + i % 8);  // box1: rows 2-5 at (0, 2)
      }
  }
}

TEST_CASE("cp.async.bulk .cp_mask and cp.reduce.async.bulk .add.noftz.f16 (ISA 9.7.9.25.4.1-2, sm_100)") {
  const std::uint32_t mask = 0xa5c3;
  Launch l;
  l.kernel = "masked";
  l.block = {32, 1, 1};
  std::vector<std::uint32_t> halves(32, 0x40804080);  // 2.25, 2.25 as f16
  l.buffers = {{"out", std::vector<std::uint8_t>(128, 0xee)}, {"out2", words(halves)}};
  l.params = {buf("out"), buf("out2"), u32(mask)};
  const RunResult r = run(sm100_module(), l);
  REQUIRE_MESSAGE(r.ok(), r.problem.message);
  for (std::uint32_t k = 0; k < 128; ++k) CHECK(r.buffers[0].second[k] == ((mask >> (k % 16)) & 1 ? k : 0xee));
  for (std::uint32_t i = 0; i < 32; ++i) CHECK(word(r, 1, i) == 0x43804380u);  // 2.25 + 1.5 = 3.75 = 0x4380
}

namespace {
// four_rows of data/bulk_copy_sm100.ptx on the 10 x 6 tensor of tile_launch (rows of 12 words, columns 10 and 11
// 0xdeadbeef, outside the tensor), a box of 8 x `box_rows`: gather4 from column x0 of rows y, scatter4 of
// 5000 + k (word k of src) to column x1 of rows z.
RunResult four_rows(std::int32_t x0, std::array<std::int32_t, 4> y, std::int32_t x1, std::array<std::int32_t, 4> z, std::uint32_t box_rows = 1) {
  Launch l = tile_launch("four_rows", box_rows, "none");
  l.block = {32, 1, 1};
  auto i32 = [](std::int32_t v) { return u32(static_cast<std::uint32_t>(v)); };
  l.params = {buf("out"), buf("tmap"), i32(x0), i32(y[0]), i32(y[1]), i32(y[2]), i32(y[3]), i32(x1), i32(z[0]), i32(z[1]), i32(z[2]), i32(z[3]),
              u32(4 * 8 * 4)};
  return run(sm100_module(), l);
}
}  // namespace

TEST_CASE("cp.async.bulk.tensor.2d .tile::gather4 / .tile::scatter4: four rows of one column range (ISA 5.5.3.4)") {
  // 5.5.3.4: "four rows in the source 2D tensor are combined to form single 2D destination tensor"; tensorCoords
  // {col_idx, row_idx0..3} (9.7.9.25.5.2); the rows of the tile mode's rules: elements outside the tensor load
  // zeros and are not stored (5.5.3.3). Rows 2, 5, 0, 9 from column 4 (5.5.3.4.1's Figure 10 takes rows 2, 5, 0, 9
  // too): row 9 and columns 10, 11 are outside. Complete-tx counts the four rows (128 bytes, the kernel's expect-tx).
  const RunResult r = four_rows(4, {2, 5, 0, 9}, 2, {4, 1, 7, 0});
  REQUIRE_MESSAGE(r.ok(), r.problem.message);
  const std::int32_t rows[4] = {2, 5, 0, 9};
  for (std::int32_t j = 0; j < 4; ++j)
    for (std::int32_t i = 0; i < 8; ++i) {
      const std::int32_t x = 4 + i, y = rows[j];
      CHECK(word(r, 0, static_cast<std::size_t>(8 * j + i)) == (x < 10 && y < 6 ? static_cast<std::uint32_t>(100 * y + x) : 0u));
    }
  // The scatter: src row j (words 8j..8j+7) to tensor row z_j, columns 2..9; row 7 is outside and skipped.
  const std::int32_t to[4] = {4, 1, 7, 0};
  for (std::uint32_t y = 0; y < 6; ++y)
    for (std::uint32_t x = 0; x < 12; ++x) {
      std::uint32_t expect = x < 10 ? 100 * y + x : 0xdeadbeef;
      for (std::uint32_t j = 0; j < 4; ++j)
        if (static_cast<std::int32_t>(y) == to[j] && x >= 2 && x < 10) expect = 5000 + 8 * j + (x - 2);
      CHECK(word(r, 2, y * 12 + x) == expect);
    }
}

TEST_CASE("cp.async.bulk.tensor .tile::gather4: a box more than one row high is illegal, as is a negative store row") {
  // 5.5.3.4.1: "The size of the bounding box in the dimension 1 must be one."
  const RunResult tall = four_rows(0, {0, 1, 2, 3}, 0, {0, 1, 2, 3}, 2);
  CHECK(tall.problem.kind == Problem::Kind::illegal);
  CHECK(tall.problem.message.find("size 1 in dimension 1") != std::string::npos);
  // 9.7.9.25.5.1: in the .global.shared::cta direction the starting coordinates must be non-negative.
  const RunResult negative = four_rows(0, {0, 1, 2, 3}, 0, {0, 1, -1, 3});
  CHECK(negative.problem.kind == Problem::Kind::illegal);
  CHECK(negative.problem.message.find("non-negative") != std::string::npos);
}

namespace {
// replaced_tile of data/tensormap.ptx over a map of A (10 x 6 words, rows of 12) whose copy points at B instead.
RunResult replaced_tile(std::uint32_t width, std::uint32_t rows, std::int32_t x, std::int32_t y, std::uint32_t field) {
  std::vector<std::uint32_t> a(6 * 12, 0), b(6 * 12, 0);
  for (std::uint32_t r = 0; r < 6; ++r)
    for (std::uint32_t c = 0; c < 12; ++c) {
      a[r * 12 + c] = 100 * r + c;
      b[r * 12 + c] = 1000 + 100 * r + c;
    }
  Launch l = tile_launch("replaced_tile", 4, "none");
  l.buffers = {{"out", std::vector<std::uint8_t>(256)}, {"tmap", std::vector<std::uint8_t>(128)}, {"A", words(a)},
               {"gmap", std::vector<std::uint8_t>(128)}, {"B", words(b)}};
  l.block = {32, 1, 1};
  l.params = {buf("out"), buf("tmap"), buf("gmap"), buf("B"), u32(width), u32(rows), u32(static_cast<std::uint32_t>(x)),
              u32(static_cast<std::uint32_t>(y)), u32(8 * rows * 4), u32(field)};
  return run(interp_test::data_module("tensormap.ptx"), l);
}
}  // namespace

TEST_CASE("tensormap.replace edits a copy of a tensor map; cp_fenceproxy publishes it for a tensor copy (ISA 9.7.9.26, 9.7.13.16)") {
  // The copy now names B with global_dim 0 = 4 and box_dim 1 = 2 (box 8 x 2); the box at (2, 1) holds B's
  // elements where x < 4, zeros elsewhere (5.5.3: out-of-bound elements of the box are filled with zeros).
  const RunResult r = replaced_tile(4, 2, 2, 1, 0);
  REQUIRE_MESSAGE(r.ok(), r.problem.message);
  for (std::uint32_t j = 0; j < 2; ++j)
    for (std::uint32_t i = 0; i < 8; ++i) {
      const std::uint32_t x = 2 + i, yy = 1 + j;
      CHECK(word(r, 0, j * 8 + i) == (x < 4 ? 1000 + 100 * yy + x : 0u));
    }
  // A box dimension of 0 is no tensor map cuTensorMapEncodeTiled could make: the replace stops the run.
  const RunResult bad = replaced_tile(4, 2, 2, 1, 1);
  CHECK(bad.problem.kind == Problem::Kind::illegal);
  CHECK(bad.problem.message.find("box_dim must be 1 to 256") != std::string::npos);
}

TEST_CASE("tensor maps: bad descriptions are refused; bytes that are no tensor map are illegal") {
  nlohmann::json j = nlohmann::json::parse(R"({"buffers": {"A": {"zero_bytes": 256},
      "tmap": {"zero_bytes": 128, "tensor_maps": [{"at": 0, "data_type": "f32", "global": {"buffer": "A"},
        "global_dim": [10, 6], "global_strides": [40], "box_dim": [8, 4]}]}}})");
  Launch l;
  std::string error;
  CHECK_FALSE(launch_from_json(j, l, error));
  CHECK(error.find("global_strides must be multiples of 16") != std::string::npos);
  j["buffers"]["tmap"]["tensor_maps"][0]["global_strides"] = {48};
  j["buffers"]["tmap"]["tensor_maps"][0]["swizzle"] = "128B_atom_32B_flip_8B";
  CHECK_FALSE(launch_from_json(j, l = {}, error));
  CHECK(error.find("is not modelled") != std::string::npos);
  CHECK(error.find("every alternate shared memory line") != std::string::npos);
  j["buffers"]["tmap"]["tensor_maps"][0]["swizzle"] = "32B";
  j["buffers"]["tmap"]["tensor_maps"][0]["box_dim"] = {16, 4};  // 64 bytes wide: more than the 32B span
  CHECK_FALSE(launch_from_json(j, l = {}, error));
  CHECK(error.find("exceeds the swizzle span") != std::string::npos);
  j["buffers"]["tmap"]["tensor_maps"][0]["box_dim"] = {8, 4};
  j["buffers"]["tmap"]["tensor_maps"][0]["oob_fill"] = "nan";
  CHECK(launch_from_json(j, l = {}, error));
  REQUIRE(l.tensor_maps.size() == 1);
  CHECK(l.tensor_maps[0].global_strides == std::vector<std::uint64_t>{48});

  // tmap all zeros: not a tensor map.
  Launch k;
  k.kernel = "tile2d";
  k.block = {64, 1, 1};
  k.buffers = {{"out", std::vector<std::uint8_t>(256)}, {"tmap", std::vector<std::uint8_t>(128)}};
  k.params = {buf("out"), buf("tmap"), u32(0), u32(0), u32(0), u32(0), u32(128)};
  const RunResult r = run(bulk_module(), k);
  CHECK(r.problem.kind == Problem::Kind::illegal);
  CHECK(r.problem.message.find("not a tensor map") != std::string::npos);
}

TEST_CASE("cp.async.bulk.tensor .b4x16: whole 64-bit containers of sixteen 4-bit values, copied as is (ISA 5.5.1.1)") {
  // The 10 x 6 u32 tensor of tile_launch as .b4x16: a row is 80 values (40 bytes, 5 containers: container k is
  // words 2k, 2k + 1), rows 48 bytes apart. Dimensions and coordinates count 4-bit values (cuda.h); the box is 32
  // values (2 containers, 16 bytes) x 4 rows, 64 bytes, the complete-tx the kernel expects.
  Launch l = tile_launch("tile2d", 4, "none");
  Launch::TensorMap& m = l.tensor_maps[0];
  m.data_type = "b4x16";
  m.global_dim = {80, 6};
  m.box_dim = {32, 4};
  {
    // Load at (16, 3): containers 1-2 (words 2-5) of rows 3-6, row 6 out of bounds (zeros). Store at (32, 4):
    // src words 4j .. 4j + 3 (5000 + w) to containers 2-3 (words 4-7) of rows 4 and 5; rows 6 and 7 skipped.
    l.params = tile_params(16, 3, 32, 4, 64);
    const RunResult r = run(bulk_module(), l);
    REQUIRE_MESSAGE(r.ok(), r.problem.message);
    for (std::uint32_t k = 0; k < 16; ++k) {
      const std::uint32_t y = 3 + k / 4, x = 2 + k % 4;
      CHECK(word(r, 0, k) == (y < 6 ? 100 * y + x : 0u));
    }
    for (std::uint32_t y = 0; y < 6; ++y)
      for (std::uint32_t x = 0; x < 12; ++x) {
        const bool stored = y >= 4 && x >= 4 && x < 8;
        CHECK(word(r, 2, y * 12 + x) == (stored ? 5000 + 4 * (y - 4) + (x - 4) : x < 10 ? 100 * y + x : 0xdeadbeef));
      }
  }
  {
    // Load at (64, 0): container 4 (words 8-9) is in the tensor, container 5 (values 80-95) past its end: zeros.
    l.params = tile_params(64, 0, 0, 0, 64);
    const RunResult r = run(bulk_module(), l);
    REQUIRE_MESSAGE(r.ok(), r.problem.message);
    for (std::uint32_t k = 0; k < 16; ++k) CHECK(word(r, 0, k) == (k % 4 < 2 ? 100 * (k / 4) + 8 + k % 4 : 0u));
  }
  // A box starting inside a container is not what 5.5.1.1 defines: refused, not guessed.
  l.params = tile_params(8, 0, 0, 0, 64);
  const RunResult r = run(bulk_module(), l);
  CHECK(r.problem.kind == Problem::Kind::unsupported);
  CHECK(r.problem.message.find("multiples of 16") != std::string::npos);
}

TEST_CASE("tensor maps: the padded sub-byte types and interleaved layouts are refused with what ISA 5.5.1.1 / 5.5.6 leave open") {
  nlohmann::json j = nlohmann::json::parse(R"({"buffers": {"A": {"zero_bytes": 256},
      "tmap": {"zero_bytes": 128, "tensor_maps": [{"at": 0, "data_type": "b4x16", "global": {"buffer": "A"},
        "global_dim": [80, 6], "global_strides": [48], "box_dim": [24, 4]}]}}})");
  Launch l;
  std::string error;
  CHECK_FALSE(launch_from_json(j, l, error));  // 24 values end inside a container
  CHECK(error.find("multiples of 16") != std::string::npos);
  j["buffers"]["tmap"]["tensor_maps"][0]["box_dim"] = {32, 4};
  CHECK(launch_from_json(j, l = {}, error));
  for (const char* type : {"b4x16_p64", "b6x16_p32", "b6p2x16"}) {
    CAPTURE(type);
    j["buffers"]["tmap"]["tensor_maps"][0]["data_type"] = type;
    CHECK_FALSE(launch_from_json(j, l = {}, error));
    CHECK(error.find("is not modelled: 5.5.1.1 appends padding") != std::string::npos);
  }
  j["buffers"]["tmap"]["tensor_maps"][0]["data_type"] = "u32";
  j["buffers"]["tmap"]["tensor_maps"][0]["box_dim"] = {8, 4};
  j["buffers"]["tmap"]["tensor_maps"][0]["interleave"] = "16B";
  CHECK_FALSE(launch_from_json(j, l = {}, error));
  CHECK(error.find("is not modelled (only none): 5.5.6 names NC/8DHWC8") != std::string::npos);
}

namespace {
// A 4D NHWC tensor of u32 (ISA 5.5.4: dimension 0 C, 1 W, 2 H, 3 N): C = 4, W = 3, H = 3, N = 2, dense
// (strides 16, 48, 144 bytes), element (c, w, h, n) = 1000 n + 100 h + 10 w + c; an im2col map of it with the
// bounding box of a 3 x 3 filter with padding 1 (corners -1, -1: filter bases W, H in [-1, 3 - 1 - 1] = [-1, 1]),
// 4 channels per pixel and 8 pixels per column (a column of 8 x 16 bytes).
std::uint32_t nhwc(std::int32_t c, std::int32_t w, std::int32_t h, std::int32_t n) { return static_cast<std::uint32_t>(1000 * n + 100 * h + 10 * w + c); }
struct Im2col {
  RunResult r;
  std::uint32_t a(std::int32_t c, std::int32_t w, std::int32_t h, std::int32_t n) const { return word(r, 2, static_cast<std::size_t>(36 * n + 12 * h + 4 * w + c)); }
};
Launch im2col_launch(std::vector<std::uint32_t> element_strides = {1, 1, 1, 1}, std::int32_t lower = -1) {
  std::vector<std::uint32_t> a(4 * 3 * 3 * 2);
  for (std::int32_t n = 0; n < 2; ++n)
    for (std::int32_t h = 0; h < 3; ++h)
      for (std::int32_t w = 0; w < 3; ++w)
        for (std::int32_t c = 0; c < 4; ++c) a[static_cast<std::size_t>(36 * n + 12 * h + 4 * w + c)] = nhwc(c, w, h, n);
  Launch l;
  l.kernel = "im2col4d";
  l.block = {32, 1, 1};
  l.buffers = {{"out", std::vector<std::uint8_t>(128)}, {"tmap", std::vector<std::uint8_t>(128)}, {"A", words(a)}};
  Launch::TensorMap m;
  m.buffer = "tmap";
  m.data_type = "u32";
  m.global = "A";
  m.global_dim = {4, 3, 3, 2};
  m.global_strides = {16, 48, 144};
  m.element_strides = std::move(element_strides);
  m.im2col = true;
  m.pixel_box_lower_corner = {lower, lower};
  m.pixel_box_upper_corner = {-1, -1};
  m.channels_per_pixel = 4;
  m.pixels_per_column = 8;
  l.tensor_maps.push_back(m);
  return l;
}
Im2col im2col4d(Launch l, std::int32_t c, std::int32_t w, std::int32_t h, std::int32_t n, std::uint32_t offw, std::uint32_t offh,
                bool store = false) {
  auto s = [](std::int32_t v) { return u32(static_cast<std::uint32_t>(v)); };
  l.params = {buf("out"), buf("tmap"), s(c), s(w), s(h), s(n), u32(offw), u32(offh), u32(128), u32(store)};
  return {run(bulk_module(), l)};
}
// Pixel p of a column, (w, h, n) of the tensor, worked out by hand from 5.5.4; w = -9: out of bounds.
struct Pixel {
  std::int32_t w, h, n;
};
constexpr std::int32_t kOut = -9;
}  // namespace

TEST_CASE("cp.async.bulk.tensor.4d .im2col: pixels of the bounding box in W, H, N order, plus the im2col offsets (ISA 5.5.4)") {
  SUBCASE("filter bases from (-1, -1) of image 0, offsets (1, 2): the last two pixels fall below H = 3 and are zeros") {
    // Bases (w, h): (-1,-1) (0,-1) (1,-1), W wraps to -1 and H steps: (-1,0) (0,0) (1,0) (-1,1) (0,1). Pixel = base
    // + (1, 2): (0,1) (1,1) (2,1) (0,2) (1,2) (2,2) (0,3) (1,3); h = 3 is outside the tensor.
    const Pixel column[8] = {{0, 1, 0}, {1, 1, 0}, {2, 1, 0}, {0, 2, 0}, {1, 2, 0}, {2, 2, 0}, {kOut, 3, 0}, {kOut, 3, 0}};
    const Im2col t = im2col4d(im2col_launch(), 0, -1, -1, 0, 1, 2);
    REQUIRE_MESSAGE(t.r.ok(), t.r.problem.message);
    for (std::uint32_t p = 0; p < 8; ++p)
      for (std::int32_t c = 0; c < 4; ++c) {
        CAPTURE(p);
        CHECK(word(t.r, 0, p * 4 + static_cast<std::uint32_t>(c)) == (column[p].w == kOut ? 0u : nhwc(c, column[p].w, column[p].h, column[p].n)));
      }
  }
  SUBCASE("from channel 2 of the last base of the last image: channels 4, 5 and the pixels past the batch are zeros") {
    // Base (1, 1) of image 1 is the box's last; the next wraps W and H and steps N to 2, past N = 2 (5.5.4.3).
    const Im2col t = im2col4d(im2col_launch(), 2, 1, 1, 1, 0, 0);
    REQUIRE_MESSAGE(t.r.ok(), t.r.problem.message);
    CHECK(word(t.r, 0, 0) == nhwc(2, 1, 1, 1));
    CHECK(word(t.r, 0, 1) == nhwc(3, 1, 1, 1));
    for (std::uint32_t k = 2; k < 32; ++k) CHECK(word(t.r, 0, k) == 0);
  }
  SUBCASE("traversal strides 2 in W and H step the bases by 2 inside the box, then to the next image (ISA 5.5.4.2)") {
    // Bases (w, h, n): (-1,-1,0) (1,-1,0) (-1,1,0) (1,1,0) (-1,-1,1) (1,-1,1) (-1,1,1) (1,1,1); offsets (1, 1).
    const Pixel column[8] = {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}, {2, 2, 0}, {0, 0, 1}, {2, 0, 1}, {0, 2, 1}, {2, 2, 1}};
    const Im2col t = im2col4d(im2col_launch({1, 2, 2, 1}), 0, -1, -1, 0, 1, 1);
    REQUIRE_MESSAGE(t.r.ok(), t.r.problem.message);
    for (std::uint32_t p = 0; p < 8; ++p)
      for (std::int32_t c = 0; c < 4; ++c) CHECK(word(t.r, 0, p * 4 + static_cast<std::uint32_t>(c)) == nhwc(c, column[p].w, column[p].h, column[p].n));
  }
  SUBCASE(".im2col_no_offs store: lower corners 0 (9.7.9.25.5.1: a store's box stays in the tensor), bases from (0, 1)") {
    // Box W, H in [0, 1]. Bases (w, h, n): (0,1,0) (1,1,0), H wraps and N steps: (0,0,1) (1,0,1) (0,1,1) (1,1,1),
    // then (0,0,2) (1,0,2) past the batch: the load reads zeros there and the store skips them.
    const Pixel column[8] = {{0, 1, 0}, {1, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}, {kOut, 0, 2}, {kOut, 0, 2}};
    const Im2col t = im2col4d(im2col_launch({1, 1, 1, 1}, 0), 0, 0, 1, 0, 0, 0, true);
    REQUIRE_MESSAGE(t.r.ok(), t.r.problem.message);
    for (std::uint32_t p = 0; p < 8; ++p)
      for (std::int32_t c = 0; c < 4; ++c) {
        CAPTURE(p);
        const std::uint32_t k = p * 4 + static_cast<std::uint32_t>(c);
        CHECK(word(t.r, 0, k) == (column[p].w == kOut ? 0u : nhwc(c, column[p].w, column[p].h, column[p].n)));
        if (column[p].w != kOut) CHECK(t.a(c, column[p].w, column[p].h, column[p].n) == 5000 + k);
      }
    for (std::int32_t n = 0; n < 2; ++n)  // untouched: W = 2 everywhere, and (0, 0), (1, 0) of image 0
      for (std::int32_t h = 0; h < 3; ++h)
        for (std::int32_t c = 0; c < 4; ++c) CHECK(t.a(c, 2, h, n) == nhwc(c, 2, h, n));
    CHECK(t.a(0, 0, 0, 0) == nhwc(0, 0, 0, 0));
    CHECK(t.a(3, 1, 0, 0) == nhwc(3, 1, 0, 0));
  }
}

TEST_CASE("cp.async.bulk.tensor .im2col: a filter base outside the bounding box, an offset out of range, a map of the other mode") {
  const Im2col outside = im2col4d(im2col_launch(), 0, 2, 0, 0, 0, 0);  // W box [-1, 1]
  CHECK(outside.r.problem.kind == Problem::Kind::illegal);
  CHECK(outside.r.problem.message.find("outside the bounding box [-1, 1]") != std::string::npos);
  const Im2col offset = im2col4d(im2col_launch(), 0, 0, 0, 0, 256, 0);  // 4D: offsets in [0, 2^8 - 1]
  CHECK(offset.r.problem.kind == Problem::Kind::illegal);
  CHECK(offset.r.problem.message.find("outside [0, 255]") != std::string::npos);
  // A store through a map whose lower corners are -1 (9.7.9.25.5.1: they must be non-negative for .global.shared::cta).
  const Im2col store = im2col4d(im2col_launch(), 0, 0, 0, 0, 0, 0, true);
  CHECK(store.r.problem.kind == Problem::Kind::illegal);
  CHECK(store.r.problem.message.find("Lower-Corner must be non-negative") != std::string::npos);
  // The tile2d kernel's .tile load through an im2col map.
  Launch l = im2col_launch();
  l.kernel = "tile2d";
  l.params = {buf("out"), buf("tmap"), u32(0), u32(0), u32(0), u32(0), u32(128)};
  const RunResult r = run(bulk_module(), l);
  CHECK(r.problem.kind == Problem::Kind::illegal);
  CHECK(r.problem.message.find("not the tensor map's (im2col") != std::string::npos);
}

TEST_CASE("im2col tensor maps from a launch file: cuTensorMapEncodeIm2col's fields and their checks") {
  nlohmann::json j = nlohmann::json::parse(R"({"buffers": {"A": {"zero_bytes": 288},
      "tmap": {"zero_bytes": 128, "tensor_maps": [{"at": 0, "data_type": "u32", "global": {"buffer": "A"},
        "global_dim": [4, 3, 3, 2], "global_strides": [16, 48, 144], "pixel_box_lower_corner": [-1, -1],
        "pixel_box_upper_corner": [-1, -1], "channels_per_pixel": 4, "pixels_per_column": 8}]}}})");
  Launch l;
  std::string error;
  REQUIRE_MESSAGE(launch_from_json(j, l, error), error);
  REQUIRE(l.tensor_maps.size() == 1);
  CHECK(l.tensor_maps[0].im2col);
  CHECK(l.tensor_maps[0].pixel_box_upper_corner == std::vector<std::int32_t>{-1, -1});
  CHECK(l.tensor_maps[0].element_strides == std::vector<std::uint32_t>{1, 1, 1, 1});
  auto refused = [&](const char* key, const nlohmann::json& value, const char* why) {
    nlohmann::json k = j;
    k["buffers"]["tmap"]["tensor_maps"][0][key] = value;
    Launch x;
    CHECK_FALSE(launch_from_json(k, x, error));
    CHECK_MESSAGE(error.find(why) != std::string::npos, error);
  };
  refused("pixel_box_lower_corner", {-129, 0}, "must be in [-128, 127]");  // 4D corners: [-2^7, 2^7 - 1] (5.5.4.1)
  refused("pixel_box_lower_corner", {-1}, "need rank - 2 entries");
  refused("pixel_box_upper_corner", {-4, 0}, "holds no filter position");  // W bases in [-1, 3 - 1 - 4]: none
  refused("channels_per_pixel", 2, "multiple of 16 bytes");
  refused("pixels_per_column", 1025, "pixels_per_column must be in [1, 1024]");
  refused("global_dim", {4, 3}, "rank 3, 4 or 5");
}

TEST_CASE("tensormap.replace: 96B swizzle (Table 33 value 4) is the 32B table on packed 96-byte rows (ISA 5.5.7)") {
  Launch::TensorMap m;
  m.data_type = "u32";
  m.global_dim = {24, 8};
  m.global_strides = {128};
  m.box_dim = {24, 8};
  m.element_strides = {1, 1};
  auto bytes = encode_tensor_map(m, 0x1000);
  REQUIRE(replace_tensor_map_field(bytes.data(), "swizzle_mode", 0, 4).empty());
  const auto map = decode_tensor_map(bytes.data());
  REQUIRE(map.has_value());
  CHECK(map->swizzle == 4u);
  CHECK(box_alignment(map->swizzle) == 256u);
  // 5.5.7's 96B example: global rows of 8 chunks of 16 bytes, the first 6 of each packed densely; shared chunk q
  // (8 a row) holds global chunk kShared[q].
  const std::uint32_t kShared[48] = {0,  1,  2,  3,  4,  5,  8,  9,  11, 10, 13, 12, 17, 16, 19, 18, 20, 21, 24, 25, 26, 27, 28, 29,
                                     33, 32, 35, 34, 37, 36, 41, 40, 42, 43, 44, 45, 48, 49, 50, 51, 53, 52, 57, 56, 59, 58, 61, 60};
  for (std::uint32_t q = 0; q < 48; ++q) {
    const std::uint32_t g = kShared[q], dense = 6 * (g / 8) + g % 8;  // the chunk's place before swizzling
    CHECK(swizzled(16 * dense, map->swizzle) == 16 * q);
  }
  // Values Table 33 gives and the interpreter does not model: each named.
  // 13 (.b4x16) is modelled; the padded types 14-15 and the interleaved layouts say what their text leaves open.
  auto b4 = bytes;
  REQUIRE(replace_tensor_map_field(b4.data(), "elemtype", 0, 13).empty());
  CHECK(std::string(decode_tensor_map(b4.data())->type->name) == "b4x16");
  for (unsigned v : {14u, 15u}) {
    const std::string why = replace_tensor_map_field(bytes.data(), "elemtype", 0, v);
    CHECK(why.find(v == 14 ? ".b4x16_p64) is not modelled" : ".b6x16_p32 / .b6p2x16) is not modelled") != std::string::npos);
    CHECK(why.find("amount of data copied in bytes") != std::string::npos);
    CHECK(why.find("Figure 7") != std::string::npos);
  }
  for (unsigned v : {1u, 2u}) {
    const std::string why = replace_tensor_map_field(bytes.data(), "interleave_layout", 0, v);
    CHECK(why.find(v == 1 ? "16B interleave) is not modelled" : "32B interleave) is not modelled") != std::string::npos);
    CHECK(why.find("which map dimension or coordinate indexes the slice") != std::string::npos);
  }
  CHECK(replace_tensor_map_field(bytes.data(), "swizzle_atomicity", 0, 2).find("8B flip) is not modelled") != std::string::npos);
  CHECK(replace_tensor_map_field(bytes.data(), "swizzle_atomicity", 0, 4).find("0 to 3") != std::string::npos);
  CHECK(replace_tensor_map_field(bytes.data(), "swizzle_mode", 0, 5).find("0 to 4") != std::string::npos);
  // tensormap.replace's only .mode is .tile: an im2col map is refused.
  Launch::TensorMap i = im2col_launch().tensor_maps[0];
  auto im = encode_tensor_map(i, 0x1000);
  CHECK(replace_tensor_map_field(im.data(), "box_dim", 0, 4).find("im2col") != std::string::npos);
}

// The supported forms below are accepted by ptxas -arch=sm_100a (.version 8.6).
TEST_CASE("instruction_supported: the bulk forms the interpreter runs, and those it refuses") {
  auto supported = [](const std::string& body) {
    const std::string text = ".version 8.6\n.target sm_100a\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n .reg .b16 %h<2>;\n .reg .b32 %r<8>;\n"
                             " .reg .b64 %rd<8>;\n .shared .align 128 .b8 smem[256];\n .shared .align 8 .b64 mbar;\n " + body + "\n ret;\n}\n";
    auto loaded = ptx::ir::load_ptx(text, "k.ptx");
    for (const auto& e : loaded.errors) FAIL(e.render());
    REQUIRE(loaded);
    const auto& f = loaded.module->functions[0];
    return instruction_supported(f.body[0]);
  };
  CHECK(supported("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [smem], [%rd1], 256, [mbar];"));
  CHECK(supported("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [smem], [%rd1], 256, [mbar], %h1;"));
  CHECK(supported("cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.cp_mask [%rd1], [smem], 256, %rd2, %h1;"));
  CHECK(supported("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.f16 [%rd1], [smem], 256;"));
  CHECK(supported("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd1, {%r1, %r2}], [smem];"));
  CHECK(supported("cp.async.bulk.wait_group.read 0;"));
  // Outside 9.7.9.25.4.2's type table (ptxas -arch=sm_100a rejects both): the IR builder refuses them, from the table
  // the interpreter's support check reads too (semantics/ir/operation_types.hpp).
  for (const std::string bad : {"cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.f32 [%rd1], [smem], 256, [mbar];",
                                "cp.reduce.async.bulk.global.shared::cta.bulk_group.inc.s32 [%rd1], [smem], 256;"}) {
    const auto loaded = ptx::ir::load_ptx(".version 8.6\n.target sm_100a\n.address_size 64\n.visible .entry k()\n{\n .reg .b64 %rd<8>;\n"
                                          " .shared .align 128 .b8 smem[256];\n .shared .align 8 .b64 mbar;\n " + bad + "\n ret;\n}\n", "k.ptx");
    REQUIRE(loaded.errors.size() == 1);
    CHECK(loaded.errors[0].message.find("(ISA 9.7.9.25.4.2)") != std::string::npos);
  }
  // Load modes not modelled.
  CHECK(supported("cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [smem], [%rd1, {%r1, %r2, %r3}], [mbar], {%h1};"));
  CHECK(supported("cp.async.bulk.tensor.3d.global.shared::cta.im2col_no_offs.bulk_group [%rd1, {%r1, %r2, %r3}], [smem];"));
  CHECK(supported("cp.reduce.async.bulk.tensor.3d.global.shared::cta.add.im2col_no_offs.bulk_group [%rd1, {%r1, %r2, %r3}], [smem];"));
  CHECK_FALSE(supported("cp.async.bulk.tensor.3d.shared::cluster.global.im2col::w.mbarrier::complete_tx::bytes [smem], [%rd1, {%r1, %r2, %r3}], [mbar], {%h0, %h1};"));
  CHECK(supported("cp.async.bulk.tensor.2d.shared::cluster.global.tile::gather4.mbarrier::complete_tx::bytes [smem], [%rd1, {%r1, %r2, %r3, %r4, %r5}], [mbar];"));
  CHECK(supported("cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4.bulk_group [%rd1, {%r1, %r2, %r3, %r4, %r5}], [smem];"));
  // .tile::scatter4 is no load mode of cp.reduce.async.bulk.tensor (9.7.9.25.5.3's syntax: .tile, .im2col_no_offs)
  CHECK_FALSE(supported("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile::scatter4.bulk_group [%rd1, {%r1, %r2, %r3, %r4, %r5}], [smem];"));
}
