// st.async (PTX ISA 9.0 9.7.9.12), red.async (9.7.13.7) and st.bulk (9.7.9.13) in the interpreter, on the kernels
// of data/async_store.ptx (valid for ptxas -arch=sm_100a): expected memory contents are worked out here by hand
// from the sections' definitions (and atom's for each reduction, 9.7.13.5), not taken from a run.
#include "semantics/interp/launch.hpp"
#include "semantics/ir/build.hpp"
#include "tests/unit/interp/kernel_run.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

using namespace ptx::interp;
using interp_test::buf;
using interp_test::u32;
using interp_test::word;

namespace {
const ptx::ir::Module& module() { return interp_test::data_module("async_store.ptx"); }


Launch cluster_launch(const char* kernel) {
  Launch l;
  l.kernel = kernel;
  l.grid = {2, 1, 1};  // one cluster of 2 (.reqnctapercluster 2, 1, 1)
  l.block = {32, 1, 1};
  l.buffers = {{"out", std::vector<std::uint8_t>(256)}};
  l.params = {buf("out")};
  return l;
}

RunResult red_async(std::uint32_t src, std::uint64_t seed) {
  // The initial words of acc (the kernel's comment lists what each word gets).
  const std::uint32_t init[13] = {1000, 5, 1, 0, 1000, 0, 10, static_cast<std::uint32_t>(-100), 0, 3, 0xffffffffu, 0, 0};
  Launch l = cluster_launch("red_async");
  std::vector<std::uint8_t> bytes(sizeof init);
  std::memcpy(bytes.data(), init, sizeof init);
  l.buffers.push_back({"init", bytes});
  l.params = {buf("out"), buf("init"), u32(src)};
  Options opt;
  opt.seed = seed;
  return run(module(), l, opt);
}

RunResult st_bulk(std::uint32_t off, std::uint32_t size, std::uint32_t generic) {
  Launch l;
  l.kernel = "st_bulk";
  l.block = {32, 1, 1};
  l.buffers = {{"out", std::vector<std::uint8_t>(256)}};
  l.params = {buf("out"), u32(off), u32(size), u32(generic)};
  return run(module(), l);
}

bool supported(const std::string& body) {
  const std::string text = ".version 9.0\n.target sm_100a\n.address_size 64\n.visible .entry k()\n{\n .reg .b32 %r<8>;\n .reg .b64 %rd<8>;\n"
                           " .reg .f32 %f<4>;\n .reg .b16 %h<2>;\n " + body + "\n ret;\n}\n";
  auto loaded = ptx::ir::load_ptx(text, "k.ptx");
  for (const auto& e : loaded.errors) FAIL(e.render());
  REQUIRE(loaded);
  return instruction_supported(loaded.module->functions[0].body[0]);
}
}  // namespace

TEST_CASE("st.async from CTA 0 into CTA 1's shared memory completes on CTA 1's mbarrier (ISA 9.7.9.12)") {
  for (std::uint64_t seed : {0, 1, 2, 3}) {  // with a seed the stores may land late, but before the wait passes
    CAPTURE(seed);
    Options opt;
    opt.seed = seed;
    const RunResult r = run(module(), cluster_launch("st_async"), opt);
    REQUIRE_MESSAGE(r.ok(), r.problem.message);
    for (std::uint32_t i = 0; i < 32; ++i) CHECK(word(r, 0, i) == 7 + 3 * i);  // .u32, one word a thread
    for (std::uint32_t i = 0; i < 4; ++i) CHECK(word(r, 0, 32 + i) == 100 + i);  // .v4.b32
    CHECK(word(r, 0, 36) == 0xfffffffbu);  // .v2.s64 {-5, 2^40 + 9}, little-endian words
    CHECK(word(r, 0, 37) == 0xffffffffu);
    CHECK(word(r, 0, 38) == 9);
    CHECK(word(r, 0, 39) == 0x100);
  }
}

TEST_CASE("st.async with %cluster_nctarank 1 is undefined, reported (ISA 9.7.9.12 Conditions)") {
  Launch l;
  l.kernel = "st_async_alone";
  const RunResult r = run(module(), l);
  CHECK(r.problem.kind == Problem::Kind::illegal);
  CHECK(r.problem.message.find("cluster_nctarank") != std::string::npos);
}

