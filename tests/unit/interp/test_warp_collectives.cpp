// redux.sync and elect.sync on the interpreter, against values computed by hand from the ISA text (9.7.13.12,
// 9.7.13.14): each lane's input from a .const table, one instruction, every lane's result.
#include "tests/unit/interp/kernel_run.hpp"

#include <doctest/doctest.h>

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

namespace {
using interp_test::joined;

std::uint32_t f32(float x) { return std::bit_cast<std::uint32_t>(x); }
constexpr std::uint32_t kCanonicalNaN = 0x7fffffff;  // 9.7.3: the canonical NaN of .f32
constexpr std::uint32_t kQuietNaN = 0x7fc00001;      // a NaN with a payload, not the canonical one

// The results of `redux.sync.FORM d, a, 0xffffffff` in a warp whose lane i has a = values[i % values.size()].
std::vector<std::uint32_t> redux(const std::string& form, const std::vector<std::uint32_t>& values) {
  std::string table;
  for (std::uint32_t i = 0; i < 32; ++i) table += (i ? ", " : "") + std::to_string(values[i % values.size()]);
  const std::string ptx = ".version 9.0\n.target sm_100a\n.address_size 64\n.const .align 4 .b32 vals[32] = {" + table +
                          "};\n" + R"(.visible .entry k(.param .u64 out) {
  .reg .b32 %r<16>; .reg .u64 %rd<8>;
  mov.u32 %r0, %tid.x;
  mul.wide.u32 %rd2, %r0, 4;
  mov.u64 %rd3, vals;
  add.u64 %rd3, %rd3, %rd2;
  ld.const.b32 %r1, [%rd3];
  redux.sync.)" + form + R"( %r9, %r1, 0xffffffff;
  ld.param.u64 %rd1, [out];
  add.u64 %rd1, %rd1, %rd2;
  st.global.u32 [%rd1], %r9;
  ret;
})";
  auto k = interp_test::run_out_kernel(ptx, 32, 32);
  INFO(form << "\n" << joined(k.errors));
  REQUIRE(k.errors.empty());
  REQUIRE(k.r.ok());
  return k.out;
}
// The one result every lane gets.
std::uint32_t redux_result(const std::string& form, const std::vector<std::uint32_t>& values) {
  const auto out = redux(form, values);
  for (std::uint32_t lane = 1; lane < 32; ++lane) CHECK(out[lane] == out[0]);
  return out[0];
}
}  // namespace

TEST_CASE("redux.sync integer forms: .add truncated to 32 bits, .min/.max by the type, bitwise ops (9.7.13.12)") {
  // "For the .add operation result is truncated to 32 bits": 16 lanes of 0x80000000 and 16 of 1.
  CHECK(redux_result("add.u32", {0x80000000u, 1}) == 16u);
  CHECK(redux_result("add.s32", {0xffffffffu, 3}) == 32u);  // 16 * (-1) + 16 * 3
  // .u32 compares unsigned, .s32 signed.
  CHECK(redux_result("min.u32", {0xffffffffu, 7, 9}) == 7u);
  CHECK(redux_result("min.s32", {0xffffffffu, 7, 9}) == 0xffffffffu);
  CHECK(redux_result("max.u32", {0xffffffffu, 7, 9}) == 0xffffffffu);
  CHECK(redux_result("max.s32", {0xffffffffu, 7, 9}) == 9u);
  CHECK(redux_result("and.b32", {0xff00ff0fu, 0x0ff0fff1u}) == 0x0f00ff01u);
  CHECK(redux_result("or.b32", {0x1u, 0x10u, 0x100u, 0x1000u}) == 0x1111u);
  CHECK(redux_result("xor.b32", {0x5u, 0x3u, 0x3u}) == (0x5u ^ 0x3u));  // lanes: 11 of 5, 21 of 3 -> 5 ^ 3
}

