// setmaxnreg (ISA 9.7.19.5) on the interpreter, from the text of its section: a warpgroup rendezvous with no effect
// on values (.sync.aligned), a warpgroup that does not all execute it, and the stated range of its register count.
#include "tests/unit/interp/kernel_run.hpp"

#include <doctest/doctest.h>

using interp_test::kernel;
using interp_test::mentions;
using interp_test::run_out_kernel;
using ptx::interp::Problem;

TEST_CASE("setmaxnreg.{dec,inc}.sync.aligned.u32: a warpgroup rendezvous with no effect on values") {
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

TEST_CASE("setmaxnreg not executed by every warp of the warpgroup: the others never arrive") {
  // "If a setmaxnreg instruction is not executed by all warps in a warpgroup, then the behavior is undefined":
  // warp 0 waits at setmaxnreg for warp 1, which waits at the CTA barrier for warp 0.
  const auto k = run_out_kernel(kernel(R"(
  mov.u32 %r9, 0;
  setp.ge.u32 %p1, %r0, 32;
  @%p1 bra SKIP;
  setmaxnreg.inc.sync.aligned.u32 64;
SKIP:
  bar.sync 0;
)"), 64, 64);
  REQUIRE_MESSAGE(k.errors.empty(), interp_test::joined(k.errors));
  CHECK(k.r.problem.kind == Problem::Kind::deadlock);
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
