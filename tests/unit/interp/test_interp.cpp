// The interpreter on small kernels whose results are computed by hand from the ISA text: divergent warps at
// shfl/vote/match/redux rendezvous (ISA 9.7.9.6, 9.7.13.8-11), barriers and deadlock detection (9.7.13.1),
// atomics, calls through .param (ISA 7), bounds checks, initialised globals, and the fast path == ops.
#include "semantics/interp/launch.hpp"
#include "semantics/interp/launch_json.hpp"
#include "semantics/interp/memory.hpp"
#include "semantics/interp/npy.hpp"
#include "semantics/interp/typed_buffer.hpp"
#include "semantics/ir/address.hpp"
#include "semantics/ir/build.hpp"
#include "tests/unit/interp/kernel_run.hpp"

#include <doctest/doctest.h>

#include <iterator>

#include <unistd.h>

#include <fstream>

#include <filesystem>

#include <cstring>
#include <map>
#include <random>
#include <set>
#include <string>

using namespace ptx::interp;

namespace {
// The newest target and version the tests need: Hopper and Blackwell forms (elect, clusters, f32x2, cvt .rs) are
// defined only from sm_90/sm_100a and PTX 8.0-8.7 (their Target and PTX ISA Notes).
const char* kHeader = ".version 8.7\n.target sm_100a\n.address_size 64\n";

struct Run {
  RunResult r;
  std::vector<std::uint32_t> out;  // the "out" buffer as u32 words
};

// One kernel `k(.param .u64 out)` with `words` u32 outputs, or an extra input buffer when `in` is given.
Run run_kernel(const std::string& body, std::uint32_t threads, std::uint32_t words, Options opt = {},
               std::vector<std::uint32_t> in = {}, std::uint32_t blocks = 1, std::uint32_t shared = 0, bool cooperative = false) {
  auto loaded = ptx::ir::load_ptx(std::string(kHeader) + body, "test.ptx");
  for (const auto& e : loaded.errors) FAIL(e.render());
  REQUIRE(loaded);
  Launch l;
  l.kernel = "k";
  l.grid = {blocks, 1, 1};
  l.block = {threads, 1, 1};
  l.dynamic_shared_bytes = shared;
  l.cooperative = cooperative;
  l.buffers.push_back({"out", std::vector<std::uint8_t>(words * 4)});
  l.params.push_back({"out", {}, 0, {}});
  if (!in.empty()) {
    std::vector<std::uint8_t> bytes(in.size() * 4);
    std::memcpy(bytes.data(), in.data(), bytes.size());
    l.buffers.push_back({"in", bytes});
    l.params.push_back({"in", {}, 0, {}});
  }
  Run result;
  result.r = run(*loaded.module, l, opt);
  if (!result.r.buffers.empty()) {
    result.out.resize(words);
    std::memcpy(result.out.data(), result.r.buffers[0].second.data(), words * 4);
  }
  return result;
}

// Stores %r9 (u32) at out[tid] and returns; every test kernel ends with this.
const char* kStoreTid = R"(
  mov.u32 %r8, %tid.x;
  mul.wide.u32 %rd2, %r8, 4;
  ld.param.u64 %rd1, [out];
  add.u64 %rd1, %rd1, %rd2;
  st.global.u32 [%rd1], %r9;
  ret;
})";
const char* kDecls = ".reg .u32 %r<16>; .reg .u64 %rd<8>; .reg .pred %p<4>;\n";
}  // namespace

TEST_CASE("shfl.sync in a divergent warp: each branch is its own rendezvous over its membermask") {
  // Even lanes: bfly 2 among mask 0x55555555; odd lanes: bfly 2 among 0xaaaaaaaa. Value = 100 + lane.
  auto k = std::string(".visible .entry k(.param .u64 out) {") + kDecls + R"(
  mov.u32 %r1, %laneid;
  add.u32 %r2, %r1, 100;
  and.b32 %r3, %r1, 1;
  setp.eq.u32 %p1, %r3, 1;
  @%p1 bra ODD;
  shfl.sync.bfly.b32 %r9, %r2, 2, 31, 0x55555555;
  bra DONE;
ODD:
  shfl.sync.bfly.b32 %r9, %r2, 2, 31, 0xaaaaaaaa;
DONE:
)" + kStoreTid;
  for (std::uint64_t seed : {0, 1, 7}) {
    Options o;
    o.seed = seed;
    auto r = run_kernel(k, 32, 32, o);
    REQUIRE(r.r.ok());
    for (std::uint32_t lane = 0; lane < 32; ++lane) CHECK(r.out[lane] == 100 + (lane ^ 2));
  }
}

TEST_CASE("shfl.sync with a full mask completes across two different instructions (ISA 9.7.9.6 wait)") {
  // Lanes < 16 and >= 16 execute different shfl.sync instructions with the same qualifiers and mask; the
  // spec's rule is that all threads of membermask have executed *a* shfl.sync, so all see lane 5's value.
  auto k = std::string(".visible .entry k(.param .u64 out) {") + kDecls + R"(
  mov.u32 %r1, %laneid;
  mul.lo.u32 %r2, %r1, 3;
  setp.lt.u32 %p1, %r1, 16;
  @%p1 bra LOW;
  shfl.sync.idx.b32 %r9, %r2, 5, 31, 0xffffffff;
  bra DONE;
LOW:
  shfl.sync.idx.b32 %r9, %r2, 5, 31, 0xffffffff;
DONE:
)" + kStoreTid;
  auto r = run_kernel(k, 32, 32);
  REQUIRE(r.r.ok());
  for (std::uint32_t lane = 0; lane < 32; ++lane) CHECK(r.out[lane] == 15);
}

TEST_CASE("shfl.sync down with the predicate, vote/match/redux over partial masks") {
  auto k = std::string(".visible .entry k(.param .u64 out) {") + kDecls + R"(
  mov.u32 %r1, %laneid;
  shfl.sync.down.b32 %r2|%p1, %r1, 3, 31, 0xffffffff;
  selp.u32 %r3, 1000, 0, %p1;
  add.u32 %r2, %r2, %r3;                  // lane+3 (+1000 when in range)
  setp.lt.u32 %p2, %r1, 20;
  vote.sync.ballot.b32 %r4, %p2, 0xffffffff;  // 0x000fffff
  and.b32 %r5, %r1, 3;
  match.any.sync.b32 %r6, %r5, 0xffffffff;     // lanes with the same lane%4
  setp.lt.u32 %p3, %r1, 16;
  @%p3 redux.sync.add.u32 %r7, %r1, 0x0000ffff;  // only lanes 0..15 execute it: each must be in membermask
  @!%p3 mov.u32 %r7, 0;
  add.u32 %r9, %r2, %r4;
  xor.b32 %r9, %r9, %r6;
  add.u32 %r9, %r9, %r7;
)" + kStoreTid;
  auto r = run_kernel(k, 32, 32);
  REQUIRE(r.r.ok());
  for (std::uint32_t lane = 0; lane < 32; ++lane) {
    std::uint32_t shfl = lane + 3 <= 31 ? lane + 3 + 1000 : lane;
    std::uint32_t match = 0x11111111u << (lane & 3);
    std::uint32_t redux = lane < 16 ? 120 : 0;  // 0+1+...+15
    CHECK(r.out[lane] == (((shfl + 0x000fffffu) ^ match) + redux));
  }
}

// ISA 9.7.9.6, 9.7.13.2, 9.7.13.9, 9.7.13.10, 9.7.13.12, 9.7.13.14: "The behavior of <shfl.sync | bar.warp.sync |
// vote.sync | match.sync | redux.sync | elect.sync> is undefined if the executing thread is not in the membermask".
// All 32 lanes execute each instruction below; membermask 0xfffffffe leaves lane 0 out, so the run must stop as
// illegal naming the section. With 0xffffffff every lane is a member and the same kernel runs.
TEST_CASE("a warp .sync instruction executed by a lane outside its membermask is undefined (illegal)") {
  struct Case { const char* ins; const char* section; };
  const Case cases[] = {
      {"shfl.sync.idx.b32 %r9, %r1, 1, 31, MASK;", "ISA 9.7.9.6"},
      {"bar.warp.sync MASK;\n  mov.u32 %r9, %r1;", "ISA 9.7.13.2"},
      {"vote.sync.ballot.b32 %r9, %p0, MASK;", "ISA 9.7.13.9"},
      {"match.any.sync.b32 %r9, %r1, MASK;", "ISA 9.7.13.10"},
      {"redux.sync.add.u32 %r9, %r1, MASK;", "ISA 9.7.13.12"},
      {"elect.sync %r9|%p1, MASK;", "ISA 9.7.13.14"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.ins);
    auto with_mask = [&](const char* mask) {
      std::string body = std::string("  mov.u32 %r1, %laneid;\n  setp.ne.u32 %p0, %r1, 3;\n  ") + c.ins;
      body.replace(body.find("MASK"), 4, mask);
      return run_kernel(std::string(".visible .entry k(.param .u64 out) {") + kDecls + body + "\n" + kStoreTid, 32, 32);
    };
    auto outside = with_mask("0xfffffffe");
    CHECK(outside.r.problem.kind == Problem::Kind::illegal);
    CHECK(outside.r.problem.message.find("not in membermask 0xfffffffe") != std::string::npos);
    CHECK(outside.r.problem.message.find(c.section) != std::string::npos);
    auto members = with_mask("0xffffffff");
    CHECK(members.r.ok());
  }
}

TEST_CASE("bar.sync: every thread sees the others' shared-memory writes; bar.red.popc counts") {
  auto k = std::string(".visible .entry k(.param .u64 out) {") + kDecls + R"(
  .shared .align 4 .u32 s[64];
  mov.u32 %r1, %tid.x;
  mov.u64 %rd3, s;
  mul.wide.u32 %rd4, %r1, 4;
  add.u64 %rd4, %rd3, %rd4;
  mul.lo.u32 %r2, %r1, %r1;
  st.shared.u32 [%rd4], %r2;
  bar.sync 0;
  xor.b32 %r3, %r1, 63;                    // read the mirror thread's value
  mul.wide.u32 %rd5, %r3, 4;
  add.u64 %rd5, %rd3, %rd5;
  ld.shared.u32 %r4, [%rd5];
  setp.lt.u32 %p1, %r1, 10;
  bar.red.popc.u32 %r5, 1, %p1;            // 10 threads have tid < 10
  mad.lo.u32 %r9, %r5, 100000, %r4;
)" + kStoreTid;
  auto r = run_kernel(k, 64, 64);
  REQUIRE(r.r.ok());
  for (std::uint32_t t = 0; t < 64; ++t) CHECK(r.out[t] == 10 * 100000 + (t ^ 63) * (t ^ 63));
}

TEST_CASE("a barrier that can never complete is a deadlock report, not a hang") {
  auto k = std::string(".visible .entry k(.param .u64 out) {") + kDecls + R"(
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 32;
  @!%p1 bra WAIT;
  bar.sync 0, 64;                          // 64 expected, but the others wait at barrier 1
  bra DONE;
WAIT:
  bar.sync 1, 64;
DONE:
  mov.u32 %r9, 1;
)" + kStoreTid;
  auto r = run_kernel(k, 64, 64);
  CHECK(r.r.problem.kind == Problem::Kind::deadlock);
  CHECK(!r.r.problem.threads.empty());
}

TEST_CASE("exited threads do not block a CTA-wide bar.sync") {
  auto k = std::string(".visible .entry k(.param .u64 out) {") + kDecls + R"(
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p1, %r1, 40;
  @%p1 exit;
  bar.sync 0;
  mov.u32 %r9, 7;
)" + kStoreTid;
  auto r = run_kernel(k, 64, 64);
  REQUIRE(r.r.ok());
  for (std::uint32_t t = 0; t < 64; ++t) CHECK(r.out[t] == (t < 40 ? 7u : 0u));
}

// Thread t stores t at byte 8*t of `out`: threads past half the buffer's words write past its end.
std::string strided_store_kernel() {
  return std::string(".visible .entry k(.param .u64 out) {") + kDecls + R"(
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 8;
  add.u64 %rd1, %rd1, %rd2;
  st.global.u32 [%rd1], %r1;
  ret;
})";
}

TEST_CASE("an out-of-bounds store is reported with the thread and the PTX line") {
  auto k = strided_store_kernel();
  auto r = run_kernel(k, 8, 8);  // 32 bytes, threads 4..7 write past the end
  REQUIRE(r.r.problem.kind == Problem::Kind::out_of_bounds);
  REQUIRE(r.r.problem.threads.size() == 1);
  CHECK(r.r.problem.threads[0].tid[0] == 4);
  CHECK(r.r.problem.threads[0].ptx_line == 10);
}

TEST_CASE("with a GPU slack, stores past a buffer's end proceed, are counted, and stay out of the buffer") {
  auto k = strided_store_kernel();
  Options o;
  o.gpu_slack_bytes = 64;
  auto r = run_kernel(k, 8, 8, o);  // threads 4..7 write 32..60 bytes past the 32-byte buffer: inside the slack
  REQUIRE(r.r.ok());
  CHECK(r.r.stats.overrun_accesses == 4);
  CHECK(r.r.first_overrun.kind == Problem::Kind::out_of_bounds);
  REQUIRE(r.r.buffers[0].second.size() == 32);  // the buffer read back is the size asked for
  for (std::uint32_t t = 0; t < 4; ++t) CHECK(r.out[2 * t] == t);
  o.gpu_slack_bytes = 16;  // thread 6 writes 48 bytes past the start: 16 past the end, beyond this slack
  auto beyond = run_kernel(k, 8, 8, o);
  REQUIRE(beyond.r.problem.kind == Problem::Kind::out_of_bounds);
}

