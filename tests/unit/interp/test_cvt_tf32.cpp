// cvt to .tf32 (ISA 9.7.9.21) run by the interpreter: the qualifiers reach the one definition (ops::f32_to_tf32,
// whose values tests/unit/semantics_ops checks by hand), and the forms outside the syntax block are not run.
#include "tests/unit/interp/kernel_run.hpp"

#include <doctest/doctest.h>

using interp_test::run_out_kernel;

namespace {
std::string kernel(const std::string& body) {
  return std::string(".version 9.0\n.target sm_100a\n.address_size 64\n") + R"(.visible .entry k(.param .u64 out) {
  .reg .b32 %r<8>; .reg .f32 %f<4>; .reg .u64 %rd<4>;
  ld.param.u64 %rd1, [out];
)" + body + R"(
  ret;
})";
}
}  // namespace

TEST_CASE("cvt.rna/.rn/.rz{.satfinite}{.relu}.tf32.f32 d, a: the destination is a .b32") {
  // a = 0x3F801000 is 1.0 plus half a tf32 quantum; b = -inf; c = 0xBF803000 (negative, a tie above an odd result).
  const auto k = run_out_kernel(kernel(R"(
  mov.b32 %f1, 0x3F801000;
  mov.b32 %f2, 0xFF800000;
  mov.b32 %f3, 0xBF803000;
  cvt.rna.tf32.f32 %r1, %f1;
  st.global.b32 [%rd1], %r1;
  cvt.rn.tf32.f32 %r1, %f1;
  st.global.b32 [%rd1+4], %r1;
  cvt.rz.tf32.f32 %r1, %f3;
  st.global.b32 [%rd1+8], %r1;
  cvt.rna.satfinite.tf32.f32 %r1, %f2;
  st.global.b32 [%rd1+12], %r1;
  cvt.rn.satfinite.relu.tf32.f32 %r1, %f3;
  st.global.b32 [%rd1+16], %r1;
  cvt.rz.relu.tf32.f32 %r1, %f1;
  st.global.b32 [%rd1+20], %r1;
  cvt.rn.tf32.f32 %r1, %f2;
  st.global.b32 [%rd1+24], %r1;
)"), 1, 7);
  REQUIRE_MESSAGE(k.errors.empty(), interp_test::joined(k.errors));
  REQUIRE_MESSAGE(k.r.ok(), k.r.problem.message);
  CHECK(k.out[0] == 0x3F802000u);  // tie away from zero
  CHECK(k.out[1] == 0x3F800000u);  // tie to even
  CHECK(k.out[2] == 0xBF802000u);  // toward zero
  CHECK(k.out[3] == 0xFF7FE000u);  // -inf, .satfinite: -MAX_NORM
  CHECK(k.out[4] == 0u);           // .relu: negative -> 0
  CHECK(k.out[5] == 0x3F800000u);
  CHECK(k.out[6] == 0xFF800000u);  // -inf stays -inf
}

TEST_CASE("cvt to .tf32 outside 9.7.9.21's syntax block is not run: .rna.relu, .rm, .rp") {
  for (const char* form : {"cvt.rna.relu.tf32.f32 %r1, %f1;", "cvt.rm.tf32.f32 %r1, %f1;", "cvt.rp.satfinite.tf32.f32 %r1, %f1;"}) {
    const auto k = run_out_kernel(kernel(std::string("  mov.b32 %f1, 0x3F800000;\n  ") + form + "\n"), 1, 1);
    CAPTURE(form);
    if (!k.errors.empty()) continue;  // (or refused by the builder)
    CHECK(k.r.problem.kind == ptx::interp::Problem::Kind::unsupported);
  }
}
