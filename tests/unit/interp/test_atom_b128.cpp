// atom.cas.b128 and atom.exch.b128 (ISA 9.7.13.5) on the interpreter, global and shared, with the 128-bit values
// packed and unpacked by mov.b128 (9.7.9.10) and moved by ld/st .b128: the spec's semantics
//   atomic { d = *a; *a = (operation == cas) ? cas(*a, b, c) : exch(*a, b); }, cas(r,s,t) = (r == s) ? t : r.
#include "tests/unit/interp/kernel_run.hpp"

#include <doctest/doctest.h>

using interp_test::run_out_kernel;

namespace {
// M = {lo 0x1111111122222222, hi 0x3333333344444444}, N = {lo 0xaaaaaaaabbbbbbbb, hi 0xccccccccdddddddd},
// X = {lo 0x5555555566666666, hi 0x7777777788888888}; `mov.b128 q, {lo, hi}`: the first element is the low half.
const char* kValues = R"(
  mov.b64 %rd2, 0x1111111122222222;
  mov.b64 %rd3, 0x3333333344444444;
  mov.b128 %q1, {%rd2, %rd3};
  mov.b64 %rd4, 0xaaaaaaaabbbbbbbb;
  mov.b64 %rd5, 0xccccccccdddddddd;
  mov.b128 %q2, {%rd4, %rd5};
  mov.b128 %q3, {%rd4, %rd3};
  mov.b64 %rd6, 0x5555555566666666;
  mov.b64 %rd7, 0x7777777788888888;
  mov.b128 %q4, {%rd6, %rd7};
)";

std::string kernel(const std::string& body) {
  return std::string(".version 9.0\n.target sm_100a\n.address_size 64\n") + R"(.visible .entry k(.param .u64 out) {
  .reg .u32 %r<8>; .reg .u64 %rd<16>; .reg .b128 %q<12>;
  .shared .align 16 .b8 sm[16];
  ld.param.u64 %rd1, [out];
)" + kValues + body + R"(
  ret;
})";
}

// The four u32 words of {lo, hi}, lowest first.
void check_words(const std::vector<std::uint32_t>& out, std::size_t at, std::uint64_t lo, std::uint64_t hi) {
  CHECK(out[at] == static_cast<std::uint32_t>(lo));
  CHECK(out[at + 1] == static_cast<std::uint32_t>(lo >> 32));
  CHECK(out[at + 2] == static_cast<std::uint32_t>(hi));
  CHECK(out[at + 3] == static_cast<std::uint32_t>(hi >> 32));
}
constexpr std::uint64_t kMlo = 0x1111111122222222, kMhi = 0x3333333344444444, kNlo = 0xaaaaaaaabbbbbbbb,
                        kNhi = 0xccccccccdddddddd, kXlo = 0x5555555566666666, kXhi = 0x7777777788888888;
}  // namespace

TEST_CASE("atom.global.cas.b128: success swaps, a compare that differs in the upper half fails; exch") {
  const auto k = run_out_kernel(kernel(R"(
  st.global.b128 [%rd1], %q1;                          // *a = M
  atom.global.cas.b128 %q5, [%rd1], %q1, %q2;          // M == M: *a = N, d = M
  st.global.b128 [%rd1+16], %q5;
  atom.global.cas.b128 %q6, [%rd1], %q3, %q4;          // {N.lo, M.hi} != N: *a stays N, d = N
  st.global.b128 [%rd1+32], %q6;
  ld.global.b128 %q7, [%rd1];
  st.global.b128 [%rd1+48], %q7;
  atom.global.exch.b128 %q8, [%rd1], %q4;              // d = N, *a = X
  st.global.b128 [%rd1+64], %q8;
)"), 1, 20);
  REQUIRE_MESSAGE(k.errors.empty(), interp_test::joined(k.errors));
  REQUIRE_MESSAGE(k.r.ok(), k.r.problem.message);
  check_words(k.out, 4, kMlo, kMhi);   // the successful CAS returned the old value M
  check_words(k.out, 8, kNlo, kNhi);   // the failed CAS returned the current value N ...
  check_words(k.out, 12, kNlo, kNhi);  // ... and left it in memory
  check_words(k.out, 16, kNlo, kNhi);  // exch returned N
  check_words(k.out, 0, kXlo, kXhi);   // and wrote X
}

TEST_CASE("atom.shared.cas.b128 and atom.shared.exch.b128; mov.b128 unpacks the result") {
  const auto k = run_out_kernel(kernel(R"(
  st.shared.b128 [sm], %q1;
  atom.shared.cas.b128 %q5, [sm], %q1, %q2;            // d = M, *sm = N
  atom.shared.cas.b128 %q6, [sm], %q1, %q4;            // M != N: fails, d = N
  atom.shared.exch.b128 %q7, [sm], %q4;                // d = N, *sm = X
  ld.shared.b128 %q8, [sm];
  st.global.b128 [%rd1], %q5;
  st.global.b128 [%rd1+16], %q6;
  st.global.b128 [%rd1+32], %q7;
  mov.b128 {%rd8, %rd9}, %q8;                          // unpack: rd8 the low half
  st.global.b64 [%rd1+48], %rd8;
  st.global.b64 [%rd1+56], %rd9;
)"), 1, 16);
  REQUIRE_MESSAGE(k.errors.empty(), interp_test::joined(k.errors));
  REQUIRE_MESSAGE(k.r.ok(), k.r.problem.message);
  check_words(k.out, 0, kMlo, kMhi);
  check_words(k.out, 4, kNlo, kNhi);
  check_words(k.out, 8, kNlo, kNhi);
  check_words(k.out, 12, kXlo, kXhi);
}

TEST_CASE("atom.cas.b128 at an address 8 but not 16 divides faults as misaligned (ISA 6.4.1: 16-byte access)") {
  // The access size of a .b128 atom is 16 bytes; "the address must be naturally aligned to a multiple of the access
  // size", otherwise "the instruction may fault" (as hardware does: cudaErrorMisalignedAddress).
  const auto k = run_out_kernel(kernel(R"(
  atom.global.cas.b128 %q5, [%rd1+8], %q1, %q2;
  st.global.b128 [%rd1+16], %q5;
)"), 1, 8);
  REQUIRE_MESSAGE(k.errors.empty(), interp_test::joined(k.errors));
  CHECK(k.r.problem.kind == ptx::interp::Problem::Kind::misaligned);
  CHECK(k.r.problem.message.find("misaligned store of 16 bytes") != std::string::npos);
  CHECK(k.out[4] == 0);  // the store after it did not run
}
