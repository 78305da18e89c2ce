// brx.idx (ISA 9.7.12.4) on the interpreter, from the text of its section: the indexed branch's pseudo-code
// (divergent, uniform, guarded, backwards), an index past the list (undefined behaviour, reported) and tlist.
#include "tests/unit/interp/kernel_run.hpp"

#include <doctest/doctest.h>

using interp_test::kernel;
using interp_test::mentions;
using interp_test::run_out_kernel;
using ptx::interp::Problem;

// Three targets; each sets %r9 to 100 + its position in the list and joins at DONE.
constexpr const char* kThreeTargets = R"(
  bra.uni GO;
L0:
  mov.u32 %r9, 100;
  bra.uni DONE;
L1:
  mov.u32 %r9, 101;
  bra.uni DONE;
L2:
  mov.u32 %r9, 102;
  bra.uni DONE;
GO:
  mov.u32 %r9, 7;
)";

TEST_CASE("brx.idx: each lane continues at tlist[index] (9.7.12.4), lanes diverging and joining again") {
  const auto k = run_out_kernel(kernel(std::string(kThreeTargets) + R"(
  rem.u32 %r1, %r0, 3;
  ts: .branchtargets L0, L1, L2;
  brx.idx %r1, ts;
DONE:)"), 32, 32);
  REQUIRE_MESSAGE(k.errors.empty(), interp_test::joined(k.errors));
  REQUIRE_MESSAGE(k.r.ok(), k.r.problem.message);
  for (std::uint32_t t = 0; t < 32; ++t) CHECK(k.out[t] == 100 + t % 3);
  CHECK(k.r.stats.divergent_branches >= 1);
}

TEST_CASE("brx.idx.uni with one index for the warp, and a guard: `if (p) pc = tlist[index]`") {
  const auto uni = run_out_kernel(kernel(std::string(kThreeTargets) + R"(
  mov.u32 %r1, 2;
  ts: .branchtargets L0, L1, L2;
  brx.idx.uni %r1, ts;
DONE:)"), 32, 32);
  REQUIRE_MESSAGE(uni.errors.empty(), interp_test::joined(uni.errors));
  REQUIRE_MESSAGE(uni.r.ok(), uni.r.problem.message);
  for (std::uint32_t t = 0; t < 32; ++t) CHECK(uni.out[t] == 102);
  // Odd lanes' guard is false: they go on to the next instruction (%r9 stays 7); even lanes take index 1.
  const auto guarded = run_out_kernel(kernel(std::string(kThreeTargets) + R"(
  and.b32 %r2, %r0, 1;
  setp.eq.u32 %p1, %r2, 0;
  mov.u32 %r1, 1;
  ts: .branchtargets L0, L1, L2;
  @%p1 brx.idx %r1, ts;
DONE:)"), 32, 32);
  REQUIRE_MESSAGE(guarded.errors.empty(), interp_test::joined(guarded.errors));
  REQUIRE_MESSAGE(guarded.r.ok(), guarded.r.problem.message);
  for (std::uint32_t t = 0; t < 32; ++t) CHECK(guarded.out[t] == (t % 2 == 0 ? 101u : 7u));
}

TEST_CASE("brx.idx backwards in a loop: lanes leave after different trip counts") {
  // Lane t runs the loop body t % 4 + 1 times: index 0 goes back to TOP, index 1 leaves.
  const auto k = run_out_kernel(kernel(R"(
  and.b32 %r3, %r0, 3;
  mov.u32 %r9, 0;
TOP:
  add.u32 %r9, %r9, 1;
  setp.gt.u32 %p1, %r9, %r3;
  selp.u32 %r1, 1, 0, %p1;
  back: .branchtargets TOP, OUT;
  brx.idx %r1, back;
OUT:)"), 32, 32);
  REQUIRE_MESSAGE(k.errors.empty(), interp_test::joined(k.errors));
  REQUIRE_MESSAGE(k.r.ok(), k.r.problem.message);
  for (std::uint32_t t = 0; t < 32; ++t) CHECK(k.out[t] == t % 4 + 1);
}

TEST_CASE("brx.idx: an index not below the length of tlist is undefined behaviour, reported at the lane") {
  // "Behaviour is undefined if the value of index is greater than or equal to the length of tlist."
  const auto k = run_out_kernel(kernel(std::string(kThreeTargets) + R"(
  setp.eq.u32 %p1, %r0, 5;
  selp.u32 %r1, 3, 0, %p1;
  ts: .branchtargets L0, L1, L2;
  brx.idx %r1, ts;
DONE:)"), 32, 32);
  REQUIRE_MESSAGE(k.errors.empty(), interp_test::joined(k.errors));
  REQUIRE(k.r.problem.kind == Problem::Kind::illegal);
  CHECK(k.r.problem.message.find("9.7.12.4") != std::string::npos);
  CHECK(k.r.problem.message.find("index 3") != std::string::npos);
  REQUIRE(k.r.problem.threads.size() == 1);
  CHECK(k.r.problem.threads[0].tid[0] == 5);
}

TEST_CASE("brx.idx: tlist must be the label of a .branchtargets directive") {
  const auto k = run_out_kernel(kernel(std::string(kThreeTargets) + R"(
  mov.u32 %r1, 0;
  brx.idx %r1, L1;
DONE:)"), 32, 32);
  CHECK(mentions(k.errors, "'L1' is not the label of a .branchtargets directive (ISA 9.7.12.4)"));
}