TEST_CASE("atomics: 4 CTAs x 128 threads add to one counter; atom.cas and atom.inc wrap") {
  auto k = std::string(".visible .entry k(.param .u64 out) {") + kDecls + R"(
  ld.param.u64 %rd1, [out];
  atom.global.add.u32 %r1, [%rd1], 1;
  atom.global.inc.u32 %r2, [%rd1+4], 9;   // counts 0..9 then wraps to 0
  atom.global.max.s32 %r3, [%rd1+8], %r1;
  atom.global.cas.b32 %r4, [%rd1+12], 0, 77;
  ret;
})";
  auto r = run_kernel(k, 128, 4, {}, {}, 4);
  REQUIRE(r.r.ok());
  CHECK(r.out[0] == 512);
  CHECK(r.out[1] == 512 % 10);
  CHECK(r.out[2] == 511);
  CHECK(r.out[3] == 77);
}

TEST_CASE("atom.add.f32 flushes subnormals on global memory, not on shared memory (ISA 9.7.13.5)") {
  // "atom.add.f32 on global memory flushes subnormal inputs and results to sign-preserving zero; whereas
  // atom.add.f32 on shared memory supports subnormal inputs and results": 0 + 0f00000001 (the least subnormal).
  auto k = std::string(".shared .align 4 .b32 s[2];\n.visible .entry k(.param .u64 out) {") + kDecls + R"(
  .reg .f32 %f<4>;
  ld.param.u64 %rd1, [out];
  st.shared.b32 [s], 0;
  st.shared.b32 [s+4], 0;
  atom.global.add.f32 %f1, [%rd1], 0f00000001;
  atom.shared.add.f32 %f2, [s], 0f00000001;
  cvta.shared.u64 %rd2, s;
  atom.add.f32 %f3, [%rd2+4], 0f00000001;
  ld.shared.b32 %r1, [s];
  st.global.b32 [%rd1+4], %r1;
  ld.shared.b32 %r2, [s+4];
  st.global.b32 [%rd1+8], %r2;
  ret;
})";
  auto r = run_kernel(k, 1, 3);
  REQUIRE(r.r.ok());
  CHECK(r.out[0] == 0);  // global: the subnormal operand is flushed
  CHECK(r.out[1] == 1);  // shared: kept
  CHECK(r.out[2] == 1);  // generic address of shared memory: kept
}

TEST_CASE("atom.min/max compare by type; .inc/.dec follow the ISA's pseudo-code (ISA 9.7.13.5)") {
  auto k = std::string(".visible .entry k(.param .u64 out) {") + kDecls + R"(
  ld.param.u64 %rd1, [out];
  st.global.v4.u32 [%rd1], {5, 5, 9, 9};
  atom.global.min.u32 %r1, [%rd1], 0xffffffff;   // unsigned: min(5, 0xffffffff) = 5
  atom.global.min.s32 %r2, [%rd1+4], -1;         // signed: min(5, -1) = -1
  atom.global.dec.u32 %r3, [%rd1+8], 7;          // old 9 > 7: dec gives b = 7
  atom.global.inc.u32 %r4, [%rd1+12], 9;         // old 9 >= 9: inc gives 0
  ret;
})";
  auto r = run_kernel(k, 1, 4);
  REQUIRE(r.r.ok());
  CHECK(r.out[0] == 5);
  CHECK(r.out[1] == 0xffffffffu);
  CHECK(r.out[2] == 7);
  CHECK(r.out[3] == 0);
}

TEST_CASE("calls: .param arguments and return values, recursion (ISA 7, PTX ABI)") {
  auto k = std::string(R"(
.func (.param .u32 r) fact(.param .u32 n)
{
  .reg .u32 %a; .reg .u32 %b; .reg .pred %p;
  ld.param.u32 %a, [n];
  setp.le.u32 %p, %a, 1;
  @%p bra BASE;
  sub.u32 %b, %a, 1;
  {
    .param .u32 arg;
    .param .u32 ret;
    st.param.u32 [arg], %b;
    call (ret), fact, (arg);
    ld.param.u32 %b, [ret];
  }
  mul.lo.u32 %a, %a, %b;
  st.param.u32 [r], %a;
  ret;
BASE:
  st.param.u32 [r], 1;
  ret;
}
.visible .entry k(.param .u64 out) {)") + kDecls + R"(
  .param .u32 a0;
  .param .u32 r0;
  mov.u32 %r1, %tid.x;
  add.u32 %r1, %r1, 1;
  st.param.u32 [a0], %r1;
  call (r0), fact, (a0);
  ld.param.u32 %r9, [r0];
)" + kStoreTid;
  auto r = run_kernel(k, 10, 10);
  REQUIRE(r.r.ok());
  std::uint32_t f = 1;
  for (std::uint32_t t = 0; t < 10; ++t) {
    f *= t + 1;
    CHECK(r.out[t] == f);
  }
}

// CUDA's device-side cudaGraphSetConditional (cuda_device_runtime_api.h: an extern function; nvcc's PTX declares it
// `.extern .func` with a .b64 handle and a .b32 value, as here) is handed to Options::set_conditional.
TEST_CASE("calls: cudaGraphSetConditional(handle, value) reaches Options::set_conditional; none or a refusal stops") {
  const auto k = std::string(R"(
.extern .func cudaGraphSetConditional(.param .b64 h, .param .b32 v);
.visible .entry k(.param .u64 out) {)") + kDecls + R"(
  mov.u32 %r1, %tid.x;
  cvt.u64.u32 %rd3, %r1;
  add.u64 %rd3, %rd3, 0x100000000;
  mul.lo.u32 %r2, %r1, 3;
  {
    .param .b64 param0;
    st.param.b64 [param0], %rd3;
    .param .b32 param1;
    st.param.b32 [param1], %r2;
    call.uni cudaGraphSetConditional, (param0, param1);
  }
  mov.u32 %r9, 1;
)" + kStoreTid;
  std::map<std::uint64_t, std::uint32_t> set;
  Options opt;
  opt.set_conditional = [&](std::uint64_t handle, std::uint32_t value) {
    set[handle] = value;
    return true;
  };
  auto r = run_kernel(k, 4, 4, opt);
  REQUIRE_MESSAGE(r.r.ok(), r.r.problem.message);
  REQUIRE(set.size() == 4);
  for (std::uint32_t t = 0; t < 4; ++t) CHECK(set[0x100000000ull + t] == 3 * t);
  auto none = run_kernel(k, 1, 1);  // outside ptxcheck exec there are no graphs
  CHECK(none.r.problem.kind == Problem::Kind::unsupported);
  CHECK(none.r.problem.message.find("cudaGraphSetConditional") != std::string::npos);
  opt.set_conditional = [](std::uint64_t, std::uint32_t) { return false; };  // a handle the program does not have
  auto refused = run_kernel(k, 1, 1, opt);
  CHECK(refused.r.problem.kind == Problem::Kind::out_of_bounds);  // an illegal address, as on an H200
}

TEST_CASE("static and dynamic (extern) shared memory per CTA; initialised globals with addresses") {
  auto k = std::string(R"(
.global .align 4 .u32 table[4] = {10, 20, 30, 40};
.global .align 8 .u64 ptr = generic(table);
.extern .shared .align 4 .b32 dyn[];
.visible .entry k(.param .u64 out) {)") + kDecls + R"(
  .shared .align 4 .u32 st;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 st.shared.u32 [st], %r2;
  mov.u64 %rd3, dyn;
  mul.wide.u32 %rd4, %r1, 4;
  add.u64 %rd4, %rd3, %rd4;
  st.shared.u32 [%rd4], %r1;
  bar.sync 0;
  ld.shared.u32 %r3, [st];
  ld.shared.u32 %r4, [dyn+12];
  ld.global.u64 %rd5, [ptr];
  ld.u32 %r5, [%rd5+8];                   // generic load through the relocated pointer: table[2]
  mad.lo.u32 %r9, %r3, 1000, %r4;
  add.u32 %r9, %r9, %r5;
  mov.u32 %r6, %ctaid.x;
  mad.lo.u32 %r1, %r6, 8, %r1;
  mul.wide.u32 %rd2, %r1, 4;
  ld.param.u64 %rd1, [out];
  add.u64 %rd1, %rd1, %rd2;
  st.global.u32 [%rd1], %r9;
  ret;
})";
  auto r = run_kernel(k, 8, 16, {}, {}, 2, 64);
  REQUIRE(r.r.ok());
  for (std::uint32_t i = 0; i < 16; ++i) CHECK(r.out[i] == (i / 8) * 1000 + 3 + 30);
}

TEST_CASE("cp.async copies cp-size bytes, src-size of them from the source and zeros after (ISA 9.7.9.25.3.1)") {
  auto k = std::string(R"(
.visible .entry k(.param .u64 out, .param .u64 in) {)") + kDecls + R"(
  .shared .align 16 .u32 s[12];
  ld.param.u64 %rd3, [in];
  mov.u32 %r1, 0xffffffff;                          // zero fill must overwrite these
  st.shared.v4.u32 [s+16], {%r1, %r1, %r1, %r1};
  st.shared.v4.u32 [s+32], {%r1, %r1, %r1, %r1};
  mov.u32 %r2, 0;
  setp.eq.u32 %p1, %r2, 0;                          // true
  setp.ne.u32 %p2, %r2, 0;                          // false
  cp.async.ca.shared.global [s], [%rd3], 16;
  cp.async.cg.shared.global [s+16], [%rd3+16], 16, 6;
  cp.async.ca.shared.global [s+32], [%rd3+32], 8, %p1;
  cp.async.ca.shared.global [s+40], [%rd3+40], 8, %p2;
  cp.async.commit_group;
  cp.async.wait_group 0;
  cp.async.wait_all;
  ld.param.u64 %rd1, [out];
  mov.u32 %r3, 0;
$copy:
  mul.wide.u32 %rd2, %r3, 4;
  mov.u64 %rd4, s;
  add.u64 %rd4, %rd4, %rd2;
  ld.shared.u32 %r9, [%rd4];
  add.u64 %rd5, %rd1, %rd2;
  st.global.u32 [%rd5], %r9;
  add.u32 %r3, %r3, 1;
  setp.lt.u32 %p3, %r3, 12;
  @%p3 bra $copy;
  ret;
})";
  std::vector<std::uint32_t> in;
  for (std::uint32_t i = 1; i <= 12; ++i) in.push_back(0x01010101u * i);
  auto r = run_kernel(k, 1, 12, {}, in);
  REQUIRE(r.r.ok());
  const std::vector<std::uint32_t> want{0x01010101, 0x02020202, 0x03030303, 0x04040404,  // 16 of 16 bytes
                                        0x05050505, 0x00000606, 0, 0,                    // src-size 6 of 16
                                        0, 0,                                            // ignore-src true
                                        0x0b0b0b0b, 0x0c0c0c0c};                         // ignore-src false
  CHECK(r.out == want);
  // (Under an observer the copy is reported in flight until its group completes: tests/unit/race, the dynamic engine.)
  auto loaded = ptx::ir::load_ptx(std::string(kHeader) + k, "cp.ptx");
  REQUIRE(loaded);
  CHECK(find_unsupported(*loaded.module, loaded.module->functions[0]).empty());
}

TEST_CASE("mbarrier phases: arrivals, tx-count, parity, arrive_drop and pending_count (ISA 9.7.13.15)") {
  // One thread drives the object; each word of out is worked out from 9.7.13.15.4-17 in the comment beside it.
  auto k = std::string(".visible .entry k(.param .u64 out) {") + kDecls + R"(
  .shared .align 8 .b64 bar;
  .reg .pred %q<8>;
  .reg .b64 %s<6>;
  mbarrier.init.shared.b64 [bar], 3;                    // phase 0: 3 arrivals expected
  mbarrier.arrive.noComplete.shared.b64 %s1, [bar], 1;  // 2 pending
  mbarrier.pending_count.b64 %r1, %s1;                  // out[0] = 3, the count before the arrive
  mbarrier.test_wait.shared.b64 %q1, [bar], %s1;        // out[1] = 0: phase 0 is current
  mbarrier.expect_tx.relaxed.cta.shared.b64 [bar], 16;  // tx-count 16
  mbarrier.arrive.shared.b64 %s2, [bar], 2;             // no arrival pending, but tx-count is not zero
  mbarrier.test_wait.shared.b64 %q2, [bar], %s2;        // out[2] = 0
  mbarrier.complete_tx.shared.b64 [bar], 16;            // phase 0 completes
  mbarrier.test_wait.shared.b64 %q3, [bar], %s2;        // out[3] = 1
  mbarrier.test_wait.parity.shared.b64 %q4, [bar], 0;   // out[4] = 1: the phase before the current one
  mbarrier.test_wait.parity.shared.b64 %q5, [bar], 1;   // out[5] = 0: phase 1 is current
  mbarrier.arrive_drop.shared.b64 %s3, [bar];           // 2 expected from now on, 2 pending
  mbarrier.arrive.shared.b64 %s4, [bar], 2;             // phase 1 completes; phase 2 starts with 2
  mbarrier.try_wait.parity.shared.b64 %q6, [bar], 1;    // out[6] = 1
  mbarrier.arrive.noComplete.shared::cta.b64 %s5, [bar], 1;
  mbarrier.pending_count.b64 %r2, %s5;                  // out[7] = 2
  ld.param.u64 %rd1, [out];
  st.global.u32 [%rd1], %r1;
  selp.u32 %r3, 1, 0, %q1;
  st.global.u32 [%rd1+4], %r3;
  selp.u32 %r3, 1, 0, %q2;
  st.global.u32 [%rd1+8], %r3;
  selp.u32 %r3, 1, 0, %q3;
  st.global.u32 [%rd1+12], %r3;
  selp.u32 %r3, 1, 0, %q4;
  st.global.u32 [%rd1+16], %r3;
  selp.u32 %r3, 1, 0, %q5;
  st.global.u32 [%rd1+20], %r3;
  selp.u32 %r3, 1, 0, %q6;
  st.global.u32 [%rd1+24], %r3;
  st.global.u32 [%rd1+28], %r2;
  ret;
})";
  auto r = run_kernel(k, 1, 8);
  REQUIRE_MESSAGE(r.r.ok(), r.r.problem.message);
  CHECK(r.out == std::vector<std::uint32_t>{3, 0, 0, 1, 1, 0, 1, 2});
}