TEST_CASE("redux.sync .f32 min/max: float order, .abs, .NaN, +0.0 > -0.0 (9.7.13.12)") {
  // Float order, not the bits' integer order: -2.0 < -1.0 (as signed integers 0xc0000000 > 0xbf800000).
  CHECK(redux_result("min.f32", {f32(-1.0f), f32(-2.0f), f32(3.5f)}) == f32(-2.0f));
  CHECK(redux_result("max.f32", {f32(-1.0f), f32(-2.0f), f32(-0.5f)}) == f32(-0.5f));
  // "If .abs qualifier is specified, then the absolute value of the input is considered".
  CHECK(redux_result("min.abs.f32", {f32(-3.0f), f32(2.0f), f32(-5.0f)}) == f32(2.0f));
  CHECK(redux_result("max.abs.f32", {f32(-3.0f), f32(2.0f), f32(-5.0f)}) == f32(5.0f));
  CHECK(redux_result("max.abs.f32", {f32(-3.0f)}) == f32(3.0f));  // one value, still its absolute value
  // "if the input value is 0.0 then +0.0 > -0.0".
  CHECK(redux_result("max.f32", {f32(-0.0f), f32(0.0f)}) == f32(0.0f));
  CHECK(redux_result("min.f32", {f32(0.0f), f32(-0.0f)}) == f32(-0.0f));
  // "In the absence of .NaN qualifier, only non-NaN values are considered ... and the result will be canonical NaN
  // when all inputs are NaNs."
  CHECK(redux_result("max.f32", {kQuietNaN, f32(1.0f), f32(2.0f)}) == f32(2.0f));
  CHECK(redux_result("min.f32", {f32(1.0f), kQuietNaN}) == f32(1.0f));
  CHECK(redux_result("min.f32", {kQuietNaN}) == kCanonicalNaN);
  CHECK(redux_result("max.f32", {kQuietNaN, 0xffc00000u}) == kCanonicalNaN);
  // "If the .NaN qualifier is specified, then the result ... is canonical NaN if the input ... from any
  // participating thread is NaN."
  CHECK(redux_result("max.NaN.f32", {f32(1.0f), f32(2.0f), kQuietNaN}) == kCanonicalNaN);
  CHECK(redux_result("min.abs.NaN.f32", {f32(-1.0f), 0xffc00000u}) == kCanonicalNaN);
  CHECK(redux_result("min.NaN.f32", {f32(4.0f), f32(-4.0f)}) == f32(-4.0f));
}

TEST_CASE("elect.sync: one leader in each membermask, its laneid in every lane, the same for the same mask (9.7.13.14)") {
  // Even lanes elect among 0x55555555, odd ones among 0xaaaaaaaa, twice each ("the same leader thread is elected for
  // the same membermask every time"); a lane stores its d, plus 100 when p, plus 1000 when the second election
  // agreed with the first.
  const std::string body = R"(
  and.b32 %r1, %r0, 1;
  setp.eq.u32 %p0, %r1, 0;
  @!%p0 bra ODD;
  elect.sync %r2|%p1, 0x55555555;
  elect.sync %r3|%p2, 0x55555555;
  bra.uni JOIN;
ODD:
  elect.sync %r2|%p1, 0xaaaaaaaa;
  elect.sync %r3|%p2, 0xaaaaaaaa;
JOIN:
  selp.u32 %r4, 100, 0, %p1;
  setp.eq.u32 %p3, %r2, %r3;
  selp.u32 %r5, 1000, 0, %p3;
  add.u32 %r9, %r2, %r4;
  add.u32 %r9, %r9, %r5;)";
  auto k = interp_test::run_out_kernel(interp_test::kernel(body), 32, 32);
  INFO(joined(k.errors));
  REQUIRE(k.errors.empty());
  REQUIRE(k.r.ok());
  for (unsigned parity = 0; parity < 2; ++parity) {
    unsigned leaders = 0;
    const std::uint32_t leader = k.out[parity] % 100;  // lane `parity` is in this group
    CHECK(leader % 2 == parity);  // in the membermask
    for (unsigned lane = parity; lane < 32; lane += 2) {
      const std::uint32_t v = k.out[lane];
      CHECK(v % 100 == leader);  // the leader's laneid in every lane of the group
      CHECK(v / 1000 == 1);      // the same leader both times
      if ((v / 100) % 10 == 1) {
        ++leaders;
        CHECK(lane == leader);  // p in the leader
      }
    }
    CHECK(leaders == 1);
  }
}

TEST_CASE("elect.sync in a CTA that ends mid-warp: the leader is a lane that exists") {
  auto k = interp_test::run_out_kernel(interp_test::kernel(R"(
  elect.sync %r2|%p1, 0xffffffff;
  selp.u32 %r4, 100, 0, %p1;
  add.u32 %r9, %r2, %r4;)"),
                                       40, 40);
  INFO(joined(k.errors));
  REQUIRE(k.errors.empty());
  REQUIRE(k.r.ok());
  for (unsigned warp = 0; warp < 2; ++warp) {
    const unsigned first = 32 * warp, end = warp ? 40 : 32;
    unsigned leaders = 0;
    for (unsigned t = first; t < end; ++t) {
      CHECK(k.out[t] % 100 == k.out[first] % 100);
      CHECK(k.out[t] % 100 < end - first);
      if (k.out[t] >= 100) { ++leaders; CHECK(t - first == k.out[t] % 100); }
    }
    CHECK(leaders == 1);
  }
}