TEST_CASE("red.async: 32 threads of CTA 0 reduce into CTA 1's words by each operation of the table (ISA 9.7.13.7)") {
  for (std::uint64_t seed : {0, 1, 2, 3}) {
    CAPTURE(seed);
    const RunResult r = red_async(0, seed);
    REQUIRE_MESSAGE(r.ok(), r.problem.message);
    CHECK(word(r, 0, 0) == 1000 + 528);                                 // add.u32: + sum of 1..32
    CHECK(word(r, 0, 1) == static_cast<std::uint32_t>(5 + 496 - 640));  // add.s32: + sum of i - 20
    CHECK(word(r, 0, 2) == 1 + 496);                                    // add.u64: + 32 * 2^32 + sum of i
    CHECK(word(r, 0, 3) == 32);
    CHECK(word(r, 0, 4) == 50);                                  // min.u32 of 1000 and 50..81
    CHECK(word(r, 0, 5) == static_cast<std::uint32_t>(-16));     // min.s32 of 0 and -16..15
    CHECK(word(r, 0, 6) == 93);                                  // max.u32 of 10 and 0..93
    CHECK(word(r, 0, 7) == 0);                                   // max.s32 of -100 and 0..-31
    CHECK(word(r, 0, 8) == 11);  // inc.u32 b = 20 from 0: (old >= b) ? 0 : old + 1, 32 times: 20, then 0, then 11
    CHECK(word(r, 0, 9) == 1);   // dec.u32 b = 5 from 3: (old == 0 || old > b) ? b : old - 1, 32 times: (3 - 32) mod 6
    CHECK(word(r, 0, 10) == 0);              // and: every bit cleared by one thread
    CHECK(word(r, 0, 11) == 0xffffffffu);    // or: every bit set by one thread
    CHECK(word(r, 0, 12) == 0xfffffffeu);    // xor of (1 << i) | 1: bit 0 flips 32 times, the others once
  }
}

TEST_CASE("red.async into the executing CTA's own shared memory is undefined, reported (ISA 9.7.13.7 Conditions)") {
  const RunResult r = red_async(1, 0);
  CHECK(r.problem.kind == Problem::Kind::illegal);
  CHECK(r.problem.message.find("own shared memory") != std::string::npos);
}

TEST_CASE("st.bulk zeroes size bytes of the CTA's shared memory, by .shared::cta or generic address (ISA 9.7.9.13)") {
  struct Case {
    std::uint32_t off, size, generic;
  };
  for (const Case c : {Case{8, 64, 0}, Case{0, 256, 1}, Case{128, 0, 0}, Case{248, 8, 1}}) {
    CAPTURE(c.off);
    CAPTURE(c.size);
    const RunResult r = st_bulk(c.off, c.size, c.generic);
    REQUIRE_MESSAGE(r.ok(), r.problem.message);
    const auto& out = r.buffers[0].second;
    for (std::uint32_t k = 0; k < 256; ++k) CHECK(out[k] == (k >= c.off && k < c.off + c.size ? 0 : 0xab));
  }
}

TEST_CASE("st.bulk: size not a multiple of 8, above 16777216, or past the memory; a nonzero initval: reported") {
  CHECK(st_bulk(0, 12, 0).problem.kind == Problem::Kind::illegal);
  CHECK(st_bulk(0, 16777224, 0).problem.message.find("16777216") != std::string::npos);
  CHECK(st_bulk(0, 1u << 20, 1).problem.kind == Problem::Kind::out_of_bounds);  // 1 MiB: past any CTA's shared memory
  Launch l;
  l.kernel = "k";
  const std::string text = ".version 9.0\n.target sm_100a\n.address_size 64\n.visible .entry k()\n{\n .reg .b64 %rd<2>;\n"
                           " .shared .align 16 .b8 smem[64];\n mov.u64 %rd1, smem;\n st.bulk.weak.shared::cta [%rd1], 64, 1;\n ret;\n}\n";
  auto loaded = ptx::ir::load_ptx(text, "k.ptx");
  REQUIRE(loaded);
  const RunResult r = run(*loaded.module, l);
  CHECK(r.problem.kind == Problem::Kind::illegal);
  CHECK(r.problem.message.find("initval") != std::string::npos);
}

TEST_CASE("instruction_supported: the st.async / red.async / st.bulk forms of the sections, and forms outside them") {
  CHECK(supported("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r1], %r2, [%r3];"));
  CHECK(supported("st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.f32 [%r1], {%f0, %f1, %f2, %f3}, [%r3];"));
  CHECK(supported("st.async.weak.mbarrier::complete_tx::bytes.v2.b64 [%rd1], {%rd2, %rd3}, [%rd4];"));
  CHECK(supported("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.inc.u32 [%r1], %r2, [%r3];"));
  CHECK(supported("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u64 [%r1], %rd2, [%r3];"));
  CHECK(supported("st.bulk.weak.shared::cta [%rd1], 256, 0;"));
  CHECK(supported("st.bulk [%rd1], %rd2, 0;"));
  // .b16 is a type of the .release form only.
  CHECK_FALSE(supported("st.async.shared::cluster.mbarrier::complete_tx::bytes.b16 [%r1], %h1, [%r3];"));
  // min.u64 and inc.s32 are not in 9.7.13.7's blocks: the IR builder refuses them before the interpreter is asked
  // (semantics/ir/operation_types.hpp, whose table the interpreter's support check reads too).
  for (const char* form : {"min.u64 [%r1], %rd2, [%r3];", "inc.s32 [%r1], %r2, [%r3];"}) {
    const auto loaded = ptx::ir::load_ptx(".version 9.0\n.target sm_100a\n.address_size 64\n.visible .entry k()\n{\n .reg .b32 %r<8>;\n"
                                          " .reg .b64 %rd<8>;\n red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes." +
                                              std::string(form) + "\n ret;\n}\n", "k.ptx");
    REQUIRE(loaded.errors.size() == 1);
    CHECK(loaded.errors[0].message.find("(ISA 9.7.13.7)") != std::string::npos);
  }
}
