// Unit tests of `--assume` preconditions (checker/race/assume.hpp): the grammar's precedence and associativity and the
// operators' values against values worked out by hand with C's rules (64-bit two's complement), the argument's sign
// from its C++ type, the ties to the encoding's reads of an argument, and errors located by column.
#include "checker/race/assume.hpp"

#include <doctest/doctest.h>

using namespace ptxcheck;

namespace {
// A kernel `k(int, unsigned int, float*)` as nvcc declares it: an int passes as .u32, a pointer as .u64.
ptx::ir::Function kernel() {
  ptx::ir::Function f;
  f.name = "_Z1kijPf";
  for (auto [name, type] : {std::pair{"a", ptx::ir::ScalarType::u32}, {"b", ptx::ir::ScalarType::u32}, {"p", ptx::ir::ScalarType::u64}}) {
    ptx::ir::Variable v;
    v.name = name;
    v.space = ptx::ir::StateSpace::param;
    v.type.scalar = type;
    f.params.push_back(v);
  }
  return f;
}

// The value of `expr` with arg1 = a (int), arg2 = b (unsigned int), blockDim (64,2,1) and gridDim (8,1,1), as a
// signed 64-bit number; the kernel's reads of the arguments are the symbols an ld.param.u32 makes (argument_symbol).
std::int64_t value_of(const std::string& expr, std::int32_t a, std::uint32_t b) {
  std::string error;
  auto parsed = race::parse_assumption(expr, error);
  REQUIRE_MESSAGE(parsed, error);
  z3::context c;
  const std::vector<z3::expr> ntid{c.bv_val(64, 32), c.bv_val(2, 32), c.bv_val(1, 32)}, nctaid{c.bv_val(8, 32), c.bv_val(1, 32), c.bv_val(1, 32)};
  const z3::expr read_a = c.bv_const("arg.a+0", 32), read_b = c.bv_const("arg.b+0", 32);
  auto v = race::assumption_value(c, *parsed, kernel(), ntid, nctaid, {read_a, read_b}, error);
  REQUIRE_MESSAGE(v, error);
  z3::solver s(c);
  s.add(v->ties && read_a == c.bv_val(static_cast<std::uint32_t>(a), 32) && read_b == c.bv_val(b, 32));
  REQUIRE(s.check() == z3::sat);
  return static_cast<std::int64_t>(s.get_model().eval(v->value, true).get_numeral_uint64());
}

std::string error_of(const std::string& expr) {
  std::string error;
  CHECK_FALSE(race::parse_assumption(expr, error));
  return error;
}
}  // namespace

TEST_CASE("--assume: C's precedence and associativity") {
  CHECK(value_of("2 + 3 * 4", 0, 0) == 14);
  CHECK(value_of("(2 + 3) * 4", 0, 0) == 20);
  CHECK(value_of("10 - 4 - 3", 0, 0) == 3);          // left-associative
  CHECK(value_of("100 / 10 / 5", 0, 0) == 2);
  CHECK(value_of("1 << 2 + 1", 0, 0) == 8);          // + binds tighter than <<
  CHECK(value_of("1 < 2 == 1", 0, 0) == 1);          // < binds tighter than ==
  CHECK(value_of("6 & 3 == 3", 0, 0) == 0);          // == binds tighter than &: 6 & 1
  CHECK(value_of("1 | 2 ^ 3 & 1", 0, 0) == 3);       // & then ^ then |: 1 | (2 ^ 1)
  CHECK(value_of("0 || 1 && 0", 0, 0) == 0);         // && binds tighter than ||
  CHECK(value_of("-2 * -3", 0, 0) == 6);
  CHECK(value_of("!0 + !5 + ~0", 0, 0) == 0);        // 1 + 0 + (-1)
  CHECK(value_of("0x10 + 0xff", 0, 0) == 271);
}

TEST_CASE("--assume: signed arithmetic on 64 bits, arguments by their C++ type") {
  CHECK(value_of("arg1", -5, 0) == -5);                         // int: sign-extended
  CHECK(value_of("arg2", 0, 0xfffffffbu) == 4294967291);        // unsigned int: zero-extended
  CHECK(value_of("arg1 < 0", -1, 0) == 1);
  CHECK(value_of("arg2 < 0", 0, 0xffffffffu) == 0);
  CHECK(value_of("-7 / 2", 0, 0) == -3);                        // C truncates towards zero
  CHECK(value_of("-7 % 2", 0, 0) == -1);
  CHECK(value_of("-8 >> 1", 0, 0) == -4);                       // arithmetic shift
  CHECK(value_of("arg1 * arg2", 3, 7) == 21);
  CHECK(value_of("blockDim.x * blockDim.y * blockDim.z + gridDim.x", 0, 0) == 136);
}

TEST_CASE("--assume: errors name the column, the argument, or the type") {
  CHECK(error_of("arg1 == ") == "column 9 (the end): expected expression");
  CHECK(error_of("arg1 = 4") == "column 6: expected an operator or the end");
  CHECK(error_of("(arg1") == "column 6 (the end): expected ')'");
  CHECK(error_of("blockDim.w") == "column 10: expected x, y or z");
  CHECK(error_of("arg1 == 1 1") == "column 11: expected an operator or the end");
  CHECK(error_of("threadIdx.x == 0").find("column 1: expected") == 0);
  std::string error;
  auto a = race::parse_assumption("arg4 > 0 || arg3 != 0", error);
  REQUIRE(a);
  CHECK(race::assumption_error(*a, kernel()) == "--assume 'arg4 > 0 || arg3 != 0': arg4: the kernel k(int, unsigned int, float*) has 3 argument(s), arg1 to arg3");
  a = race::parse_assumption("arg3 != 0", error);
  REQUIRE(a);
  CHECK(race::assumption_error(*a, kernel()) == "--assume 'arg3 != 0': arg3 is float*, not an integer");
  a = race::parse_assumption("arg0 == 1", error);
  REQUIRE(a);
  CHECK(race::assumption_error(*a, kernel()).find("arg0: the kernel") != std::string::npos);
}

TEST_CASE("--assume: an argument read at another width is tied to its bytes") {
  // A kernel that reads the low byte of arg2 (ld.param.u8 [b]) and all of it: both reads equal the argument's bytes.
  std::string error;
  auto a = race::parse_assumption("arg2 == 0x1234", error);
  REQUIRE(a);
  z3::context c;
  const std::vector<z3::expr> dims{c.bv_val(1, 32), c.bv_val(1, 32), c.bv_val(1, 32)};
  const z3::expr low = c.bv_const("arg.b+0", 8), high = c.bv_const("arg.b+1", 8), whole = c.bv_const("arg.b+0", 32);
  auto term = race::assumption_term(c, *a, kernel(), dims, dims, {low, high, whole}, error);
  REQUIRE_MESSAGE(term, error);
  z3::solver s(c);
  s.add(*term);
  REQUIRE(s.check() == z3::sat);
  const z3::model m = s.get_model();
  CHECK(m.eval(low, true).get_numeral_uint64() == 0x34);
  CHECK(m.eval(high, true).get_numeral_uint64() == 0x12);
  CHECK(m.eval(whole, true).get_numeral_uint64() == 0x1234);
}