// Of 64 threads, the first `live` store tid * 7 to a shared array, run `sync`, and write their neighbour's
// (tid + 1 mod live) store to out; the others leave at once. Checked under three schedules.
static void check_neighbour_reads(const std::string& setup, const std::string& sync, std::uint32_t live) {
  auto k = std::string(".visible .entry k(.param .u64 out) {") + kDecls + ".shared .align 4 .u32 buf[64];\n" + setup + R"(
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p3, %r1, )" + std::to_string(live) + R"(;
  @%p3 exit;
  mov.u32 %r3, buf;
  shl.b32 %r4, %r1, 2;
  add.u32 %r5, %r3, %r4;
  mul.lo.u32 %r6, %r1, 7;
  st.shared.u32 [%r5], %r6;
)" + sync + R"(
  add.u32 %r7, %r1, 1;
  rem.u32 %r7, %r7, )" + std::to_string(live) + R"(;
  shl.b32 %r7, %r7, 2;
  add.u32 %r7, %r3, %r7;
  ld.shared.u32 %r9, [%r7];
)" + kStoreTid;
  for (std::uint64_t seed : {0, 1, 7}) {
    CAPTURE(seed);
    Options o;
    o.seed = seed;
    auto r = run_kernel(k, 64, 64, o);
    REQUIRE_MESSAGE(r.r.ok(), r.r.problem.message);
    for (std::uint32_t i = 0; i < live; ++i) CHECK(r.out[i] == (i + 1) % live * 7);
  }
}

TEST_CASE("mbarrier: 64 threads arrive and spin on try_wait; each then reads its neighbour's store") {
  check_neighbour_reads(R"(
  .shared .align 8 .b64 bar;
  .reg .b64 %s<2>;
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 0;
  mov.u32 %r2, %ntid.x;
  @%p1 mbarrier.init.shared.b64 [bar], %r2;
  bar.sync 0;)",
                        R"(
  mbarrier.arrive.shared.b64 %s1, [bar];
WAIT:
  mbarrier.try_wait.shared.b64 %p2, [bar], %s1;
  @!%p2 bra WAIT;)",
                        64);
}

TEST_CASE("mbarrier: what the spec leaves undefined stops the run as illegal, naming the instruction") {
  const std::string prefix = std::string(".visible .entry k(.param .u64 out) {") + kDecls + ".shared .align 8 .b64 bar;\n.reg .b64 %s<4>;\n.reg .pred %q1;\n";
  struct Case {
    const char* body;
    const char* says;
  };
  const Case cases[] = {
      {"mbarrier.arrive.shared.b64 %s1, [bar];", "not initialized"},
      {"mbarrier.init.shared.b64 [bar], 2;\n mbarrier.init.shared.b64 [bar], 2;", "already initialized"},
      {"mbarrier.init.shared.b64 [bar], 0;", "outside [1, 2^20 - 1]"},
      {"mbarrier.init.shared.b64 [bar], 1;\n mbarrier.arrive.noComplete.shared.b64 %s1, [bar], 1;", ".noComplete arrive completed"},
      {"mbarrier.init.shared.b64 [bar], 2;\n mbarrier.arrive.shared.b64 %s1, [bar], 3;", "exceeds the 2 pending"},
      {"mbarrier.init.shared.b64 [bar], 1;\n mbarrier.arrive.shared.b64 %s1, [bar];\n mbarrier.arrive.shared.b64 %s2, [bar];\n"
       " mbarrier.test_wait.shared.b64 %q1, [bar], %s1;", "neither the current phase 2 nor the one before"},
      {"mbarrier.init.shared.b64 [bar], 1;\n mbarrier.test_wait.parity.shared.b64 %q1, [bar], 2;", "neither 0 nor 1"},
      {"mbarrier.init.shared.b64 [bar], 1;\n mbarrier.inval.shared.b64 [bar];\n mbarrier.arrive.shared.b64 %s1, [bar];", "not initialized"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.body);
    auto r = run_kernel(prefix + c.body + "\n ret;\n}", 1, 1);
    CHECK(r.r.problem.kind == Problem::Kind::illegal);
    CHECK(r.r.problem.message.find(c.says) != std::string::npos);
    CHECK(r.r.problem.message.rfind("mbarrier.", 0) == 0);
  }
}

TEST_CASE("barrier.cluster: a wait returns once every non-exited thread arrived; stores before the arrive are seen after it (ISA 9.7.13.3)") {
  // Threads 48..63 exit at once: the barrier completes without them.
  check_neighbour_reads("", "  barrier.cluster.arrive;\n  barrier.cluster.wait;", 48);
}

TEST_CASE("barrier.cluster: arriving twice and waiting without arriving are illegal; .blocksareclusters is refused") {
  const std::string prefix = std::string(".visible .entry k(.param .u64 out) {") + kDecls;
  auto twice = run_kernel(prefix + "barrier.cluster.arrive;\n barrier.cluster.arrive;\n ret;\n}", 32, 1);
  CHECK(twice.r.problem.kind == Problem::Kind::illegal);
  CHECK(twice.r.problem.message.find("arrives again before its barrier.cluster.wait") != std::string::npos);
  auto no_arrive = run_kernel(prefix + "barrier.cluster.wait;\n ret;\n}", 32, 1);
  CHECK(no_arrive.r.problem.kind == Problem::Kind::illegal);
  CHECK(no_arrive.r.problem.message.find("without having arrived") != std::string::npos);
  // ISA 9.0's .blocksareclusters (valid with .reqntid and .reqnctapercluster) is not modelled: refused, not run.
  auto blocks = run_kernel(".visible .entry k(.param .u64 out) .reqntid 32 .reqnctapercluster 2 .blocksareclusters {" + std::string(kDecls) + "ret;\n}", 32, 1, {}, {}, 2);
  CHECK(blocks.r.problem.kind == Problem::Kind::unsupported);
  CHECK(blocks.r.problem.message == "kernel 'k' declares .blocksareclusters, which the interpreter does not model");
}

TEST_CASE("unsupported instructions are reported by name and line before running") {
  auto loaded = ptx::ir::load_ptx(std::string(kHeader) + R"(
.visible .entry k(.param .u64 out) {
  .reg .b32 %r<4>; .reg .f32 %f<2>;
  cvt.rm.tf32.f32 %r1, %f1;
  ret;
})", "u.ptx");
  REQUIRE(loaded);
  Launch l;
  l.kernel = "k";
  l.buffers.push_back({"out", std::vector<std::uint8_t>(4)});
  l.params.push_back({"out", {}, 0, {}});
  auto r = run(*loaded.module, l);
  CHECK(r.problem.kind == Problem::Kind::unsupported);
  REQUIRE(r.unsupported.size() == 1);
  CHECK(r.unsupported[0].instruction == "cvt.rm.tf32.f32");  // 9.7.9.21 gives .tf32 .rna, .rn and .rz only
  CHECK(r.unsupported[0].ptx_line == 7);
}

TEST_CASE("fast path and semantics/ops agree on random operands") {
  // Every fast-path form, once with the fast path and once through semantics/ops only.
  auto k = std::string(".visible .entry k(.param .u64 out, .param .u64 in) {") + kDecls + R"(
  .reg .u16 %h<4>; .reg .s64 %s<4>; .reg .f32 %f<6>;
  .shared .align 8 .u32 sh[4];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 12;
  ld.param.u64 %rd1, [in];
  add.u64 %rd1, %rd1, %rd2;
  ld.global.u32 %r2, [%rd1];
  ld.global.u32 %r3, [%rd1+4];
  ld.global.u32 %r4, [%rd1+8];
  add.u32 %r5, %r2, %r3;
  sub.u32 %r5, %r5, %r4;
  mul.lo.u32 %r6, %r2, %r3;
  mad.lo.u32 %r6, %r6, %r4, %r5;
  xor.b32 %r6, %r6, %r2;
  and.b32 %r7, %r6, %r3;
  or.b32 %r7, %r7, 0x00f0f000;
  not.b32 %r7, %r7;
  and.b32 %r10, %r4, 63;
  shl.b32 %r11, %r7, %r10;
  shr.s32 %r12, %r6, %r10;
  shr.u32 %r13, %r6, %r10;
  setp.lt.s32 %p1, %r2, %r3;
  setp.hi.u32 %p2, %r2, %r4;
  selp.u32 %r14, %r11, %r12, %p1;
  selp.u32 %r15, %r13, %r14, %p2;
  mul.wide.s32 %rd3, %r2, %r3;
  cvt.u32.u64 %r9, %rd3;
  xor.b32 %r9, %r9, %r15;
  cvt.u16.u32 %h1, %r2;
  cvt.s64.s16 %s1, %h1;
  cvt.u32.u64 %r8, %s1;
  add.u32 %r9, %r9, %r8;
  mov.b32 %f1, %r2;
  mov.b32 %f2, %r3;
  mov.b32 %f3, %r4;
  add.f32 %f4, %f1, %f2;
  mul.f32 %f5, %f4, %f3;
  fma.rn.f32 %f5, %f5, %f1, %f2;
  sub.f32 %f5, %f5, %f3;
  mov.b32 %r8, %f5;
  xor.b32 %r9, %r9, %r8;
  mov.u64 %rd4, sh;
  cvt.u32.u64 %r8, %rd4;
  add.u32 %r9, %r9, %r8;
  mov.u32 %r8, %laneid;
  mul.lo.u32 %r8, %r8, 977;
  xor.b32 %r9, %r9, %r8;
)" + kStoreTid;
  std::mt19937 rng(4);
  std::vector<std::uint32_t> in(3 * 256);
  for (std::size_t i = 0; i < in.size(); ++i) {
    std::uint32_t x = rng();
    if (i % 7 == 0) x = 0x7f800000u;                 // inf
    if (i % 11 == 0) x = 0x80000000u;                // -0 / INT_MIN
    if (i % 13 == 0) x = rng() & 0x007fffffu;        // subnormal
    in[i] = x;
  }
  Options fast, slow;
  slow.fast_path = false;
  auto a = run_kernel(k, 256, 256, fast, in);
  auto b = run_kernel(k, 256, 256, slow, in);
  REQUIRE(a.r.ok());
  REQUIRE(b.r.ok());
  CHECK(a.out == b.out);
  CHECK(a.r.stats.lane_instructions == b.r.stats.lane_instructions);
}

TEST_CASE("the launch JSON of the issue is read as written") {
  Launch l;
  std::string error;
  auto j = nlohmann::json::parse(R"({"kernel": "add", "grid": [1,1,1], "block": [64,1,1], "dynamic_shared_bytes": 1024,
    "buffers": {"in": {"bytes_le_hex": "0100000000000000"}, "out": {"zero_bytes": 8}},
    "params": [{"buffer": "in"}, {"buffer": "out"}, {"u32": 7}]})");
  REQUIRE(launch_from_json(j, l, error));
  CHECK(l.kernel == "add");
  CHECK(l.block[0] == 64);
  CHECK(l.dynamic_shared_bytes == 1024);
  REQUIRE(l.buffers.size() == 2);
  CHECK(l.buffers[0].second.size() == 8);
  CHECK(l.buffers[0].second[0] == 1);
  CHECK(l.buffers[1].second.size() == 8);
  REQUIRE(l.params.size() == 3);
  CHECK(l.params[2].bits == 7);
  auto bad = nlohmann::json::parse(R"({"params": [{"buffer": "nope"}]})");
  Launch l2;
  CHECK(!launch_from_json(bad, l2, error));
}

TEST_CASE("mixed precision add, sub, fma .f32.{f16,bf16} (ISA 9.7.5): a widened exactly, one rounding") {
  // Hand-computed. f16 0x3c01 = 1 + 2^-10; 2^24 + 1 + 2^-10 lies between the f32 neighbours 2^24 and 2^24 + 2:
  // .rn rounds up (past the midpoint 2^24 + 1) to 0x4b800001, .rz down to 0x4b800000 — a widening that rounded
  // first would also give 2^24 + 1 exactly at the midpoint, ties-to-even 0x4b800000 under .rn. bf16 0x3f80 = 1.0:
  // 1.0 - 0.5 = 0x3f000000. .sat: 2.0 + 0 -> 1.0 = 0x3f800000; f16 NaN 0x7e00 + 0 -> +0.0. fma .rz:
  // (1 + 2^-10)^2 - (1 + 2^-9) = 2^-20 exactly = 0x35800000 (the product is not rounded before the add).
  auto k = std::string(".visible .entry k(.param .u64 out) {") + kDecls + R"(
  .reg .b16 %h<4>;
  .reg .f32 %f<8>;
  ld.param.u64 %rd1, [out];
  mov.b16 %h1, 0x3c01;
  add.rn.f32.f16 %f1, %h1, 0f4B800000;
  add.rz.f32.f16 %f2, %h1, 0f4B800000;
  mov.b16 %h2, 0x3f80;
  sub.f32.bf16 %f3, %h2, 0f3F000000;
  mov.b16 %h3, 0x4000;
  add.sat.f32.f16 %f4, %h3, 0f00000000;
  mov.b16 %h0, 0x7e00;
  add.sat.f32.f16 %f5, %h0, 0f00000000;
  fma.rz.f32.f16 %f6, %h1, %h1, 0fBF804000;
  st.global.v4.f32 [%rd1], {%f1, %f2, %f3, %f4};
  st.global.v2.f32 [%rd1+16], {%f5, %f6};
  ret;
})";
  auto r = run_kernel(k, 1, 6);
  CAPTURE(r.r.problem.message);
  REQUIRE(r.r.ok());
  CHECK(r.out[0] == 0x4b800001u);
  CHECK(r.out[1] == 0x4b800000u);
  CHECK(r.out[2] == 0x3f000000u);
  CHECK(r.out[3] == 0x3f800000u);
  CHECK(r.out[4] == 0x00000000u);
  CHECK(r.out[5] == 0x35800000u);
}

