// The transcribed ISA pseudo-code (proofs/spec_reference) on concrete operands, against values computed by
// hand from the ISA text, so that the reference side of each identity is itself checked.
#include "proofs/spec_reference.hpp"

#include <doctest/doctest.h>

using namespace ptxcheck::proofs;

namespace {
z3::context ctx;
std::uint64_t val(const z3::expr& e) {
  auto s = e.simplify();
  std::uint64_t v = 0;
  REQUIRE(s.is_numeral_u64(v));
  return v;
}
z3::expr w32(std::uint64_t v) { return ctx.bv_val(v, 32); }
z3::expr w64(std::uint64_t v) { return ctx.bv_val(v, 64); }
}  // namespace

TEST_CASE("spec: bfe (ISA 9.7.1.19)") {
  CHECK(val(spec::bfe(w32(0xF0F0), w32(4), w32(8), false)) == 0x0F);
  CHECK(val(spec::bfe(w32(0xF0F0), w32(0x104), w32(8), false)) == 0x0F);  // pos = b & 0xff
  CHECK(val(spec::bfe(w32(0x80), w32(4), w32(4), true)) == 0xFFFFFFF8);   // field 1000b, sign bit 1
  CHECK(val(spec::bfe(w32(0x80), w32(4), w32(4), false)) == 0x8);
  CHECK(val(spec::bfe(w32(0x80000000), w32(28), w32(8), true)) == 0xFFFFFFF8);  // field beyond msb: a[31]
  CHECK(val(spec::bfe(w32(0xFFFFFFFF), w32(3), w32(0), true)) == 0);      // len 0
  CHECK(val(spec::bfe(w32(0xFFFFFFFF), w32(40), w32(4), false)) == 0);    // start beyond msb, unsigned
  CHECK(val(spec::bfe(w32(0x80000000), w32(40), w32(4), true)) == 0xFFFFFFFF);  // replicated sign
  CHECK(val(spec::bfe(w64(0x123456789ABCDEF0ull), w32(32), w32(16), false)) == 0x5678);
}

TEST_CASE("spec: bfi (ISA 9.7.1.20)") {
  CHECK(val(spec::bfi(w32(0xAB), w32(0xFFFFFFFF), w32(8), w32(8))) == 0xFFFFABFF);
  CHECK(val(spec::bfi(w32(0xFFFF), w32(0), w32(28), w32(8))) == 0xF0000000);  // cut at msb
  CHECK(val(spec::bfi(w32(0xFFFF), w32(0x1234), w32(4), w32(0))) == 0x1234);  // len 0: b
  CHECK(val(spec::bfi(w32(0xFFFF), w32(0x1234), w32(32), w32(4))) == 0x1234); // pos beyond msb: b
  CHECK(val(spec::bfi(w64(0xF), w64(0), w32(60), w32(4))) == 0xF000000000000000ull);
}

TEST_CASE("spec: shf (ISA 9.7.8.7)") {
  auto a = w32(0x12345678), b = w32(0x9ABCDEF0);
  CHECK(val(spec::shf(a, b, w32(8), true, true)) == 0xBCDEF012);
  CHECK(val(spec::shf(a, b, w32(8), false, true)) == 0xF0123456);
  CHECK(val(spec::shf(a, b, w32(40), true, true)) == 0x12345678);  // clamp to 32: the low word moves up
  CHECK(val(spec::shf(a, b, w32(40), true, false)) == 0xBCDEF012); // wrap: 40 & 31 = 8
  CHECK(val(spec::shf(a, b, w32(32), false, true)) == 0x9ABCDEF0);
  CHECK(val(spec::shf(a, b, w32(0), true, true)) == 0x9ABCDEF0);
}

TEST_CASE("spec: prmt (ISA 9.7.9.7)") {
  auto a = w32(0x03020100), b = w32(0x07060504);  // source byte i holds i
  CHECK(val(spec::prmt(a, b, w32(0x3210), 0)) == 0x03020100);
  CHECK(val(spec::prmt(a, b, w32(0x7654), 0)) == 0x07060504);
  CHECK(val(spec::prmt(a, b, w32(0x0123), 0)) == 0x00010203);
  CHECK(val(spec::prmt(w32(0x7F80), w32(0), w32(0x8989), 0)) == 0xFF00FF00);  // sign replication
  CHECK(val(spec::prmt(a, b, w32(1), 1)) == 0x04030201);  // f4e
  CHECK(val(spec::prmt(a, b, w32(0), 2)) == 0x05060700);  // b4e
  CHECK(val(spec::prmt(a, b, w32(2), 3)) == 0x02020202);  // rc8
  CHECK(val(spec::prmt(a, b, w32(1), 4)) == 0x03020101);  // ecl
  CHECK(val(spec::prmt(a, b, w32(2), 5)) == 0x02020100);  // ecr
  CHECK(val(spec::prmt(a, b, w32(1), 6)) == 0x03020302);  // rc16
}
