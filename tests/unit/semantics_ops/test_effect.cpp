// semantics/ops/effect.hpp, the one switch engines dispatch opcodes through: every opcode of semantics/ir/opcodes.def
// has its kind, the value kind is exactly what semantics/ops/execute.hpp computes, and the kinds follow ISA 9.7's
// sections for the opcodes whose section says what they do.
#include "semantics/ops/effect.hpp"
#include "semantics/ops/form.hpp"

#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

using ptx::ir::Opcode;
using ptx::ops::Effect;

namespace {
std::vector<Opcode> every_opcode() {
  return {
#define PTX_OPCODE(name, min_ops, max_ops, group, effect) Opcode::name##_,
#include "semantics/ir/opcodes.def"
#undef PTX_OPCODE
  };
}
}  // namespace

TEST_CASE("effect: the value kind is exactly ISA 9.7's register-value groups") {
  // ISA 9.7.1-9.7.8 (integer, extended precision, float, half, comparison, logic and shift), cvt (9.7.9.21), mov and
  // prmt (9.7.9.10, 9.7.9.7) and video (9.7.18) compute registers from registers; opcodes.def files them under these
  // groups. Nothing else of 9.7 is a value instruction (cvta and isspacep name the engine's memory).
  const auto all = every_opcode();
  REQUIRE(all.size() > 130);  // every row of opcodes.def
  std::size_t values = 0;
  for (Opcode op : all) {
    INFO(ptx::ir::opcode_name(op));
    using G = ptx::ir::OpcodeGroup;
    const G g = ptx::ir::opcode_group(op);
    const bool by_group = g == G::integer_ || g == G::float_ || g == G::compare_ || g == G::logic_ || g == G::convert_ ||
                          g == G::video_ || op == Opcode::mov_ || op == Opcode::prmt_;
    CHECK((ptx::ops::effect_of(op) == Effect::value) == by_group);
    CHECK(ptx::ops::is_value_opcode(op) == by_group);
    values += by_group;
  }
  CHECK(values > 70);  // 9.7.1-9.7.8 and 9.7.18 (integer, float, compare, logic, video), mov, prmt, cvt
}

TEST_CASE("effect: kinds as ISA 9.7's sections describe the instructions") {
  // By hand from the section titles and texts of ISA 9.0 chapter 9.7.
  const std::map<Opcode, Effect> expected = {
      {Opcode::ld_, Effect::memory},      {Opcode::st_, Effect::memory},          {Opcode::atom_, Effect::memory},  // 9.7.9.8, .11, 9.7.13.5
      {Opcode::red_, Effect::memory},     {Opcode::multimem_, Effect::multimem},  {Opcode::cvta_, Effect::address},  // 9.7.13.6, 9.7.9.14, .20
      {Opcode::mapa_, Effect::address},   {Opcode::cp_, Effect::async_copy},      {Opcode::bar_, Effect::barrier},  // 9.7.9.23, .25, 9.7.13.1
      {Opcode::fence_, Effect::fence},    {Opcode::membar_, Effect::fence},       {Opcode::shfl_, Effect::warp},  // 9.7.13.4, 9.7.9.6
      {Opcode::vote_, Effect::warp},      {Opcode::elect_, Effect::warp},         {Opcode::mbarrier_, Effect::mbarrier},  // 9.7.13.9, .14, .15
      {Opcode::wgmma_, Effect::matrix},   {Opcode::tcgen05_, Effect::matrix},     {Opcode::alloca_, Effect::stack},  // 9.7.15, 9.7.16, 9.7.17.3
      {Opcode::bra_, Effect::control},    {Opcode::trap_, Effect::control},       {Opcode::nanosleep_, Effect::hint},  // 9.7.12, 9.7.19.4, .2
      {Opcode::tex_, Effect::texture},    {Opcode::sust_, Effect::texture},       {Opcode::tensormap_, Effect::tensormap},  // 9.7.10-11, 9.7.9.26
      {Opcode::add_, Effect::value},      {Opcode::cvt_, Effect::value},          {Opcode::vadd_, Effect::value},  // 9.7.1, 9.7.9, 9.7.18
  };
  for (const auto& [op, kind] : expected) {
    INFO(ptx::ir::opcode_name(op));
    CHECK(ptx::ops::effect_of(op) == kind);
  }
}
