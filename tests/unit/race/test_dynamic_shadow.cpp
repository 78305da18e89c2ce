// The dynamic engine's shadow memory (checker/race/shadow.hpp) shares one history among the bytes an access covers
// and splits it when accesses of other extents meet. ISA 8.7.1: two accesses conflict on the bytes they overlap,
// and 8.7 makes two strong accesses morally strong only when they overlap completely. These kernels mix access
// sizes on one location; the races expected are worked out by hand, per byte, from those rules and the barrier
// (8.9.4 item 2). Each names the two instructions with the size and the object offset of each access.
#include "checker/race/dynamic.hpp"
#include "checker/race/shadow.hpp"
#include "semantics/ir/build.hpp"

#include <doctest/doctest.h>

#include <set>
#include <string>
#include <tuple>

using namespace ptxcheck;

namespace {

// One race as (opcode, size, offset) of both accesses, in a fixed order.
using Access = std::tuple<std::string, unsigned, std::int64_t>;
using Pair = std::pair<Access, Access>;

std::set<Pair> races(const race::DynamicResult& d) {
  std::set<Pair> out;
  for (const auto& r : d.races) {
    Access a{r.first.opcode, r.first.size, r.first.offset}, b{r.second.opcode, r.second.size, r.second.offset};
    out.insert(a < b ? Pair{a, b} : Pair{b, a});
  }
  return out;
}

race::DynamicResult run(const std::string& body, std::uint32_t ctas, std::uint32_t threads, const race::DynamicOptions& o = {}) {
  const std::string text = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 g)\n{\n"
                           "  .reg .b32 %r<16>;\n  .reg .b64 %rd<4>;\n  .reg .pred %p<4>;\n  .shared .align 16 .b8 s[64];\n"
                           "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, s;\n  mov.u32 %r3, %ctaid.x;\n  ld.param.u64 %rd1, [g];\n"
                           "  setp.eq.u32 %p1, %r1, 0;\n  setp.eq.u32 %p2, %r1, 1;\n  setp.eq.u32 %p3, %r1, 2;\n" +
                           body + "  ret;\n}\n";
  auto built = ptx::ir::load_ptx(text, "shadow.ptx");
  REQUIRE(built);
  ptx::interp::Launch l;
  l.kernel = "k";
  l.grid = {ctas, 1, 1};
  l.block = {threads, 1, 1};
  l.buffers = {{"g", std::vector<std::uint8_t>(4096, 0)}};
  l.params = {ptx::interp::ParamValue{"g", {}, 0, {}}};
  auto d = race::check_execution(*built.module, l, o);
  REQUIRE(d.error.empty());
  REQUIRE(d.run.ok());
  CHECK(!d.truncated);
  return d;
}

}  // namespace

TEST_CASE("shadow: a 4-byte write and a 1-byte read of its third byte race there, a byte beyond does not") {
  auto d = run("  @%p1 st.shared.u32 [%r2], %r1;\n"
               "  @%p2 ld.shared.u8 %r5, [%r2+2];\n"   // byte 2 of the word: unordered with the write
               "  @%p2 ld.shared.u8 %r6, [%r2+4];\n",  // byte 4: never written
               1, 2);
  CHECK(races(d) == std::set<Pair>{{{"ld.shared.u8", 1, 2}, {"st.shared.u32", 4, 0}}});
}

TEST_CASE("shadow: a byte rewritten after the barrier races alone within its word") {
  // Each thread writes its word, then after bar.sync thread 0 rewrites byte 1 of word 0 while thread 1 reads byte
  // 2 (last written before the barrier: ordered) and the whole word (byte 1 unordered with the rewrite).
  auto d = run("  shl.b32 %r4, %r1, 2;\n  add.u32 %r4, %r2, %r4;\n  st.shared.u32 [%r4], %r1;\n  bar.sync 0;\n"
               "  @%p1 st.shared.u8 [%r2+1], %r1;\n"
               "  @%p2 ld.shared.u8 %r5, [%r2+2];\n"
               "  @%p2 ld.shared.u32 %r6, [%r2];\n",
               1, 2);
  CHECK(races(d) == std::set<Pair>{{{"ld.shared.u32", 4, 0}, {"st.shared.u8", 1, 1}}});
}