TEST_CASE("typed buffers: values become the type's IEEE / two's-complement bytes, and read back") {
  // Expected bytes computed by hand from IEEE 754 binary16 / bfloat16 / binary32 and two's complement.
  auto bytes = [](const std::string& buffer) {
    std::vector<std::uint8_t> out;
    std::string error;
    REQUIRE_MESSAGE(typed_buffer_bytes(nlohmann::json::parse(buffer), out, error), error);
    return out;
  };
  using B = std::vector<std::uint8_t>;
  CHECK(bytes(R"({"type": "f16", "values": [1.0, -2.0, 0.1]})") == B{0x00, 0x3c, 0x00, 0xc0, 0x66, 0x2e});  // 0.1 -> 0x2e66
  CHECK(bytes(R"({"type": "bf16", "values": [1.0, 0.1]})") == B{0x80, 0x3f, 0xcd, 0x3d});  // 0x3dcccccd rounds to 0x3dcd
  // 65520 lies halfway between f16's largest finite 65504 and 65536: nearest-even rounds up, to infinity.
  CHECK(bytes(R"({"type": "f16", "values": [65519, 65520]})") == B{0xff, 0x7b, 0x00, 0x7c});
  CHECK(bytes(R"({"type": "f32", "values": ["-inf", "0x7fc00001", -0.0]})") ==
        B{0x00, 0x00, 0x80, 0xff, 0x01, 0x00, 0xc0, 0x7f, 0x00, 0x00, 0x00, 0x80});
  CHECK(bytes(R"({"type": "s16", "values": [-1, 32767]})") == B{0xff, 0xff, 0xff, 0x7f});
  CHECK(bytes(R"({"type": "u8", "fill": 7, "count": 3})") == B{7, 7, 7});
  CHECK(bytes(R"({"type": "f64", "count": 1})") == B(8, 0));
  CHECK(bytes(R"({"type": "u32", "count": 1})") == B(4, 0));
  CHECK(typed_values(ptx::ir::ScalarType::f16, B{0x00, 0x3c, 0x00, 0x7c, 0x01, 0x7c}) == nlohmann::json::parse(R"([1.0, "inf", "nan"])"));
  CHECK(typed_values(ptx::ir::ScalarType::s8, B{0xff, 0x80}) == nlohmann::json::parse("[-1, -128]"));
  CHECK(typed_values(ptx::ir::ScalarType::u32, B{1, 0, 0, 0, 9}) == nlohmann::json::parse("[1]"));  // a partial element is left out
  std::vector<std::uint8_t> out;
  std::string error;
  CHECK_FALSE(typed_buffer_bytes(nlohmann::json::parse(R"({"type": "u8", "values": [256]})"), out, error));
  CHECK(error == "element 0: 256 does not fit .u8");
  CHECK_FALSE(typed_buffer_bytes(nlohmann::json::parse(R"({"type": "s8", "values": [-129]})"), out, error));
  CHECK_FALSE(typed_buffer_bytes(nlohmann::json::parse(R"({"type": "u32", "values": [-1]})"), out, error));
  CHECK_FALSE(typed_buffer_bytes(nlohmann::json::parse(R"({"type": "pred", "count": 1})"), out, error));
  CHECK_FALSE(typed_buffer_bytes(nlohmann::json::parse(R"({"type": "f32", "values": [1], "fill": 2})"), out, error));
  // In a launch, the buffer's type is kept for the result.
  Launch l;
  REQUIRE(launch_from_json(nlohmann::json::parse(R"({"buffers": {"x": {"type": "f32", "values": [1.5]}}})"), l, error));
  CHECK(l.buffers.at(0).second == B{0x00, 0x00, 0xc0, 0x3f});
  CHECK(l.buffer_types.at("x") == ptx::ir::ScalarType::f32);
  CHECK_FALSE(launch_from_json(nlohmann::json::parse(R"({"buffers": {"x": {"type": "f32", "zero_bytes": 4}}})"), l, error));
}

TEST_CASE(".npy buffers: numpy's format read and written (NEP 1: magic, version, header dict, 64-byte aligned data)") {
  // A file as numpy 1.x writes np.array([[1, -2, 3], [4, 5, 6]], dtype='<i4'): the header dict padded with spaces and
  // a newline to a 64-byte boundary (10 + 118 = 128), then the data in C order.
  auto npy_file = [](const std::string& dict, const std::string& data) {
    std::string header = dict;
    header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
    header += '\n';
    std::string f = std::string("\x93NUMPY\x01\x00", 8);
    f += static_cast<char>(header.size() & 0xff);
    f += static_cast<char>(header.size() >> 8);
    return f + header + data;
  };
  const std::string dir = std::filesystem::temp_directory_path() / ("ptxcheck-npy-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto write = [&](const std::string& name, const std::string& bytes) {
    std::ofstream(dir + "/" + name, std::ios::binary) << bytes;
    return dir + "/" + name;
  };
  const std::string ints("\x01\0\0\0\xfe\xff\xff\xff\x03\0\0\0\x04\0\0\0\x05\0\0\0\x06\0\0\0", 24);
  NpyArray a;
  std::string error;
  REQUIRE_MESSAGE(read_npy(write("m.npy", npy_file("{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }", ints)), a, error), error);
  CHECK(a.type == ptx::ir::ScalarType::s32);
  CHECK(a.shape == std::vector<std::uint64_t>{2, 3});
  CHECK(typed_values(a.type, a.bytes) == nlohmann::json::parse("[1, -2, 3, 4, 5, 6]"));
  // What write_npy writes is that same layout (a 1-D shape), and reads back.
  REQUIRE(write_npy(dir + "/w.npy", ptx::ir::ScalarType::s32, a.bytes, error));
  std::ifstream in(dir + "/w.npy", std::ios::binary);
  const std::string written((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(written == npy_file("{'descr': '<i4', 'fortran_order': False, 'shape': (6,), }", ints));
  CHECK(written.size() == 128 + 24);
  // Refused with a reason: Fortran order, big-endian, bfloat16 (numpy has none), a short file.
  CHECK_FALSE(read_npy(write("f.npy", npy_file("{'descr': '<i4', 'fortran_order': True, 'shape': (2, 3), }", ints)), a, error));
  CHECK(error.find("Fortran-order") != std::string::npos);
  CHECK_FALSE(read_npy(write("b.npy", npy_file("{'descr': '>f4', 'fortran_order': False, 'shape': (6,), }", ints)), a, error));
  CHECK_FALSE(read_npy(write("s.npy", npy_file("{'descr': '<i4', 'fortran_order': False, 'shape': (7,), }", ints)), a, error));
  CHECK(error.find("shorter than its shape") != std::string::npos);
  CHECK_FALSE(write_npy(dir + "/bf.npy", ptx::ir::ScalarType::bf16, a.bytes, error));
  // In a launch: {"npy": FILE}, relative to the launch file's folder, typed as the array.
  Launch l;
  REQUIRE_MESSAGE(launch_from_json(nlohmann::json::parse(R"({"buffers": {"x": {"npy": "m.npy"}}})"), l, error, dir), error);
  CHECK(l.buffers.at(0).second.size() == 24);
  CHECK(l.buffer_types.at("x") == ptx::ir::ScalarType::s32);
  std::filesystem::remove_all(dir);
}

TEST_CASE("a launch can store one buffer's address inside another (a struct holding a pointer)") {
  // holder = {u64 pad, u64 ptr}, ptr = &data + 4: the kernel stores 77 through holder->ptr, so data's second word
  // becomes 77 and the first stays 0.
  const std::string ptx = std::string(kHeader) + R"(
.visible .entry follow(.param .u64 holder)
{
  .reg .u32 %r<2>; .reg .u64 %rd<4>;
  ld.param.u64 %rd1, [holder];
  ld.global.u64 %rd2, [%rd1+8];
  mov.u32 %r1, 77;
  st.global.u32 [%rd2], %r1;
  ret;
})";
  auto loaded = ptx::ir::load_ptx(ptx, "follow.ptx");
  REQUIRE(loaded);
  Launch l;
  std::string error;
  REQUIRE(launch_from_json(nlohmann::json::parse(R"({"kernel": "follow",
    "buffers": {"data": {"zero_bytes": 8}, "holder": {"zero_bytes": 16, "pointers": [{"at": 8, "to": "data", "offset": 4}]}},
    "params": [{"buffer": "holder"}]})"), l, error));
  auto r = run(*loaded.module, l, {});
  REQUIRE(r.ok());
  REQUIRE(r.buffers.size() == 2);
  std::uint32_t data[2];
  std::memcpy(data, r.buffers[0].second.data(), 8);
  CHECK(data[0] == 0);
  CHECK(data[1] == 77);
  // Bad pointers are errors of the launch file.
  for (const char* bad : {R"({"buffers": {"h": {"zero_bytes": 8, "pointers": [{"at": 4, "to": "h"}]}}})",
                          R"({"buffers": {"h": {"zero_bytes": 8, "pointers": [{"at": 0, "to": "nope"}]}}})",
                          R"({"buffers": {"h": {"zero_bytes": 8, "pointers": [{"to": "h"}]}}})"}) {
    Launch b;
    CHECK_FALSE(launch_from_json(nlohmann::json::parse(bad), b, error));
  }
}

TEST_CASE("independent thread scheduling: lanes spinning on a flag do not starve the lane that sets it") {
  // ISA 3.2: a thread's progress does not depend on other threads unless it waits for them. Lanes 1..31 spin
  // at a lower pc than lane 0, which sets the flag; a lowest-pc-first scheduler without yielding would starve
  // lane 0 forever. Also across warps: warp 1 spins until warp 0 (which first loops 100 times) sets a flag.
  auto k = std::string(".visible .entry k(.param .u64 out) {") + kDecls + R"(
  .shared .align 4 .u32 flag[2];
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra PRODUCER;
  setp.eq.u32 %p3, %r1, 32;
  @%p3 bra PRODUCER2;
SPIN:
  ld.volatile.shared.u32 %r2, [flag];
  setp.eq.u32 %p2, %r2, 0;
  @%p2 bra SPIN;
  mov.u32 %r9, %r2;
  bra DONE;
PRODUCER:
  mov.u32 %r3, 100;
LOOP:
  sub.u32 %r3, %r3, 1;
  setp.ne.u32 %p2, %r3, 0;
  @%p2 bra LOOP;
  st.volatile.shared.u32 [flag], 5;
  mov.u32 %r9, 1;
  bra DONE;
PRODUCER2:
  mov.u32 %r9, 2;
DONE:
)" + kStoreTid;
  for (std::uint64_t seed : {0, 3}) {
    Options o;
    o.seed = seed;
    o.max_steps = 200000;
    auto r = run_kernel(k, 64, 64, o);
    REQUIRE_MESSAGE(r.r.ok(), r.r.problem.message);
    for (std::uint32_t t = 0; t < 64; ++t) CHECK(r.out[t] == (t == 0 ? 1u : t == 32 ? 2u : 5u));
  }
}

TEST_CASE("resident CTAs run interleaved: CTA 0 waits for a flag that CTA 3 sets") {
  auto k = std::string(".visible .entry k(.param .u64 out) {") + kDecls + R"(
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %ctaid.x;
  setp.eq.u32 %p1, %r1, 3;
  @%p1 bra SET;
  setp.ne.u32 %p2, %r1, 0;
  @%p2 bra DONE;
SPIN:
  ld.volatile.global.u32 %r2, [%rd1+16];
  setp.eq.u32 %p3, %r2, 0;
  @%p3 bra SPIN;
  st.global.u32 [%rd1], %r2;
  bra DONE;
SET:
  st.volatile.global.u32 [%rd1+16], 9;
DONE:
  ret;
})";
  Options o;
  o.max_steps = 1000000;
  auto r = run_kernel(k, 32, 5, o, {}, 4);
  REQUIRE_MESSAGE(r.r.ok(), r.r.problem.message);
  CHECK(r.out[0] == 9);
  o.resident_ctas = 1;  // one CTA at a time: CTA 0 can never see the flag; the step budget says so
  auto r1 = run_kernel(k, 32, 5, o, {}, 4);
  CHECK(r1.r.problem.kind == Problem::Kind::step_limit);
}

TEST_CASE("a cooperative launch: every CTA resident and the grid workspace in %envreg1:%envreg2 (cooperative groups)") {
  // The grid barrier cooperative_groups builds on the workspace's second word (details/sync.h): thread 0 of CTA 0
  // adds 0x80000000 - (CTAs - 1), thread 0 of each other CTA adds 1, and each spins until the top bit flips.
  // With 4 CTAs the word ends at 0x80000000 - 3 + 3 = 0x80000000, which every thread reads after the barrier.
  // One resident CTA at a time would spin forever: a cooperative launch makes all of them resident.
  const std::string kernel = R"(
.visible .entry k(.param .u64 out) {
  .reg .b32 %r<12>;
  .reg .b64 %rd<8>;
  .reg .pred %p<3>;
  mov.u32 %r1, %envreg1;
  mov.u32 %r2, %envreg2;
  cvt.u64.u32 %rd3, %r1;
  cvt.u64.u32 %rd4, %r2;
  shl.b64 %rd3, %rd3, 32;
  or.b64 %rd5, %rd3, %rd4;
  setp.eq.u64 %p1, %rd5, 0;
  @%p1 trap;
  mov.u32 %r3, %tid.x;
  setp.ne.u32 %p2, %r3, 0;
  @%p2 bra DONE;
  mov.u32 %r4, %ctaid.x;
  setp.eq.u32 %p1, %r4, 0;
  selp.b32 %r5, 2147483645, 1, %p1;
  atom.add.release.gpu.u32 %r6, [%rd5+4], %r5;
SPIN:
  ld.acquire.gpu.u32 %r7, [%rd5+4];
  xor.b32 %r8, %r7, %r6;
  setp.gt.s32 %p1, %r8, -1;
  @%p1 bra SPIN;
DONE:
  bar.sync 0;
  ld.relaxed.gpu.u32 %r9, [%rd5+4];
  mov.u32 %r4, %ctaid.x;
  mad.lo.u32 %r10, %r4, 32, %r3;
  mul.wide.u32 %rd6, %r10, 4;
  ld.param.u64 %rd1, [out];
  add.u64 %rd1, %rd1, %rd6;
  st.global.u32 [%rd1], %r9;
  ret;
})";
  Options opt;
  opt.resident_ctas = 1;
  opt.max_steps = 1'000'000;  // a spin that cannot end runs into this instead of hanging the test
  auto r = run_kernel(kernel, 32, 128, opt, {}, 4, 0, true);
  REQUIRE(r.r.ok());
  for (auto v : r.out) CHECK(v == 0x80000000u);
  // Without a cooperative launch the workspace address is 0, and the kernel traps, as cooperative groups does.
  CHECK(run_kernel(kernel, 32, 128, opt, {}, 4, 0, false).r.problem.kind == Problem::Kind::trap);
  // The launch file spells it "cooperative": true.
  Launch fromjson;
  std::string error;
  REQUIRE(launch_from_json(nlohmann::json::parse(R"({"cooperative": true})"), fromjson, error));
  CHECK(fromjson.cooperative);
  CHECK_FALSE(launch_from_json(nlohmann::json::parse(R"({"cooperative": 1})"), fromjson, error));
}

