// setmaxnreg (ISA 9.7.19.5) on the interpreter, from the text of its section: the warp's rendezvous (.sync) with no
// effect on values, the warps of a warpgroup executing the same operations (from their own call sites too), a
// warpgroup that does not all execute it or executes different ones (undefined), and its register count's range.
#include "tests/unit/interp/kernel_run.hpp"

#include <doctest/doctest.h>

using interp_test::kernel;
using interp_test::mentions;
using interp_test::run_out_kernel;
using ptx::interp::Problem;

TEST_CASE("setmaxnreg.{dec,inc}.sync.aligned.u32: the warp waits for its lanes; values are unchanged") {
  // A full warpgroup (four warps) releases and requests registers; every thread's values survive.
  const auto k = run_out_kernel(kernel(R"(
  add.u32 %r9, %r0, 1000;
  setmaxnreg.dec.sync.aligned.u32 40;
  setmaxnreg.inc.sync.aligned.u32 232;
)"), 128, 128);
  REQUIRE_MESSAGE(k.errors.empty(), interp_test::joined(k.errors));
  REQUIRE_MESSAGE(k.r.ok(), k.r.problem.message);
  for (std::uint32_t t = 0; t < 128; ++t) CHECK(k.out[t] == 1000 + t);
  CHECK(k.r.stats.warp_syncs >= 2 * 4);
}

TEST_CASE("setmaxnreg not executed by every warp of the warpgroup: undefined, reported when the CTA ends") {
  // "If a setmaxnreg instruction is not executed by all warps in the warpgroup, then the behavior is undefined":
  // warp 0 executes one, warp 1 none. (.sync waits for the warp only: warp 0 does not wait for warp 1 there.)
  const auto k = run_out_kernel(kernel(R"(
  mov.u32 %r9, 0;
  setp.ge.u32 %p1, %r0, 32;
  @%p1 bra SKIP;
  setmaxnreg.inc.sync.aligned.u32 64;
SKIP:
  bar.sync 0;
)"), 64, 64);
  REQUIRE_MESSAGE(k.errors.empty(), interp_test::joined(k.errors));
  CHECK(k.r.problem.kind == Problem::Kind::illegal);
  CHECK_MESSAGE(k.r.problem.message.find("warp 0 executed 1 setmaxnreg operations and warp 1 of its warpgroup 0") != std::string::npos, k.r.problem.message);
  CHECK_MESSAGE(k.r.problem.message.find("is not executed by all warps in the warpgroup, then the behavior is undefined") != std::string::npos, k.r.problem.message);
}

TEST_CASE("setmaxnreg: each warp's role at its own call site, the same operations: runs (CUTLASS's pattern)") {
  // Warps 0-1 and 2-3 take different branches, each releasing to 40 and then requesting 232 registers: the same
  // operations in the same order, from different instructions. The warps synchronise with bar.sync between them.
  const auto k = run_out_kernel(kernel(R"(
  add.u32 %r9, %r0, 7;
  setp.ge.u32 %p1, %r0, 64;
  @%p1 bra HIGH;
  setmaxnreg.dec.sync.aligned.u32 40;
  bar.sync 0;
  setmaxnreg.inc.sync.aligned.u32 232;
  bra.uni DONE;
HIGH:
  setmaxnreg.dec.sync.aligned.u32 40;
  bar.sync 0;
  setmaxnreg.inc.sync.aligned.u32 232;
DONE:
)"), 128, 128);
  REQUIRE_MESSAGE(k.errors.empty(), interp_test::joined(k.errors));
  REQUIRE_MESSAGE(k.r.ok(), k.r.problem.message);
  for (std::uint32_t t = 0; t < 128; ++t) CHECK(k.out[t] == 7 + t);
}

TEST_CASE("setmaxnreg: warps of a warpgroup executing different operations is undefined") {
  // Warp 1 requests 232 where warp 0 releases to 40.
  const auto k = run_out_kernel(kernel(R"(
  mov.u32 %r9, 0;
  setp.ge.u32 %p1, %r0, 32;
  @%p1 bra HIGH;
  setmaxnreg.dec.sync.aligned.u32 40;
  bra.uni DONE;
HIGH:
  setmaxnreg.inc.sync.aligned.u32 232;
DONE:
)"), 64, 64);
  REQUIRE_MESSAGE(k.errors.empty(), interp_test::joined(k.errors));
  CHECK(k.r.problem.kind == Problem::Kind::illegal);
  CHECK_MESSAGE(k.r.problem.message.find("execute different setmaxnreg operations as their number 1 (setmaxnreg.dec 40, setmaxnreg.inc 232)") != std::string::npos, k.r.problem.message);
}

TEST_CASE("setmaxnreg: imm-reg-count in 24..256 and a multiple of 8, .sync and .aligned mandatory (9.7.19.5)") {
  auto errors = [](const std::string& ins) { return run_out_kernel(kernel("  mov.u32 %r9, 0;\n  " + ins + "\n"), 32, 32).errors; };
  CHECK(errors("setmaxnreg.inc.sync.aligned.u32 24;").empty());
  CHECK(errors("setmaxnreg.dec.sync.aligned.u32 256;").empty());
  for (const char* bad : {"setmaxnreg.inc.sync.aligned.u32 16;", "setmaxnreg.inc.sync.aligned.u32 264;",
                          "setmaxnreg.dec.sync.aligned.u32 100;"}) {
    const auto e = errors(bad);
    REQUIRE(e.size() == 1);
    CHECK(e[0].find("must be in 24..256 and a multiple of 8 (ISA 9.7.19.5)") != std::string::npos);
    CHECK(e[0].find("test.ptx:") != std::string::npos);  // with its location
  }
  CHECK(mentions(errors("setmaxnreg.inc.aligned.u32 64;"), "needs .sync and .aligned"));
  CHECK(mentions(errors("setmaxnreg.sync.aligned.u32 64;"), "exactly one of .inc and .dec"));
  CHECK(mentions(errors("setmaxnreg.inc.sync.aligned.u32 %r0;"), "must be an integer constant"));
}
