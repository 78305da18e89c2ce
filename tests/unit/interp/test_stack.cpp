// alloca, stacksave and stackrestore (ISA 9.7.17) on the interpreter, from the text of their sections: memory
// alloca returns is local memory that ld.local/st.local reach, ptr is the new stack pointer (the stack grows down),
// immAlign (8 by default, a power of 2 up to 2^23) aligns it, stackrestore and the function's exit free it.
#include "tests/unit/interp/kernel_run.hpp"

#include <doctest/doctest.h>

using interp_test::run_out_kernel;
using ptx::interp::Problem;

namespace {
const char* kHead = ".version 9.0\n.target sm_100a\n.address_size 64\n";

// `body` in a one-thread kernel; %rd1 holds the address of `out`.
std::string kernel(const std::string& body, const std::string& before = "") {
  return std::string(kHead) + before + R"(.visible .entry k(.param .u64 out) {
  .reg .u32 %r<16>; .reg .u64 %rd<16>; .reg .pred %p<4>;
  ld.param.u64 %rd1, [out];
)" + body + R"(
  ret;
})";
}
}  // namespace

TEST_CASE("alloca: st.local and ld.local through ptr; ptr is the new stack pointer; stackrestore frees") {
  // The spec's example: stacksave; alloca; st.local [ptr]; stackrestore.
  const auto k = run_out_kernel(kernel(R"(
  stacksave.u64 %rd2;
  alloca.u64 %rd3, 16;
  st.local.u32 [%rd3], 11;
  st.local.u32 [%rd3+12], 22;
  ld.local.u32 %r1, [%rd3];
  ld.local.u32 %r2, [%rd3+12];
  st.global.u32 [%rd1], %r1;
  st.global.u32 [%rd1+4], %r2;
  stacksave.u64 %rd4;                 // "Return the new value of stack pointer as ptr"
  setp.eq.u64 %p1, %rd4, %rd3;
  selp.u32 %r3, 1, 0, %p1;
  st.global.u32 [%rd1+8], %r3;
  sub.u64 %rd5, %rd2, %rd3;           // the stack grows down: ptr lies below the saved pointer, 8-aligned
  cvt.u32.u64 %r4, %rd5;
  st.global.u32 [%rd1+12], %r4;
  and.b64 %rd6, %rd3, 7;
  cvt.u32.u64 %r5, %rd6;
  st.global.u32 [%rd1+16], %r5;
  stackrestore.u64 %rd2;
  stacksave.u64 %rd7;
  setp.eq.u64 %p2, %rd7, %rd2;
  selp.u32 %r6, 1, 0, %p2;
  st.global.u32 [%rd1+20], %r6;
)"), 1, 6);
  REQUIRE_MESSAGE(k.errors.empty(), interp_test::joined(k.errors));
  REQUIRE_MESSAGE(k.r.ok(), k.r.problem.message);
  CHECK(k.out[0] == 11);
  CHECK(k.out[1] == 22);
  CHECK(k.out[2] == 1);
  CHECK(k.out[3] >= 16);
  CHECK(k.out[3] < 16 + 8);
  CHECK(k.out[4] == 0);
  CHECK(k.out[5] == 1);
}

TEST_CASE("alloca: immAlign aligns ptr; a second allocation lies below the first") {
  const auto k = run_out_kernel(kernel(R"(
  alloca.u64 %rd2, 3;
  alloca.u64 %rd3, 40, 64;
  and.b64 %rd4, %rd3, 63;
  cvt.u32.u64 %r1, %rd4;
  st.global.u32 [%rd1], %r1;
  add.u64 %rd5, %rd3, 40;
  setp.le.u64 %p1, %rd5, %rd2;
  selp.u32 %r2, 1, 0, %p1;
  st.global.u32 [%rd1+4], %r2;
  and.b64 %rd6, %rd2, 7;              // the default alignment, 8
  cvt.u32.u64 %r3, %rd6;
  st.global.u32 [%rd1+8], %r3;
)"), 1, 3);
  REQUIRE_MESSAGE(k.errors.empty(), interp_test::joined(k.errors));
  REQUIRE_MESSAGE(k.r.ok(), k.r.problem.message);
  CHECK(k.out[0] == 0);
  CHECK(k.out[1] == 1);
  CHECK(k.out[2] == 0);
}

TEST_CASE("alloca.u32 with a 32-bit pointer, through a generic address too") {
  const auto k = run_out_kernel(kernel(R"(
  alloca.u32 %r1, 8;
  st.local.u32 [%r1+4], 33;
  cvt.u64.u32 %rd2, %r1;
  cvta.local.u64 %rd3, %rd2;
  ld.u32 %r2, [%rd3+4];
  st.global.u32 [%rd1], %r2;
)"), 1, 1);
  REQUIRE_MESSAGE(k.errors.empty(), interp_test::joined(k.errors));
  REQUIRE_MESSAGE(k.r.ok(), k.r.problem.message);
  CHECK(k.out[0] == 33);
}

TEST_CASE("memory freed by stackrestore is gone: accessing it is reported") {
  // "accessing deallocated memory after executing stackrestore results in undefined behavior"
  const auto k = run_out_kernel(kernel(R"(
  stacksave.u64 %rd2;
  alloca.u64 %rd3, 16;
  stackrestore.u64 %rd2;
  st.local.u32 [%rd3], 1;
)"), 1, 1);
  REQUIRE_MESSAGE(k.errors.empty(), interp_test::joined(k.errors));
  CHECK(k.r.problem.kind == Problem::Kind::out_of_bounds);
}

TEST_CASE("a function's allocations are freed when it exits") {
  // "It is automatically deallocated when the function exits."
  const std::string f = R"(.func (.param .b64 r) f ()
{
  .reg .u64 %x;
  alloca.u64 %x, 32;
  st.local.u32 [%x], 5;
  st.param.b64 [r], %x;
  ret;
}
)";
  const std::string body = R"(
  stacksave.u64 %rd2;
  { .param .b64 rv;
    call (rv), f, ();
    ld.param.b64 %rd3, [rv]; }
  stacksave.u64 %rd4;
  setp.eq.u64 %p1, %rd4, %rd2;
  selp.u32 %r1, 1, 0, %p1;
  st.global.u32 [%rd1], %r1;
)";
  const auto k = run_out_kernel(kernel(body, f), 1, 1);
  REQUIRE_MESSAGE(k.errors.empty(), interp_test::joined(k.errors));
  REQUIRE_MESSAGE(k.r.ok(), k.r.problem.message);
  CHECK(k.out[0] == 1);  // the stack pointer is back where it was before the call
  const auto after = run_out_kernel(kernel(body + "  ld.local.u32 %r2, [%rd3];\n", f), 1, 1);
  REQUIRE_MESSAGE(after.errors.empty(), interp_test::joined(after.errors));
  CHECK(after.r.problem.kind == Problem::Kind::out_of_bounds);
}

TEST_CASE("stackrestore to a value no stacksave of this function gave is reported") {
  const auto k = run_out_kernel(kernel(R"(
  stacksave.u64 %rd2;
  sub.u64 %rd3, %rd2, 64;
  stackrestore.u64 %rd3;
)"), 1, 1);
  REQUIRE_MESSAGE(k.errors.empty(), interp_test::joined(k.errors));
  REQUIRE(k.r.problem.kind == Problem::Kind::illegal);
  CHECK(k.r.problem.message.find("9.7.17.2") != std::string::npos);
}

TEST_CASE("alloca's immAlign: an integer constant, a power of 2 not above 2^23 (9.7.17.3)") {
  auto errors = [](const std::string& ins) { return run_out_kernel(kernel("  " + ins + "\n"), 1, 1).errors; };
  CHECK(errors("alloca.u64 %rd2, 8, 16;").empty());
  CHECK(errors("alloca.u64 %rd2, 8, 8388608;").empty());
  for (const char* bad : {"alloca.u64 %rd2, 8, 12;", "alloca.u64 %rd2, 8, 16777216;", "alloca.u64 %rd2, 8, %r1;"}) {
    const auto e = errors(bad);
    REQUIRE(e.size() == 1);
    CHECK(e[0].find("power of 2 not above 2^23 (ISA 9.7.17.3)") != std::string::npos);
  }
  CHECK(errors("stacksave.b64 %rd2;").size() == 1);
}