TEST_CASE("first_ctas: the named CTAs start before the rest of the grid, in the order given") {
  // Thread 0 of each CTA takes a ticket from a counter in out[4] and stores it at out[ctaid]. One CTA resident at a
  // time, so the tickets are the order in which the CTAs ran.
  auto k = std::string(".visible .entry k(.param .u64 out) {") + kDecls + R"(
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 ret;
  ld.param.u64 %rd1, [out];
  atom.global.add.u32 %r2, [%rd1+16], 1;
  mov.u32 %r3, %ctaid.x;
  mul.wide.u32 %rd2, %r3, 4;
  add.u64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
})";
  Options opt;
  opt.resident_ctas = 1;
  auto grid_order = run_kernel(k, 32, 5, opt, {}, 4);
  REQUIRE(grid_order.r.ok());
  CHECK(grid_order.out == std::vector<std::uint32_t>{0, 1, 2, 3, 4});
  opt.first_ctas = {{3, 0, 0}, {1, 0, 0}};
  auto reordered = run_kernel(k, 32, 5, opt, {}, 4);
  REQUIRE(reordered.r.ok());
  CHECK(reordered.out == std::vector<std::uint32_t>{2, 1, 3, 0, 4});
}

TEST_CASE("a 32-bit address register's [reg+imm] wraps modulo 2^32 (ISA 6.4.1), as nvcc's CUB BlockExchange relies on") {
  // temp - 16*tid is below temp (wraps for temp = 0); + 1008 brings it back to temp + 1008 - 16*tid. The v4 store takes
  // the general path, the scalar load the fast path: both sum at 32 bits. Hand-computed: every thread reads back
  // the tid it stored.
  auto k = std::string(".visible .entry k(.param .u64 out) {") + kDecls + R"(
  .shared .align 16 .b8 temp[1024];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 4;
  mov.u32 %r3, temp;
  sub.s32 %r4, %r3, %r2;
  add.u32 %r5, %r1, 1;
  st.shared.v4.u32 [%r4+1008], {%r1, %r5, %r5, %r5};
  bar.sync 0;
  ld.shared.u32 %r9, [%r4+1008];
  ld.shared.u32 %r6, [%r4+1012];
  sub.u32 %r6, %r6, 1;
  setp.ne.u32 %p1, %r6, %r9;
  @%p1 mov.u32 %r9, 999;)" + kStoreTid;
  auto r = run_kernel(k, 64, 64);
  REQUIRE(r.r.ok());
  for (std::uint32_t t = 0; t < 64; ++t) CHECK(r.out[t] == t);
  // A 64-bit register's sum does not wrap at 32 bits: 0x1'0000'0000 - 16 + 16 stays past the 32-bit range.
  CHECK(ptx::ir::address_sum(0xffff'fff0ULL, 64, 0x20) == 0x1'0000'0010ULL);
  CHECK(ptx::ir::address_sum(0xffff'fff0ULL, 32, 0x20) == 0x10ULL);
  CHECK(ptx::ir::address_sum(0x10ULL, 32, -0x20) == 0xffff'fff0ULL);
}

TEST_CASE("a source operand reg+imm is the value reg + imm at the register's width (ptxas accepts st [x], temp+1)") {
  // Hand-computed: 0xffffffff + 2 wraps to 1 in a 32-bit register; 41 + 1 = 42 through a 64-bit one and .local.
  auto k = std::string(".visible .entry k(.param .u64 out) {") + kDecls + R"(
  .local .align 8 .u64 local_x;
  mov.u32 %r1, 0xffffffff;
  mov.u64 %rd3, 41;
  st.local.u64 [local_x], %rd3+1;
  ld.local.u64 %rd4, [local_x];
  cvt.u32.u64 %r2, %rd4;
  mov.u32 %r3, %r1+2;
  mad.lo.u32 %r9, %r3, 1000, %r2;)" + kStoreTid;
  auto r = run_kernel(k, 1, 1);
  REQUIRE(r.r.ok());
  CHECK(r.out[0] == 1042);
}

TEST_CASE("mov packs and unpacks vectors of scalars, element 0 lowest (ISA 9.7.9.10)") {
  // 9.7.9.10: "mov.b64 d, {lo, hi}" packs; "mov.b64 {lo, hi}, d" unpacks; mov.b32 {a, b} is two 16-bit halves.
  // Hand-computed: {0x11223344, 0x55667788} -> 0x5566778811223344; its halves swapped back: 0x11223344 + 0x55667788.
  auto k = std::string(".visible .entry k(.param .u64 out) {") + kDecls + R"(
  .reg .u32 %w<4>;
  .reg .u64 %d<2>;
  .reg .b16 %s<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %w0, 0x11223344;
  mov.u32 %w1, 0x55667788;
  mov.b64 %d0, {%w0, %w1};
  st.global.u64 [%rd1], %d0;
  mov.b64 {%w2, %w3}, %d0;
  add.u32 %w2, %w2, %w3;
  st.global.u32 [%rd1+8], %w2;
  mov.b32 {%s0, %s1}, %w1;
  mov.b32 %w3, {%s1, %s0};
  st.global.u32 [%rd1+12], %w3;
  ret;
})";
  auto r = run_kernel(k, 1, 4);
  REQUIRE(r.r.ok());
  CHECK(r.out[0] == 0x11223344u);
  CHECK(r.out[1] == 0x55667788u);
  CHECK(r.out[2] == 0x11223344u + 0x55667788u);
  CHECK(r.out[3] == 0x77885566u);
}

TEST_CASE("cvt.pack.sat (ISA 9.7.9.22): both sources clamped, b low, a above it, c's low bits fill the rest") {
  // Hand-computed from the spec's text and its example (%r7 = {%r5, %r6, %r8, %r9}, high byte first):
  //   s16: a = 40000 -> 0x7fff, b = -40000 -> 0x8000: 0x7fff8000
  //   u8 with c = 0: a = 300 -> 0xff, b = -5 -> 0: 0x0000ff00; then a = 7, b = 200, c = that: 0xff0007c8
  //   u4: a = 20 -> 15, b = 3, c = 0xabcdef12: c's low 24 bits above 0xf3: 0xcdef12f3
  //   s2: a = -7 -> -2 (0b10), b = 1 (0b01), c = 0x0fffffff: 0xfffffff9
  //   s4: a = -100 -> -8 (0b1000), b = 5, c = 0: 0x85
  auto k = std::string(".visible .entry k(.param .u64 out) {") + kDecls + R"(
  .reg .u32 %q<12>;
  ld.param.u64 %rd1, [out];
  cvt.pack.sat.s16.s32 %q0, 40000, -40000;
  st.global.u32 [%rd1], %q0;
  mov.u32 %r1, 300;
  mov.u32 %r2, -5;
  cvt.pack.sat.u8.s32.b32 %q1, %r1, %r2, 0;
  st.global.u32 [%rd1+4], %q1;
  cvt.pack.sat.u8.s32.b32 %q2, 7, 200, %q1;
  st.global.u32 [%rd1+8], %q2;
  cvt.pack.sat.u4.s32.b32 %q3, 20, 3, 0xabcdef12;
  st.global.u32 [%rd1+12], %q3;
  cvt.pack.sat.s2.s32.b32 %q4, -7, 1, 0x0fffffff;
  st.global.u32 [%rd1+16], %q4;
  cvt.pack.sat.s4.s32.b32 %q5, -100, 5, 0;
  st.global.u32 [%rd1+20], %q5;
  ret;
})";
  auto r = run_kernel(k, 1, 6);
  REQUIRE(r.r.ok());
  CHECK(r.out[0] == 0x7fff8000u);
  CHECK(r.out[1] == 0x0000ff00u);
  CHECK(r.out[2] == 0xff0007c8u);
  CHECK(r.out[3] == 0xcdef12f3u);
  CHECK(r.out[4] == 0xfffffff9u);
  CHECK(r.out[5] == 0x85u);
}

TEST_CASE("video instructions with operand selectors, a merged destination and vmad's negation (ISA 9.7.18)") {
  // Hand-computed from the pseudo-code of 9.7.18.1 and 9.7.18.2:
  //   vadd r1.b1 = 0x80 -> -128, r2.h1 = 0xfffe -> -2: -130
  //   vadd.sat into r5.b2: 100 + 50 = 150 -> S8_MAX 0x7f, merged into 0x11223344
  //   vmad -r3 * r4 + r1: -(100 * 50) + 0x8000 = 27768
  //   vsub2 r7.h01 (lanes 9, 5) - r10.h22 (lanes 2, 2): 0x00070003
  //   vset4.ne.add: bytes (0, 5, 0, 9) vs (0, 1, 0, 2) differ twice: 40 + 2
  //   vabsdiff.max (the coverage form): |r2.b3 - r1.b1| = |255 - 128| = 127, max with 100
  //   vmin4.add r14.b10, r7.b0000, r10.b2222 (byte 2 of {b, a} is r7's): min(9, 5) in lanes 1 and 0, + 100
  auto k = std::string(".visible .entry k(.param .u64 out) {") + kDecls + R"(
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, 0x00008000;
  mov.u32 %r2, 0xfffe0000;
  vadd.s32.s32.s32 %r9, %r1.b1, %r2.h1;
  st.global.u32 [%rd1], %r9;
  mov.u32 %r3, 100;
  mov.u32 %r4, 50;
  mov.u32 %r5, 0x11223344;
  vadd.s32.s32.s32.sat %r5.b2, %r3, %r4, %r5;
  st.global.u32 [%rd1+4], %r5;
  vmad.s32.s32.s32 %r6, -%r3, %r4, %r1;
  st.global.u32 [%rd1+8], %r6;
  mov.u32 %r7, 0x00050009;
  mov.u32 %r10, 0x00010002;
  vsub2.s32.s32.s32 %r11, %r7.h01, %r10.h22, %r3;
  st.global.u32 [%rd1+12], %r11;
  mov.u32 %r15, 40;
  vset4.u32.u32.ne.add %r12, %r7, %r10, %r15;
  st.global.u32 [%rd1+16], %r12;
  vabsdiff.u32.u32.u32.max %r13, %r2.b3, %r1.b1, %r3;
  st.global.u32 [%rd1+20], %r13;
  vmin4.s32.u32.u32.add %r14.b10, %r7.b0000, %r10.b2222, %r3;
  st.global.u32 [%rd1+24], %r14;
  ret;
})";
  auto r = run_kernel(k, 1, 7);
  REQUIRE(r.r.ok());
  CHECK(r.out[0] == 0xffffff7eu);
  CHECK(r.out[1] == 0x117f3344u);
  CHECK(r.out[2] == 27768u);
  CHECK(r.out[3] == 0x00070003u);
  CHECK(r.out[4] == 42u);
  CHECK(r.out[5] == 127u);
  CHECK(r.out[6] == 110u);
}