TEST_CASE("shadow: a 16-byte vector store against 4-byte loads and stores") {
  SUBCASE("unordered: every load overlaps it") {
    auto d = run("  @%p1 st.shared.v4.u32 [%r2], {%r1, %r1, %r1, %r1};\n"
                 "  @%p2 ld.shared.u32 %r5, [%r2+8];\n"
                 "  @%p3 ld.shared.u32 %r6, [%r2+12];\n"
                 "  @%p3 ld.shared.u32 %r7, [%r2+16];\n",  // past the vector: no race
                 1, 3);
    // One report per pair of instructions: the two loads are two instructions.
    CHECK(races(d) == std::set<Pair>{{{"ld.shared.u32", 4, 8}, {"st.shared.v4.u32", 16, 0}},
                                     {{"ld.shared.u32", 4, 12}, {"st.shared.v4.u32", 16, 0}}});
  }
  SUBCASE("after the barrier a 4-byte store splits it; a vector load races on those bytes only") {
    auto d = run("  @%p1 st.shared.v4.u32 [%r2], {%r1, %r1, %r1, %r1};\n  bar.sync 0;\n"
                 "  @%p2 st.shared.u32 [%r2+4], %r1;\n"
                 "  @%p3 ld.shared.u32 %r5, [%r2+8];\n"  // bytes 8-11: the vector store's, ordered
                 "  @%p3 ld.shared.v4.u32 {%r6, %r7, %r8, %r9}, [%r2];\n",
                 1, 3);
    CHECK(races(d) == std::set<Pair>{{{"ld.shared.v4.u32", 16, 0}, {"st.shared.u32", 4, 4}}});
  }
}

TEST_CASE("shadow: strong accesses of two CTAs are morally strong only when they overlap completely (ISA 8.7)") {
  const std::string write = "  setp.eq.u32 %p3, %r3, 0;\n  and.pred %p3, %p3, %p1;\n  @%p3 st.relaxed.gpu.global.u32 [%rd1], %r1;\n"
                            "  setp.eq.u32 %p3, %r3, 1;\n  and.pred %p3, %p3, %p1;\n";
  SUBCASE("the same four bytes: no race") {
    auto d = run(write + "  @%p3 ld.relaxed.gpu.global.u32 %r5, [%rd1];\n", 2, 1);
    CHECK(d.races.empty());
  }
  SUBCASE("its upper half, or its lower half as a narrower access: a race each") {
    auto d = run(write + "  @%p3 ld.relaxed.gpu.global.u16 %r5, [%rd1+2];\n  @%p3 ld.relaxed.gpu.global.u16 %r6, [%rd1];\n", 2, 1);
    CHECK(races(d) == std::set<Pair>{{{"ld.relaxed.gpu.global.u16", 2, 2}, {"st.relaxed.gpu.global.u32", 4, 0}},
                                     {{"ld.relaxed.gpu.global.u16", 2, 0}, {"st.relaxed.gpu.global.u32", 4, 0}}});
  }
}

TEST_CASE("shadow: the bytes of one access share a history until accesses of other extents split it") {
  race::shadow::ShadowMemory m(std::uint64_t{1} << 30);
  const auto none = [](const race::shadow::Cell&) {};
  std::vector<std::size_t> seen;  // the histories check() was shown, by their read count
  const auto look = [&](const race::shadow::Cell& c) { seen.push_back(c.reads.all().size()); };
  const auto write = [](std::uint64_t thread) {
    return [thread](race::shadow::Cell& c) { c.write.thread = thread; c.write.clock = 1; };
  };
  const auto read = [](std::uint64_t thread) {
    return [thread](race::shadow::Cell& c) { c.reads.add({thread, 1}); };
  };
  CHECK(m.update(0, 100, 16, true, none, write(1)));  // a 16-byte store
  CHECK(m.tracked_bytes() == 16);
  CHECK(m.cells() == 1);
  CHECK(m.update(0, 104, 4, false, look, read(2)));   // a 4-byte load of its second word
  CHECK(seen == std::vector<std::size_t>{0});         // one history shown, once
  CHECK(m.cells() == 2);
  CHECK(m.find(0, 104) == m.find(0, 107));
  CHECK(m.find(0, 104)->reads.all().size() == 1);
  CHECK(m.find(0, 100) == m.find(0, 108));            // the bytes around keep the store's alone
  CHECK(m.find(0, 100)->reads.all().empty());
  CHECK(m.find(0, 100)->write.thread == 1);
  seen.clear();
  CHECK(m.update(0, 100, 16, false, look, read(3)));  // a 16-byte load: both histories, in byte order
  CHECK(seen == std::vector<std::size_t>{0, 1});
  CHECK(m.find(0, 104)->reads.all().size() == 2);
  CHECK(m.cells() == 2);                              // each covered wholly: updated in place
  CHECK(m.update(0, 98, 8, true, none, write(4)));    // a store across both: its bytes share one again
  CHECK(m.find(0, 98) == m.find(0, 105));
  CHECK(m.find(0, 106)->reads.all().size() == 2);
  CHECK(m.cells() == 3);
  CHECK(m.tracked_bytes() == 18);
  CHECK(m.update(7, 0, 300, true, none, write(5)));   // another region, across two pages
  CHECK(m.tracked_bytes() == 318);
  m.erase_region(7);
  CHECK(m.tracked_bytes() == 18);
  CHECK(m.cells() == 3);
  CHECK(m.find(7, 0) == nullptr);
  // Past the limit, bytes without history stay without; those with one are still updated.
  race::shadow::ShadowMemory small(1);
  CHECK(!small.update(0, 0, 4, true, none, write(1)));
  CHECK(small.tracked_bytes() == 0);
  CHECK(small.cells() == 0);
}
