// Unit tests of `--assume` preconditions (checker/race/assume.hpp): the grammar's precedence and associativity and the
// operators' values against values worked out by hand with C's rules (64-bit two's complement), the argument's sign
// from its C++ type, the ties to the encoding's reads of an argument, and errors located by column.
#include "checker/race/assume.hpp"

#include <doctest/doctest.h>

#include <random>
#include <utility>
#include <vector>

using namespace ptxcheck;

namespace {
// A kernel as nvcc declares it, `name` mangled, with .param variables of the given types (an int passes as .u32, a
// pointer as .u64).
ptx::ir::Function kernel_named(const std::string& name, const std::vector<std::pair<const char*, ptx::ir::ScalarType>>& params) {
  ptx::ir::Function f;
  f.name = name;
  for (auto [param, type] : params) {
    ptx::ir::Variable v;
    v.name = param;
    v.space = ptx::ir::StateSpace::param;
    v.type.scalar = type;
    f.params.push_back(v);
  }
  return f;
}
// `k(int, unsigned int, float*)`.
ptx::ir::Function kernel() {
  return kernel_named("_Z1kijPf", {{"a", ptx::ir::ScalarType::u32}, {"b", ptx::ir::ScalarType::u32}, {"p", ptx::ir::ScalarType::u64}});
}
// `k(int, short volatile*)`: arg2's elements are signed 16-bit.
ptx::ir::Function kernel_with_buffer() { return kernel_named("_Z1kiPVs", {{"a", ptx::ir::ScalarType::u32}, {"q", ptx::ir::ScalarType::u64}}); }
// A module with `.global .s16 counts[4]`, `.global .f32 scale` and `.shared .u32 tile`.
ptx::ir::Module module_with_variables() {
  ptx::ir::Module m;
  auto add = [&](const char* name, ptx::ir::StateSpace space, ptx::ir::ScalarType type, std::uint64_t count) {
    ptx::ir::Variable v;
    v.name = name;
    v.space = space;
    v.type.scalar = type;
    v.count = count;
    m.globals.push_back(v);
  };
  add("counts", ptx::ir::StateSpace::global, ptx::ir::ScalarType::s16, 4);
  add("scale", ptx::ir::StateSpace::global, ptx::ir::ScalarType::f32, 1);
  add("tile", ptx::ir::StateSpace::shared, ptx::ir::ScalarType::u32, 1);
  return m;
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
  auto v = race::assumption_value(c, *parsed, kernel(), nullptr, ntid, nctaid, {read_a, read_b}, error);
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
  CHECK(race::assumption_error(*a, kernel(), nullptr) == "--assume 'arg4 > 0 || arg3 != 0': arg4: the kernel k(int, unsigned int, float*) has 3 argument(s), arg1 to arg3");
  a = race::parse_assumption("arg3 != 0", error);
  REQUIRE(a);
  CHECK(race::assumption_error(*a, kernel(), nullptr) == "--assume 'arg3 != 0': arg3 is float*, not an integer");
  a = race::parse_assumption("arg0 == 1", error);
  REQUIRE(a);
  CHECK(race::assumption_error(*a, kernel(), nullptr).find("arg0: the kernel") != std::string::npos);
}

TEST_CASE("--assume: an argument read at another width is tied to its bytes") {
  // A kernel that reads the low byte of arg2 (ld.param.u8 [b]) and all of it: both reads equal the argument's bytes.
  std::string error;
  auto a = race::parse_assumption("arg2 == 0x1234", error);
  REQUIRE(a);
  z3::context c;
  const std::vector<z3::expr> dims{c.bv_val(1, 32), c.bv_val(1, 32), c.bv_val(1, 32)};
  const z3::expr low = c.bv_const("arg.b+0", 8), high = c.bv_const("arg.b+1", 8), whole = c.bv_const("arg.b+0", 32);
  auto term = race::assumption_term(c, *a, kernel(), nullptr, dims, dims, {low, high, whole}, error);
  REQUIRE_MESSAGE(term, error);
  z3::solver s(c);
  s.add(*term);
  REQUIRE(s.check() == z3::sat);
  const z3::model m = s.get_model();
  CHECK(m.eval(low, true).get_numeral_uint64() == 0x34);
  CHECK(m.eval(high, true).get_numeral_uint64() == 0x12);
  CHECK(m.eval(whole, true).get_numeral_uint64() == 0x1234);
}

TEST_CASE("--assume: argN[E] is an element of the buffer before the launch, argN[*] every one") {
  std::string error;
  z3::context c;
  const std::vector<z3::expr> dims{c.bv_val(1, 32), c.bv_val(1, 32), c.bv_val(1, 32)};
  const z3::expr read_a = c.bv_const("arg.a+0", 32);
  // arg2[arg1 + 1] == -3 with arg1 = 2: the short at byte 6 holds 0xfffd (sign-extended to compare with -3).
  auto a = race::parse_assumption("arg2[arg1 + 1] == -3", error);
  REQUIRE(a);
  CHECK_FALSE(a->for_each_index);
  auto term = race::assumption_term(c, *a, kernel_with_buffer(), nullptr, dims, dims, {read_a}, error);
  REQUIRE_MESSAGE(term, error);
  z3::solver s(c);
  s.add(*term && read_a == c.bv_val(2, 32));
  REQUIRE(s.check() == z3::sat);
  CHECK(s.get_model().eval(race::initial_memory(c, "q", 2, c.bv_val(6, 64)), true).get_numeral_uint64() == 0xfffd);
  // Every element: instantiated at an index, here 5 (byte 10); without one it is no value.
  auto each = race::parse_assumption("arg2[*] >= 0 && arg2[*] < 100", error);
  REQUIRE(each);
  CHECK(each->for_each_index);
  CHECK_FALSE(race::assumption_term(c, *each, kernel_with_buffer(), nullptr, dims, dims, {}, error));
  CHECK(error.find("argN[*]") != std::string::npos);
  auto at5 = race::assumption_term(c, *each, kernel_with_buffer(), nullptr, dims, dims, {}, error, c.bv_val(5, 64));
  REQUIRE_MESSAGE(at5, error);
  z3::solver t(c);
  t.add(*at5 && race::initial_memory(c, "q", 2, c.bv_val(10, 64)) == c.bv_val(100, 16));
  CHECK(t.check() == z3::unsat);
}

TEST_CASE("--assume: argN[E] needs a pointer to integers whose type the mangled name tells") {
  std::string error;
  auto check_error = [&](const std::string& text, const ptx::ir::Function& k, const std::string& expected) {
    auto a = race::parse_assumption(text, error);
    REQUIRE(a);
    CHECK(race::assumption_error(*a, k, nullptr) == "--assume '" + text + "': " + expected);
  };
  check_error("arg1[0] == 0", kernel(), "arg1 is int, not a pointer");
  check_error("arg3[0] == 0", kernel(), "arg3[...]: the elements of float* are not integers");
  ptx::ir::Function plain = kernel();
  plain.name = "k";  // a PTX kernel: no C++ types
  check_error("arg3[0] == 0", plain, "arg3[...]: the element type of .u64 parameter p is unknown (a CUDA kernel's mangled name tells it)");
  CHECK(error_of("arg2[1") == "column 7 (the end): expected ']'");
  // Module variables: integer .global ones only.
  const ptx::ir::Module m = module_with_variables();
  auto variable_error = [&](const std::string& text) {
    auto a = race::parse_assumption(text, error);
    REQUIRE(a);
    return race::assumption_error(*a, kernel(), &m);
  };
  CHECK(variable_error("counts[3] == 0 && counts >= 0") == "");
  CHECK(variable_error("scale == 0") == "--assume 'scale == 0': scale is a .f32 variable, not an integer");
  CHECK(variable_error("tile == 0") == "--assume 'tile == 0': tile: no argument or .global variable of the module has this name");
  CHECK(variable_error("counts[0] == 0").empty());
  auto no_module = race::parse_assumption("counts == 0", error);
  REQUIRE(no_module);
  CHECK(race::assumption_error(*no_module, kernel(), nullptr).find("counts: no argument or .global variable") != std::string::npos);
  CHECK(error_of("arg2[] == 0").find("column 6: expected an index or *") == 0);
}

TEST_CASE("--assume: the concrete evaluation (replays) agrees with the solver's") {
  // A second implementation of the semantics: assumption_holds on concrete values against Z3's value of
  // assumption_term, over expressions that reach the corners (division and remainder by zero and of negative
  // numbers, shifts by 64 or more, sign extension of arguments and elements).
  const std::vector<std::string> exprs{
      "arg1 / arg2[0] > 3",   "arg1 % arg2[1] == arg1", "arg1 / 0 < 0",         "(arg1 << arg2[0]) == 0", "(arg1 >> 70) == -1",
      "arg2[arg1 & 3] < 0",   "-arg1 + ~arg2[2] != 7", "!arg1 || arg2[3] >= arg1", "arg1 * arg1 ^ arg2[1] | 5", "arg2[*] != arg1",
      "counts[arg1 & 3] < counts", "counts[*] - arg2[*] == 0"};
  std::mt19937_64 random(11);
  z3::context c;
  const ptx::ir::Function k = kernel_with_buffer();
  const ptx::ir::Module m = module_with_variables();
  const std::vector<z3::expr> dims{c.bv_val(1, 32), c.bv_val(1, 32), c.bv_val(1, 32)};
  const z3::expr read_a = c.bv_const("arg.a+0", 32);
  for (const std::string& text : exprs) {
    std::string error;
    auto a = race::parse_assumption(text, error);
    REQUIRE_MESSAGE(a, text);
    for (int trial = 0; trial < 40; ++trial) {
      const auto small = [&] { return static_cast<std::uint64_t>(static_cast<std::int64_t>(random() % 21) - 10); };
      const std::uint32_t arg = static_cast<std::uint32_t>(trial % 3 ? small() : random());
      std::vector<std::uint16_t> memory(4), counts(4);
      for (auto* words : {&memory, &counts})
        for (auto& w : *words) w = static_cast<std::uint16_t>(trial % 2 ? small() : random());
      const std::uint64_t index = random() % 4;
      race::ConcreteLaunch launch;
      launch.argument = [&](std::uint64_t n) -> std::optional<std::uint64_t> { return n == 1 ? std::optional<std::uint64_t>(arg) : std::nullopt; };
      launch.element = [&](std::uint64_t n, std::uint64_t offset, unsigned bytes) -> std::optional<std::uint64_t> {
        if (n != 2 || bytes != 2 || offset % 2 || offset / 2 >= memory.size()) return std::nullopt;
        return memory[offset / 2];
      };
      launch.variable = [&](const std::string& name, std::uint64_t offset, unsigned bytes) -> std::optional<std::uint64_t> {
        if (name != "counts" || bytes != 2 || offset % 2 || offset / 2 >= counts.size()) return std::nullopt;
        return counts[offset / 2];
      };
      const std::optional<bool> concrete = race::assumption_holds(*a, k, &m, launch, index);
      // The solver's value at the same launch: the argument and the memory pinned.
      auto v = race::assumption_value(c, *a, k, &m, dims, dims, {read_a}, error, c.bv_val(index, 64));
      REQUIRE_MESSAGE(v, error);
      z3::solver s(c);
      s.add(v->ties && read_a == c.bv_val(arg, 32));
      for (std::size_t i = 0; i < memory.size(); ++i) {
        s.add(race::initial_memory(c, "q", 2, c.bv_val(2 * i, 64)) == c.bv_val(memory[i], 16));
        s.add(race::initial_memory(c, "counts", 2, c.bv_val(2 * i, 64)) == c.bv_val(counts[i], 16));
      }
      REQUIRE_MESSAGE(concrete, text);  // (every element named is one of the 4)
      s.add((v->value != c.bv_val(0, 64)) != c.bool_val(*concrete));
      CHECK_MESSAGE(s.check() == z3::unsat, text << " arg1=" << static_cast<std::int32_t>(arg) << " concrete=" << *concrete);
    }
  }
}