TEST_CASE("cvt to and from the narrow float pairs (ISA 9.7.9.21, formats of 5.2.5): .rn.satfinite, .relu") {
  // Hand-computed: e4m3 1.0 = 0x38, -2.5 = 0xc2; 500 > MAX_NORM 448 -> 0x7e, NaN -> 0x7f; -inf -> -MAX 0xfe; 2^-10 is
  // half the least subnormal 2^-9: a tie, to even 0; 1.5 * 2^-10 -> 2^-9 = 0x01. e5m2: 63078.4 > 57344 -> 0x7b,
  // 1.0 = 0x3c. e2m1: 2.5 ties to even 2.0 = 0x4, -0.25 ties to -0 = 0x8; 7 -> MAX 6 = 0x7, NaN -> +MAX 0x7. e2m3:
  // 0.3 = 2.4 quanta of 1/8 -> 0x02, -8 -> -MAX 0x3f; e3m2: 28 = MAX 0x1f, 0.1 = 1.6 quanta of 1/16 -> 0x02. .relu:
  // -1 -> 0. Back to f16: e2m1 0x7 = 6.0 = 0x4600, 0xa = -1.0 = 0xbc00; e3m2 0x03 = 3/16 = 0x3200, 0x01 = 1/16 =
  // 0x2c00. From f16x2 {2.0, -0.5} to e4m3x2: 0x40, 0xb0.
  auto k = std::string(".visible .entry k(.param .u64 out) {") + kDecls + R"(
  .reg .b16 %h<12>;
  .reg .b8 %c<4>;
  .reg .f32 %f<4>;
  ld.param.u64 %rd1, [out];
  cvt.rn.satfinite.e4m3x2.f32 %h0, 0f3F800000, 0fC0200000;
  cvt.rn.satfinite.e4m3x2.f32 %h1, 0f43FA0000, 0f7FC00000;
  cvt.rn.satfinite.e4m3x2.f32 %h2, 0fFF800000, 0f3A800000;
  cvt.rn.satfinite.e4m3x2.f32 %h3, 0f3AC00000, 0f3AC00000;
  cvt.rn.satfinite.e5m2x2.f32 %h4, 0f47766666, 0f3F800000;
  cvt.rn.satfinite.e2m1x2.f32 %c0, 0f40200000, 0fBE800000;
  cvt.rn.satfinite.e2m1x2.f32 %c1, 0f40E00000, 0f7FC00000;
  cvt.rn.satfinite.e2m3x2.f32 %h5, 0f3E99999A, 0fC1000000;
  cvt.rn.satfinite.e3m2x2.f32 %h6, 0f41E00000, 0f3DCCCCCD;
  cvt.rn.satfinite.relu.e4m3x2.f32 %h7, 0fBF800000, 0f3F800000;
  mov.b32 %r1, 0x4000B800;
  cvt.rn.satfinite.e4m3x2.f16x2 %h8, %r1;
  mov.b16 %h9, 0x007a;
  cvt.u8.u16 %c2, %h9;
  cvt.rn.f16x2.e2m1x2 %r2, %c2;
  mov.b16 %h10, 0x0301;
  cvt.rn.f16x2.e3m2x2 %r3, %h10;
  st.global.v4.b16 [%rd1], {%h0, %h1, %h2, %h3};
  st.global.v4.b16 [%rd1+8], {%h4, %h5, %h6, %h7};
  st.global.b16 [%rd1+16], %h8;
  st.global.b8 [%rd1+18], %c0;
  st.global.b8 [%rd1+19], %c1;
  st.global.b32 [%rd1+20], %r2;
  st.global.b32 [%rd1+24], %r3;
  ret;
})";
  auto r = run_kernel(k, 1, 7);
  CAPTURE(r.r.problem.message);
  REQUIRE(r.r.ok());
  auto half = [&](unsigned i) { return (r.out[i / 2] >> (16 * (i % 2))) & 0xffffu; };
  CHECK(half(0) == 0x38c2u);
  CHECK(half(1) == 0x7e7fu);
  CHECK(half(2) == 0xfe00u);
  CHECK(half(3) == 0x0101u);
  CHECK(half(4) == 0x7b3cu);
  CHECK(half(5) == 0x023fu);
  CHECK(half(6) == 0x1f02u);
  CHECK(half(7) == 0x0038u);
  CHECK(half(8) == 0x40b0u);
  CHECK((r.out[4] >> 16 & 0xffu) == 0x48u);
  CHECK((r.out[4] >> 24 & 0xffu) == 0x77u);
  CHECK(r.out[5] == 0x4600bc00u);
  CHECK(r.out[6] == 0x32002c00u);
}

// The two kernels below, with ".version 8.7 .target sm_100a", assemble with ptxas 13.0 -arch=sm_100a.
TEST_CASE("cvt.rs to the x4 formats and f16x2/bf16x2 (ISA 9.7.9.21): rbits per operand, carry rounds away") {
  // e4m3x4 {1.0625, -1.0625, 1.0625, NaN}: 1.0625 is half a quantum (2^-3) above 1.0; its 20 discarded mantissa bits
  // have the top one set, so the 16 random bits carry iff they are >= 0x8000. rbits 0x80007fff: a and b use 0x8000
  // (away: 1.125 = 0x39, -1.125 = 0xb9), e and f use 0x7fff (e toward zero: 1.0 = 0x38; f NaN: 0x7f). .relu: b -> 0.
  // e5m2x4 {1.125, -1.125, 1.125, NaN}: half a quantum (2^-2) above 1.0 (0x3c), the same threshold: 0x3d 0xbd 0x3c 0x7f.
  // e2m3x4 {1.0625, -1.0625, 1.0625, NaN}: 1.125 = 0x09, -1.125 = 0x29, 1.0 = 0x08, NaN -> +MAX_NORM 0x1f.
  // e3m2x4 {1.125, -1.125, 1.125, NaN}: 1.25 = 0x0d, -1.25 = 0x2d, 1.0 = 0x0c, NaN -> 0x1f.
  // e2m1x4 {2.5, -2.5, 5.0, 1.25}, rbits 0x807f80ff: a uses rbits[31:24] = 0x80 (carry: 3.0 = 0x5), b rbits[15:8] =
  // 0x80 (-3.0 = 0xd), e rbits[23:16] = 0x7f (5.0 = 4 + half of 2: toward zero, 4.0 = 0x6), f rbits[7:0] = 0xff
  // (1.25 = 1 + half of 0.5: away, 1.5 = 0x3): d = 0x5d63.
  // f16x2 {1 + 2^-11, 65520}, rbits 0xe0001000: a uses the 13 LSBs of 0xe000 = 0 (toward zero: 0x3c00), b 0x1000
  // (carry: past MAX_NORM 65504 -> inf 0x7c00; with .satfinite 0x7bff). .relu.satfinite {-1 - 2^-11, inf}: 0, 0x7bff.
  // bf16x2 {1 + 2^-8, f32 subnormal 2^-134 = half bf16's least subnormal}: rbits 0x80007fff -> 0x3f81, 0x0000;
  // rbits 0x7fff8000 -> 0x3f80, 0x0001. .satfinite {NaN, -inf} -> 0x7fff, 0xff7f.
  auto k = std::string(".visible .entry k(.param .u64 out) {") + kDecls + R"(
  .reg .b16 %h<4>;
  .reg .b32 %x<8>;
  .reg .f32 %f<12>;
  ld.param.u64 %rd1, [out];
  mov.f32 %f1, 0f3F880000;
  mov.f32 %f2, 0fBF880000;
  mov.f32 %f3, 0f7FC00000;
  mov.f32 %f4, 0f3F900000;
  mov.f32 %f5, 0fBF900000;
  mov.b32 %x1, 0x80007fff;
  cvt.rs.satfinite.e4m3x4.f32 %x2, {%f1, %f2, %f1, %f3}, %x1;
  cvt.rs.relu.satfinite.e4m3x4.f32 %x3, {%f1, %f2, %f1, %f3}, %x1;
  cvt.rs.satfinite.e5m2x4.f32 %x4, {%f4, %f5, %f4, %f3}, %x1;
  cvt.rs.satfinite.e2m3x4.f32 %x5, {%f1, %f2, %f1, %f3}, %x1;
  cvt.rs.satfinite.e3m2x4.f32 %x6, {%f4, %f5, %f4, %f3}, %x1;
  st.global.v4.b32 [%rd1], {%x2, %x3, %x4, %x5};
  st.global.b32 [%rd1+16], %x6;
  mov.f32 %f6, 0f40200000;
  mov.f32 %f7, 0fC0200000;
  mov.f32 %f8, 0f40A00000;
  mov.f32 %f9, 0f3FA00000;
  mov.b32 %x7, 0x807f80ff;
  cvt.rs.satfinite.e2m1x4.f32 %h1, {%f6, %f7, %f8, %f9}, %x7;
  st.global.b16 [%rd1+20], %h1;
  mov.b32 %x7, 0xe0001000;
  cvt.rs.f16x2.f32 %x2, 0f3F801000, 0f477FF000, %x7;
  cvt.rs.satfinite.f16x2.f32 %x3, 0f3F801000, 0f477FF000, %x7;
  cvt.rs.relu.satfinite.f16x2.f32 %x4, 0fBF801000, 0f7F800000, %x7;
  cvt.rs.bf16x2.f32 %x5, 0f3F808000, 0f00008000, %x1;
  mov.b32 %x7, 0x7fff8000;
  cvt.rs.bf16x2.f32 %x6, 0f3F808000, 0f00008000, %x7;
  cvt.rs.satfinite.bf16x2.f32 %x7, 0f7FC00000, 0fFF800000, %x7;
  st.global.v4.b32 [%rd1+32], {%x2, %x3, %x4, %x5};
  st.global.v2.b32 [%rd1+48], {%x6, %x7};
  ret;
})";
  auto r = run_kernel(k, 1, 14);  // (vector stores at offsets their size divides: ISA 6.4.1)
  CAPTURE(r.r.problem.message);
  REQUIRE(r.r.ok());
  CHECK(r.out[0] == 0x39b9387fu);
  CHECK(r.out[1] == 0x3900387fu);
  CHECK(r.out[2] == 0x3dbd3c7fu);
  CHECK(r.out[3] == 0x0929081fu);
  CHECK(r.out[4] == 0x0d2d0c1fu);
  CHECK((r.out[5] & 0xffffu) == 0x5d63u);
  CHECK(r.out[8] == 0x3c007c00u);
  CHECK(r.out[9] == 0x3c007bffu);
  CHECK(r.out[10] == 0x00007bffu);
  CHECK(r.out[11] == 0x3f810000u);
  CHECK(r.out[12] == 0x3f800001u);
  CHECK(r.out[13] == 0x7fffff7fu);
}

TEST_CASE("cvt to and from .ue8m0x2 (ISA 9.7.9.21, 5.2.3): .rz/.rp{.satfinite}, a in the upper byte") {
  // ue8m0 code e = 2^(e-127). {1.5, -3.0}: rz 2^0, 2^1 = 0x7f80; rp 2^1, 2^2 = 0x8081. {f32 max, NaN} by rp without
  // .satfinite: overflow has no infinity -> 0xff, NaN 0xff; with .satfinite {f32 max, -inf}: +MAX_NORM 0xfefe.
  // {2^-127 + one f32 subnormal quantum, 0} by rp: 0x01, 0x00. bf16x2 {1.5, 3.0} = 0x3fc04040: rz 0x7f80, rp 0x8081.
  // Back to bf16x2: 0x7f00 -> {1.0, 2^-127} = 0x3f800040; 0xff01 -> {NaN, 2^-126} = 0x7fff0080.
  auto k = std::string(".visible .entry k(.param .u64 out) {") + kDecls + R"(
  .reg .b16 %h<10>;
  ld.param.u64 %rd1, [out];
  cvt.rz.satfinite.ue8m0x2.f32 %h0, 0f3FC00000, 0fC0400000;
  cvt.rp.satfinite.ue8m0x2.f32 %h1, 0f3FC00000, 0fC0400000;
  cvt.rp.ue8m0x2.f32 %h2, 0f7F7FFFFF, 0f7FC00000;
  cvt.rp.satfinite.ue8m0x2.f32 %h3, 0f7F7FFFFF, 0fFF800000;
  cvt.rp.satfinite.ue8m0x2.f32 %h4, 0f00400001, 0f00000000;
  mov.b32 %r1, 0x3fc04040;
  cvt.rz.satfinite.ue8m0x2.bf16x2 %h5, %r1;
  cvt.rp.ue8m0x2.bf16x2 %h6, %r1;
  mov.b16 %h7, 0x7f00;
  cvt.rn.bf16x2.ue8m0x2 %r2, %h7;
  mov.b16 %h8, 0xff01;
  cvt.rn.bf16x2.ue8m0x2 %r3, %h8;
  st.global.v4.b16 [%rd1], {%h0, %h1, %h2, %h3};
  st.global.v4.b16 [%rd1+8], {%h4, %h5, %h6, %h7};
  st.global.v2.b32 [%rd1+16], {%r2, %r3};
  ret;
})";
  auto r = run_kernel(k, 1, 6);
  CAPTURE(r.r.problem.message);
  REQUIRE(r.r.ok());
  auto half = [&](unsigned i) { return (r.out[i / 2] >> (16 * (i % 2))) & 0xffffu; };
  CHECK(half(0) == 0x7f80u);
  CHECK(half(1) == 0x8081u);
  CHECK(half(2) == 0xffffu);
  CHECK(half(3) == 0xfefeu);
  CHECK(half(4) == 0x0100u);
  CHECK(half(5) == 0x7f80u);
  CHECK(half(6) == 0x8081u);
  CHECK(r.out[4] == 0x3f800040u);
  CHECK(r.out[5] == 0x7fff0080u);
}

// ---------------------------------------------------------------------------------------------- clusters
// The kernels of data/cluster.ptx (ISA 9.0 2.2.2 thread-block clusters; valid for ptxas -arch=sm_90), each with
// `out` as its first parameter; expected values come from the spec's definitions, not from a run.
namespace {
struct ClusterRun {
  RunResult r;
  std::vector<std::uint32_t> out;
};
const ptx::ir::Module& cluster_module() { return interp_test::data_module("cluster.ptx"); }
ClusterRun run_cluster(const std::string& kernel, Dims grid, std::uint32_t threads, std::optional<Dims> cluster, std::uint32_t words,
                       std::vector<std::uint32_t> u32_params = {}, Options opt = {}) {
  Launch l;
  l.kernel = kernel;
  l.grid = grid;
  l.block = {threads, 1, 1};
  l.cluster = cluster;
  l.buffers.push_back({"out", std::vector<std::uint8_t>(words * 4)});
  l.params.push_back({"out", {}, 0, {}});
  for (auto v : u32_params) l.params.push_back({"", ptx::ir::ScalarType::u32, v, {}});
  ClusterRun result;
  result.r = run(cluster_module(), l, opt);
  result.out.assign(words, 0);
  if (!result.r.buffers.empty()) std::memcpy(result.out.data(), result.r.buffers[0].second.data(), words * 4);
  return result;
}
}  // namespace

TEST_CASE("clusters: special registers of 2x1x1 and 2x2x1 clusters in a grid of several clusters (ISA 10.11-10.17)") {
  const Dims grid{4, 2, 1};
  for (const Dims c : {Dims{2, 1, 1}, Dims{2, 2, 1}}) {
    CAPTURE(c[1]);
    auto r = run_cluster("specials", grid, 32, c, 16 * 8);
    REQUIRE(r.r.ok());
    for (std::uint32_t y = 0; y < 2; ++y)
      for (std::uint32_t x = 0; x < 4; ++x) {
        CAPTURE(x);
        CAPTURE(y);
        const std::uint32_t* w = r.out.data() + 16 * (x + 4 * y);
        // 10.12 %clusterid, 10.13 %nclusterid, 10.14 %cluster_ctaid, 10.15 %cluster_nctaid (each x, y, z).
        const std::uint32_t want[16] = {x / c[0], y / c[1], 0, 4 / c[0], 2 / c[1], 1, x % c[0], y % c[1], 0, c[0], c[1], 1,
                                        // 10.16 rank = x + y * nx of %cluster_ctaid, 10.17, 10.11, written
                                        x % c[0] + (y % c[1]) * c[0], c[0] * c[1], 1, 1};
        for (int k = 0; k < 16; ++k) CHECK(w[k] == want[k]);
      }
  }
  // By hand: CTA (3,1) of a 4x2 grid of 2x2 clusters is in cluster (1,0) of 2x1, at (1,1) in it, rank 1 + 1*2 = 3.
  auto r = run_cluster("specials", grid, 32, Dims{2, 2, 1}, 16 * 8);
  const std::vector<std::uint32_t> cta_3_1(r.out.begin() + 16 * 7, r.out.begin() + 16 * 8);
  CHECK(cta_3_1 == std::vector<std::uint32_t>{1, 0, 0, 2, 1, 1, 1, 1, 0, 2, 2, 1, 3, 4, 1, 1});
  // 2x1x1 clusters: CTA (3,1) is in cluster (1,1) of 2x2, at (1,0) in it, rank 1 of 2.
  r = run_cluster("specials", grid, 32, Dims{2, 1, 1}, 16 * 8);
  const std::vector<std::uint32_t> cta_3_1b(r.out.begin() + 16 * 7, r.out.begin() + 16 * 8);
  CHECK(cta_3_1b == std::vector<std::uint32_t>{1, 1, 0, 2, 2, 1, 1, 0, 0, 2, 1, 1, 1, 2, 1, 1});
  // ISA 2.2.2: no cluster given is an implicit 1x1x1 cluster: %is_explicit_cluster false, each CTA its own cluster.
  r = run_cluster("specials", {3, 1, 1}, 32, std::nullopt, 16 * 3);
  REQUIRE(r.r.ok());
  for (std::uint32_t x = 0; x < 3; ++x) {
    const std::vector<std::uint32_t> w(r.out.begin() + 16 * x, r.out.begin() + 16 * (x + 1));
    CHECK(w == std::vector<std::uint32_t>{x, 0, 0, 3, 1, 1, 0, 0, 0, 1, 1, 1, 0, 1, 0, 1});
  }
  // 11.7.1: a kernel's .reqnctapercluster configures the launch that gives none, and that is an explicit cluster.
  r = run_cluster("req2", {4, 1, 1}, 32, std::nullopt, 8);
  REQUIRE(r.r.ok());
  CHECK(r.out == std::vector<std::uint32_t>{1, 2, 1, 2, 1, 2, 1, 2});
}

TEST_CASE("clusters: CTAs exchange values through distributed shared memory (mapa, ld/red/atom .shared::cluster, generic)") {
  const std::uint32_t n = 4, ctas = 8;
  for (std::uint64_t seed : {0, 3}) {
    CAPTURE(seed);
    Options opt;
    opt.seed = seed;
    auto r = run_cluster("exchange", {ctas, 1, 1}, 32, Dims{n, 1, 1}, ctas * 32 * 8, {}, opt);
    REQUIRE(r.r.ok());
    for (std::uint32_t cta = 0; cta < ctas; ++cta) {
      const std::uint32_t rank = cta % n, next = (rank + 1) % n;
      for (std::uint32_t tid = 0; tid < 32; ++tid) {
        CAPTURE(cta);
        CAPTURE(tid);
        const std::uint32_t* w = r.out.data() + (cta * 32 + tid) * 8;
        CHECK(w[0] == next * 100 + tid);  // the neighbour's arr[tid], via mapa.shared::cluster
        CHECK(w[1] == next * 100 + tid);  // the same via generic mapa and ld
        CHECK(w[2] == next);              // getctarank of the mapped address (9.7.9.24)
        CHECK(w[3] == rank * 100 + tid);  // mapped to its own rank: its own arr[tid], read as .shared::cta
        CHECK(w[4] == 1);                 // isspacep.shared::cluster of the neighbour's generic address
        CHECK(w[5] == 0);                 // ... which is not in this CTA's .shared::cta window
        CHECK(w[6] == (rank == 0 ? 2 * 32 * n : 0));  // every thread of the cluster added 2 to rank 0's counter
        CHECK(w[7] < 2 * 32 * n);
      }
    }
    for (std::uint32_t cluster = 0; cluster < ctas / n; ++cluster) {
      std::set<std::uint32_t> olds;  // the atom's old values: one per thread of the cluster, all different
      for (std::uint32_t k = 0; k < n * 32; ++k) olds.insert(r.out[(cluster * n * 32 + k) * 8 + 7]);
      CHECK(olds.size() == n * 32);
    }
  }
}

TEST_CASE("clusters: the CTAs of a CTA pair have shared addresses differing in bit 24, as on the hardware") {
  // docs/clusters.md: rank r's shared memory is at r << 24 in the .shared::cluster window, its .shared::cta addresses
  // too; CUTLASS's 2-SM kernels clear bit 24 to name the even CTA of the pair (ISA 9.7.16.5.1).
  auto r = run_cluster("peer_bit", {8, 1, 1}, 1, Dims{4, 1, 1}, 8 * 4);
  REQUIRE_MESSAGE(r.r.ok(), r.r.problem.message);
  for (std::uint32_t cta = 0; cta < 8; ++cta) {
    CAPTURE(cta);
    const std::uint32_t rank = cta % 4;
    CHECK(r.out[4 * cta] == 10 * (rank & ~1u) + 7);  // the even CTA's flag
    CHECK(r.out[4 * cta + 1] == rank);
    CHECK(r.out[4 * cta + 2] == (rank & ~1u));
    CHECK(r.out[4 * cta + 3] == 1);  // its own address is in its .shared::cta window
  }
}

TEST_CASE("clusters: a read racing with another CTA's store before barrier.cluster gets either value; after it, the store") {
  for (std::uint64_t seed = 0; seed < 8; ++seed) {
    CAPTURE(seed);
    Options opt;
    opt.seed = seed;
    auto r = run_cluster("early_read", {4, 1, 1}, 1, Dims{2, 1, 1}, 8, {}, opt);
    REQUIRE(r.r.ok());
    for (std::uint32_t cta = 0; cta < 4; cta += 2) {
      CHECK((r.out[cta * 2] == 0 || r.out[cta * 2] == 7));  // no order between the store and the read
      CHECK(r.out[cta * 2 + 1] == 7);                       // barrier.cluster ordered the store before it
      CHECK(r.out[cta * 2 + 2] == 0);                       // rank 1's own x is untouched
      CHECK(r.out[cta * 2 + 3] == 0);
    }
  }
}

TEST_CASE("clusters: mapa to a rank not below %cluster_nctarank, or of an address outside shared memory, is illegal") {
  auto ok = run_cluster("map_rank", {2, 1, 1}, 1, Dims{2, 1, 1}, 2, {1, 0});
  CHECK(ok.r.ok());
  auto rank = run_cluster("map_rank", {2, 1, 1}, 1, Dims{2, 1, 1}, 2, {2, 0});
  CHECK(rank.r.problem.kind == Problem::Kind::illegal);
  CHECK(rank.r.problem.message == "mapa.shared::cluster.u64: CTA rank 2 is not below %cluster_nctarank 2");
  auto global = run_cluster("map_rank", {2, 1, 1}, 1, Dims{2, 1, 1}, 2, {1, 1});
  CHECK(global.r.problem.kind == Problem::Kind::illegal);
  CHECK(global.r.problem.message.find("mapa.u64: 0x") == 0);
  CHECK(global.r.problem.message.find("is not a generic address of shared memory of the cluster") != std::string::npos);
  // An implicit 1x1x1 cluster has rank 0 only.
  auto implicit = run_cluster("map_rank", {2, 1, 1}, 1, std::nullopt, 2, {1, 0});
  CHECK(implicit.r.problem.message == "mapa.shared::cluster.u64: CTA rank 1 is not below %cluster_nctarank 1");
}

TEST_CASE("clusters: a remote mbarrier arrive completes the phase a thread of the other CTA waits on (ISA 9.7.13.15)") {
  for (std::uint64_t seed : {0, 1, 2}) {
    CAPTURE(seed);
    Options opt;
    opt.seed = seed;
    auto r = run_cluster("remote_arrive", {4, 1, 1}, 32, Dims{2, 1, 1}, 4, {}, opt);
    REQUIRE(r.r.ok());
    CHECK(r.out == std::vector<std::uint32_t>{42, 0, 42, 0});  // rank 0 read rank 1's store after the phase completed
  }
  // Only arrive, arrive_drop, expect_tx and complete_tx take another CTA's object, and an arrive on one returns nothing.
  auto wait = run_cluster("remote_misuse", {2, 1, 1}, 1, Dims{2, 1, 1}, 1, {0});
  CHECK(wait.r.problem.kind == Problem::Kind::illegal);
  CHECK(wait.r.problem.message == "mbarrier.test_wait.parity.b64: the mbarrier object is in the shared memory of cluster CTA rank 0; "
                                  "this operation takes only an object of the executing CTA (ISA 9.7.13.15)");
  auto state = run_cluster("remote_misuse", {2, 1, 1}, 1, Dims{2, 1, 1}, 1, {1});
  CHECK(state.r.problem.kind == Problem::Kind::illegal);
  CHECK(state.r.problem.message == "mbarrier.arrive.b64: an arrive on an object of another CTA (rank 0) returns no state; its destination must be '_' (ISA 9.7.13.15.13)");
}

TEST_CASE("clusters: launch shapes the driver rejects (JSON and kernel directives, ISA 2.2.2 and 11.7)") {
  auto json_error = [](const char* text) {
    Launch l;
    std::string error;
    CHECK_FALSE(launch_from_json(nlohmann::json::parse(text), l, error));
    return error;
  };
  CHECK(json_error(R"({"grid": [3], "cluster": [2]})") == "grid 3,1,1 is not a whole number of clusters 2,1,1 (ISA 2.2.2: the grid is made of clusters)");
  CHECK(json_error(R"({"grid": [4, 3], "cluster": [2, 2]})") == "grid 4,3,1 is not a whole number of clusters 2,2,1 (ISA 2.2.2: the grid is made of clusters)");
  CHECK(json_error(R"({"grid": [32], "cluster": [17]})") == "cluster 17,1,1: 17 CTAs, a cluster has at most 16 (8 portably)");
  CHECK(json_error(R"({"grid": [4], "cluster": [2, 0]})") == "cluster dimensions must be positive");
  Launch fine;
  std::string error;
  CHECK(launch_from_json(nlohmann::json::parse(R"({"grid": [4, 2], "cluster": [2, 2, 1]})"), fine, error));
  CHECK((fine.cluster == Dims{2, 2, 1}));
  // 11.7.1: a launch cluster other than the kernel's .reqnctapercluster fails; so does a grid it does not divide.
  auto mismatch = run_cluster("req2", {4, 1, 1}, 32, Dims{4, 1, 1}, 8);
  CHECK(mismatch.r.problem.kind == Problem::Kind::bad_launch);
  CHECK(mismatch.r.problem.message == "cluster 4,1,1: kernel req2 requires .reqnctapercluster 2,1,1 (ISA 11.7.1)");
  auto odd = run_cluster("req2", {3, 1, 1}, 32, std::nullopt, 8);
  CHECK(odd.r.problem.kind == Problem::Kind::bad_launch);
  CHECK(odd.r.problem.message == "grid 3,1,1 is not a whole number of clusters 2,1,1 (ISA 2.2.2: the grid is made of clusters)");
  // 11.7.2 .explicitcluster without a cluster, 11.7.3 .maxclusterrank exceeded.
  auto loaded = ptx::ir::load_ptx(".version 8.0\n.target sm_90\n.address_size 64\n"
                                  ".visible .entry ex(.param .u64 out) .explicitcluster\n{\nret;\n}\n"
                                  ".visible .entry mx(.param .u64 out) .maxclusterrank 2\n{\nret;\n}\n", "dirs.ptx");
  REQUIRE(loaded);
  Launch l;
  l.grid = {4, 1, 1};
  l.buffers.push_back({"out", std::vector<std::uint8_t>(4)});
  l.params.push_back({"out", {}, 0, {}});
  l.kernel = "ex";
  auto r = run(*loaded.module, l);
  CHECK(r.problem.kind == Problem::Kind::bad_launch);
  CHECK(r.problem.message == "kernel ex must be launched with an explicit cluster (.explicitcluster, ISA 11.7.2); give \"cluster\"");
  l.cluster = Dims{2, 1, 1};
  CHECK(run(*loaded.module, l).ok());
  l.kernel = "mx";
  CHECK(run(*loaded.module, l).ok());
  l.cluster = Dims{4, 1, 1};
  r = run(*loaded.module, l);
  CHECK(r.problem.kind == Problem::Kind::bad_launch);
  CHECK(r.problem.message == "cluster 4,1,1: kernel mx allows at most 2 CTAs per cluster (.maxclusterrank, ISA 11.7.3)");
}

TEST_CASE("clusters: touching an exited peer's shared memory is illegal; a cluster whose CTAs all block is a deadlock") {
  auto late = run_cluster("late_read", {2, 1, 1}, 1, Dims{2, 1, 1}, 1);
  CHECK(late.r.problem.kind == Problem::Kind::illegal);
  CHECK(late.r.problem.message == "access to the shared memory of cluster CTA rank 0, which has exited (ISA 2.2.2)");
  REQUIRE(late.r.problem.threads.size() == 1);
  CHECK((late.r.problem.threads[0].ctaid == std::array<std::uint32_t, 3>{1, 0, 0}));
  for (std::uint64_t seed : {0, 5}) {
    Options opt;
    opt.seed = seed;
    auto stuck = run_cluster("stuck", {2, 1, 1}, 2, Dims{2, 1, 1}, 1, {}, opt);
    CHECK(stuck.r.problem.kind == Problem::Kind::deadlock);
    CHECK(stuck.r.problem.message.find("barrier.cluster: 3 of 4 arrived;") != std::string::npos);
  }
}

TEST_CASE(".f32x2 add, sub, mul, fma: two .f32 lanes of a .b64, each rounded on its own (ISA 9.7.3.3-9.7.3.6)") {
  // Hand-computed, element 0 in bits 0..31 (fA[0] = a[0:31], fA[1] = a[32:63]):
  //   a = {1.5, -2.0}, b = {0.25, 3.0}, c = {1.0, 0.5}
  //   add.rn: {1.75, 1.0}; sub.rn: {1.25, -5.0}; mul.rz: {0.375, -6.0}; fma.rn: {1.375, -5.5}.
  //   1.0 + 2^-30 and -1.0 + -2^-30: add.rp {1 + ulp, -1.0}, add.rm {1.0, -(1 + ulp)} (each lane its own rounding).
  //   {min subnormal, 1.0} + {0, 1.0}: add.ftz flushes lane 0 to +0, add keeps it: {0, 2.0} and {2^-149, 2.0}.
  auto k = std::string(".visible .entry k(.param .u64 out) {") + kDecls + R"(
  .reg .b64 %a, %b, %c, %d<10>;
  ld.param.u64 %rd1, [out];
  mov.b64 %a, 0xC00000003FC00000;
  mov.b64 %b, 0x404000003E800000;
  mov.b64 %c, 0x3F0000003F800000;
  add.rn.f32x2 %d0, %a, %b;
  sub.rn.f32x2 %d1, %a, %b;
  mul.rz.f32x2 %d2, %a, %b;
  fma.rn.f32x2 %d3, %a, %b, %c;
  mov.b64 %a, 0xBF8000003F800000;
  mov.b64 %b, 0xB080000030800000;
  add.rp.f32x2 %d4, %a, %b;
  add.rm.f32x2 %d5, %a, %b;
  mov.b64 %a, 0x3F80000000000001;
  mov.b64 %b, 0x3F80000000000000;
  add.ftz.f32x2 %d6, %a, %b;
  add.f32x2 %d7, %a, %b;
  st.global.v2.b64 [%rd1], {%d0, %d1};
  st.global.v2.b64 [%rd1+16], {%d2, %d3};
  st.global.v2.b64 [%rd1+32], {%d4, %d5};
  st.global.v2.b64 [%rd1+48], {%d6, %d7};
  ret;
})";
  auto r = run_kernel(k, 1, 16);
  REQUIRE(r.r.ok());
  auto u64 = [&](int i) { return std::uint64_t{r.out[2 * i]} | std::uint64_t{r.out[2 * i + 1]} << 32; };
  CHECK(u64(0) == 0x3F8000003FE00000ull);
  CHECK(u64(1) == 0xC0A000003FA00000ull);
  CHECK(u64(2) == 0xC0C000003EC00000ull);
  CHECK(u64(3) == 0xC0B000003FB00000ull);
  CHECK(u64(4) == 0xBF8000003F800001ull);
  CHECK(u64(5) == 0xBF8000013F800000ull);
  CHECK(u64(6) == 0x4000000000000000ull);
  CHECK(u64(7) == 0x4000000000000001ull);
  // Only add, sub, mul and fma have the type, and without .sat: errors at the instruction.
  auto bad = ptx::ir::load_ptx(".version 8.6\n.target sm_100a\n.address_size 64\n.visible .entry k() {\n.reg .b64 %d<3>;\n"
                               "min.f32x2 %d0, %d1, %d2;\nadd.sat.f32x2 %d0, %d1, %d2;\nret;\n}\n", "f32x2.ptx");
  REQUIRE(bad.errors.size() == 2);
  CHECK(bad.errors[0].render().find("f32x2.ptx:6:1: error: '.f32x2' is a type of add, sub, mul and fma only") != std::string::npos);
  CHECK(bad.errors[1].render().find("f32x2.ptx:7:1: error: 'add.f32x2' has no .sat") != std::string::npos);
}

TEST_CASE("the sink symbol _ in place of one destination of p|q and d|p (ISA 9.7.7.1, 9.7.8.6)") {
  // setp: "The sink symbol '_' may be used in place of any one of the destination operands"; lop3: "in place of
  // the destination operand d when .BoolOp qualifier is specified". Hand-computed: a = 5, b = 7, q = true.
  //   p|q is p = (a CmpOp b) BoolOp c, q = !(a CmpOp b) BoolOp c (9.7.7.1), so
  //   setp.lt.and.s32 _|p: p = !(5 < 7) and q = 0.     setp.lt.and.s32 p|_: p = 1 (the complement goes nowhere).
  //   setp.gt.and.s32 p|_: p = (5 > 7) and q = 0.
  //   lop3.and.b32 _|p, 0xF0F0, 0xFF00, 0x0F00, 0x40, q: d = a & b & ~c = 0xF000 (dropped), p = (d != 0) and q = 1.
  //   lop3.and.b32 _|p with immLut 0x80: d = a & b & c = 0, p = 0.
  auto k = std::string(".visible .entry k(.param .u64 out) {") + kDecls + R"(
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, 5;
  mov.u32 %r2, 7;
  setp.eq.u32 %p0, %r1, %r1;
  setp.lt.and.s32 _|%p1, %r1, %r2, %p0;
  selp.u32 %r4, 1, 0, %p1;
  setp.lt.and.s32 %p2|_, %r1, %r2, %p0;
  selp.u32 %r5, 1, 0, %p2;
  setp.gt.and.s32 %p2|_, %r1, %r2, %p0;
  selp.u32 %r6, 1, 0, %p2;
  mov.u32 %r1, 0xF0F0;
  mov.u32 %r2, 0xFF00;
  mov.u32 %r3, 0x0F00;
  lop3.and.b32 _|%p3, %r1, %r2, %r3, 0x40, %p0;
  selp.u32 %r7, 1, 0, %p3;
  lop3.and.b32 _|%p3, %r1, %r2, %r3, 0x80, %p0;
  selp.u32 %r8, 1, 0, %p3;
  st.global.v4.u32 [%rd1], {%r4, %r5, %r6, %r7};
  st.global.u32 [%rd1+16], %r8;
  ret;
})";
  auto r = run_kernel(k, 1, 5);
  REQUIRE(r.r.ok());
  CHECK(r.out[0] == 0u);
  CHECK(r.out[1] == 1u);
  CHECK(r.out[2] == 0u);
  CHECK(r.out[3] == 1u);
  CHECK(r.out[4] == 0u);
  // Both destinations the sink: an error at the instruction.
  auto bad = ptx::ir::load_ptx(".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k() {\n.reg .pred %p<2>;\n"
                               ".reg .u32 %r<2>;\nsetp.lt.and.s32 _|_, %r0, %r1, %p0;\nret;\n}\n", "two_sinks.ptx");
  REQUIRE(!bad.errors.empty());
  CHECK(bad.errors[0].render().find("two_sinks.ptx:7:17: error: the sink symbol '_' may stand for only one of the two destinations") != std::string::npos);
}

TEST_CASE("lop3.BoolOp: d from immLut, p = (d != 0) BoolOp q (ISA 9.7.8.6)") {
  // Hand-computed from the spec's table: immLut 0x80 is a & b & c, 0x40 is a & b & ~c.
  //   a = 0xF0F0, b = 0xFF00, c = 0x0F00: a&b&c = 0x0000, a&b&~c = 0xF000.
  //   0x80 with .or and q = 1: d = 0, p = (0 != 0) or 1 = 1;   with .and and q = 1: p = 0.
  //   0x40 with .and and q = 1: d = 0xF000, p = 1;             with .and and q = 0 (!%p0): p = 0.
  auto k = std::string(".visible .entry k(.param .u64 out) {") + kDecls + R"(
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, 0xF0F0;
  mov.u32 %r2, 0xFF00;
  mov.u32 %r3, 0x0F00;
  setp.eq.u32 %p0, %r1, %r1;
  lop3.or.b32 %r4|%p1, %r1, %r2, %r3, 0x80, %p0;
  selp.u32 %r5, 1, 0, %p1;
  lop3.and.b32 %r6|%p2, %r1, %r2, %r3, 0x80, %p0;
  selp.u32 %r7, 1, 0, %p2;
  lop3.and.b32 %r8|%p3, %r1, %r2, %r3, 0x40, %p0;
  selp.u32 %r9, 1, 0, %p3;
  lop3.and.b32 %r10|%p3, %r1, %r2, %r3, 0x40, !%p0;
  selp.u32 %r11, 1, 0, %p3;
  st.global.v4.u32 [%rd1], {%r4, %r5, %r6, %r7};
  st.global.v4.u32 [%rd1+16], {%r8, %r9, %r10, %r11};
  ret;
})";
  auto r = run_kernel(k, 1, 8);
  REQUIRE(r.r.ok());
  CHECK(r.out[0] == 0u);
  CHECK(r.out[1] == 1u);
  CHECK(r.out[2] == 0u);
  CHECK(r.out[3] == 0u);
  CHECK(r.out[4] == 0xF000u);
  CHECK(r.out[5] == 1u);
  CHECK(r.out[6] == 0xF000u);
  CHECK(r.out[7] == 0u);
}

TEST_CASE("an address its access size does not divide faults as misaligned (ISA 6.4.1), on both paths") {
  // "The access size of a memory instruction is the total number of bytes accessed in memory. For example, the
  // access size of ld.v4.b32 is 16 bytes ... The address must be naturally aligned to a multiple of the access size."
  // Each case: (instruction after %rd1 = out, %r1 = 7, %h1 = 7, message), 32 threads.
  const std::pair<const char*, const char*> cases[] = {
      {"ld.global.u32 %r2, [%rd1+2];", "misaligned load of 4 bytes"},
      {"st.global.v2.u32 [%rd1+4], {%r1, %r1};", "misaligned store of 8 bytes"},
      {"ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd1+8];", "misaligned load of 16 bytes"},
      {"st.shared.u16 [sm+1], %h1;", "misaligned store of 2 bytes"},
      {"atom.global.add.u64 %rd2, [%rd1+4], %rd1;", "misaligned store of 8 bytes"},
      {"cvta.shared.u64 %rd2, sm; ld.u32 %r2, [%rd2+6];", "misaligned load of 4 bytes"},  // generic, in the shared window
  };
  for (bool fast : {true, false})
    for (const auto& [instruction, message] : cases) {
      auto k = std::string(".visible .entry k(.param .u64 out) {") + kDecls + R"(
  .reg .b16 %h<2>;
  .shared .align 16 .b8 sm[64];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, 7;
  mov.b16 %h1, 7;
  )" + instruction + R"(
  st.global.u32 [%rd1+64], %r1;
  ret;
})";
      Options o;
      o.fast_path = fast;
      auto r = run_kernel(k, 32, 17, o);
      CAPTURE(instruction);
      CAPTURE(fast);
      CHECK(r.r.problem.kind == Problem::Kind::misaligned);
      CHECK(r.r.problem.message.find(message) != std::string::npos);
      CHECK(r.out[16] == 0);  // nothing after the fault ran
    }
  // The same accesses at addresses the size divides run (a 4-byte vector of bytes needs 4, not 16).
  auto k = std::string(".visible .entry k(.param .u64 out) {") + kDecls + R"(
  .reg .b8 %b<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, 7;
  st.global.v2.u32 [%rd1+8], {%r1, %r1};
  ld.global.v4.u8 {%b0, %b1, %b2, %b3}, [%rd1+12];
  cvt.u32.u8 %r2, %b0;
  st.global.u32 [%rd1+4], %r2;
  ret;
})";
  auto r = run_kernel(k, 1, 4);
  REQUIRE_MESSAGE(r.r.ok(), r.r.problem.message);
  CHECK(r.out[1] == 7);
  CHECK(r.out[3] == 7);
}

TEST_CASE("extern shared memory starts at its declared .align (ISA 5.4.5), after the static variables") {
  // 20 bytes of static shared memory; the dynamic array asks for 128-byte alignment: its address is 128, not 32.
  auto k = std::string(".visible .entry k(.param .u64 out) {") + kDecls + R"(
  .shared .align 4 .b8 fixed[20];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, dyn;
  mov.u32 %r2, fixed;
  st.global.v2.u32 [%rd1], {%r1, %r2};
  ret;
})";
  auto r = run_kernel(".extern .shared .align 128 .b8 dyn[];\n" + k, 1, 2, {}, {}, 1, 64);
  REQUIRE_MESSAGE(r.r.ok(), r.r.problem.message);
  CHECK(r.out[0] == 128);
  CHECK(r.out[1] == 0);
}

TEST_CASE("device memory: an allocation's phase places its base; a read-only one is loaded but a store faults") {
  DeviceMemory dm;
  const std::uint64_t base = dm.memory.allocate("registered read-only", 8, 4096, true, 0, 12);
  REQUIRE(base != 0);
  CHECK(base % 4096 == 12);
  const std::uint32_t value = 0x1234;
  std::memcpy(dm.memory.find(base, 4)->bytes.data(), &value, 4);
  Options opt;
  opt.device = &dm;
  const std::string at = "  mov.u64 %rd3, " + std::to_string(base) + ";\n";
  Run loaded = run_kernel(std::string(".visible .entry k(.param .u64 out) {\n") + kDecls + at + "  ld.global.u32 %r9, [%rd3];\n" + kStoreTid, 1, 1, opt);
  REQUIRE_MESSAGE(loaded.r.ok(), loaded.r.problem.message);
  CHECK(loaded.out[0] == 0x1234u);
  Run stored = run_kernel(std::string(".visible .entry k(.param .u64 out) {\n") + kDecls + at + "  mov.u32 %r9, 1;\n  st.global.u32 [%rd3], %r9;\n" + kStoreTid, 1, 1, opt);
  CHECK(stored.r.problem.kind == Problem::Kind::out_of_bounds);
  CHECK(stored.r.problem.message.find("read-only memory 'registered read-only'") != std::string::npos);
  CHECK(dm.memory.find(base, 4)->bytes[0] == 0x34);  // unchanged
}
