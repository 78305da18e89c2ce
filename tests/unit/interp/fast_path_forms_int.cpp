// Integer arithmetic (ISA 9.7.1.1-9.7.1.4: add, sub, mul, mad) and logic and shifts (9.7.8.1-9.7.8.4, 9.7.8.8-9:
// and, or, xor, not, shl, shr) in every type of their syntax blocks and every operand shape.
#include "tests/unit/interp/fast_path_text.hpp"

namespace fast_forms {

namespace {
struct IntType {
  const char* name;
  unsigned w;
  bool is_signed;
};
const IntType kIntTypes[] = {{"u16", 16, false}, {"u32", 32, false}, {"u64", 64, false},
                             {"s16", 16, true},  {"s32", 32, true},  {"s64", 64, true}};

// d = op a, b over w-bit operands in the shapes the planner tells apart, `k` where it should take them.
void binary_shapes(std::vector<Form>& out, const std::string& op, unsigned w, FastKind k, Draw draw = Draw::bits) {
  {
    FormText t(k);
    auto a = t.src(w, draw), b = t.src(w, draw);
    out.push_back(t.one(op + " " + t.dst(w) + ", " + a + ", " + b + ";"));
  }
  for (const auto& imm : int_immediates(w)) {
    FormText t(k);
    auto a = t.src(w, draw);
    out.push_back(t.one(op + " " + t.dst(w) + ", " + a + ", " + imm + ";"));
  }
  {
    FormText t(k);
    auto b = t.src(w, draw);
    out.push_back(t.one(op + " " + t.dst(w) + ", 0x5a5a5a5a5a5a5a5a, " + b + ";"));
  }
  {
    FormText t(k);  // vector elements, read and written
    auto a = t.src_component(w, draw), b = t.src(w, draw);
    out.push_back(t.one(op + " " + t.dst_component(w) + ", " + a + ", " + b + ";"));
  }
  if (w < 64) {
    FormText t(FastKind::none);  // a source register wider than the type (its low bits: ISA 9.4.1, Table 27)
    auto a = t.src(64, draw, w), b = t.src(w, draw);
    out.push_back(t.one(op + " " + t.dst(w) + ", " + a + ", " + b + ";"));
  }
}

void add_sub_forms(std::vector<Form>& out) {
  for (const auto& ty : kIntTypes) {
    const std::string t = std::string(".") + ty.name;
    binary_shapes(out, "add" + t, ty.w, FastKind::add);
    binary_shapes(out, "sub" + t, ty.w, FastKind::sub);
    for (const char* op : {"add.cc", "sub.cc"}) {  // they set CC.CF (9.7.2.1, 9.7.2.3): the general path's
      if (ty.w == 16) continue;                     // .cc: .u32, .s32, .u64, .s64
      FormText f(FastKind::none);
      auto a = f.src(ty.w), b = f.src(ty.w);
      out.push_back(f.one(std::string(op) + t + " " + f.dst(ty.w) + ", " + a + ", " + b + ";"));
    }
  }
  {
    FormText f(FastKind::none);  // .sat: .s32 only
    auto a = f.src(32), b = f.src(32);
    out.push_back(f.one("add.sat.s32 " + f.dst(32) + ", " + a + ", " + b + ";"));
  }
  {
    FormText f(FastKind::none);
    auto a = f.src(32), b = f.src(32);
    out.push_back(f.one("sub.sat.s32 " + f.dst(32) + ", " + a + ", " + b + ";"));
  }
  for (const char* packed : {"u16x2", "s16x2"}) {  // two 16-bit lanes: semantics/ops does not model them
    FormText f(FastKind::none);
    auto a = f.src(32), b = f.src(32);
    out.push_back(f.one(std::string("add.") + packed + " " + f.dst(32) + ", " + a + ", " + b + ";", false));
  }
}

void mul_mad_forms(std::vector<Form>& out) {
  for (const auto& ty : kIntTypes) {
    const std::string t = std::string(".") + ty.name;
    const unsigned w = ty.w;
    binary_shapes(out, "mul.lo" + t, w, FastKind::mul_lo);
    {
      FormText f(FastKind::none);
      auto a = f.src(w), b = f.src(w);
      out.push_back(f.one("mul.hi" + t + " " + f.dst(w) + ", " + a + ", " + b + ";"));
    }
    for (const char* mode : {"lo", "hi"}) {
      for (bool imm_c : {false, true}) {
        FormText f(std::string(mode) == "lo" ? FastKind::mad_lo : FastKind::none);
        auto a = f.src(w), b = f.src(w);
        auto c = imm_c ? std::string("-1") : f.src(w);
        out.push_back(f.one("mad." + std::string(mode) + t + " " + f.dst(w) + ", " + a + ", " + b + ", " + c + ";"));
      }
    }
    {
      FormText f(FastKind::mad_lo);
      auto a = f.src_component(w), b = f.src(w), c = f.src(w);
      out.push_back(f.one("mad.lo" + t + " " + f.dst(w) + ", " + a + ", " + b + ", " + c + ";"));
    }
    if (w == 64) continue;  // .wide: 16- and 32-bit types, a 2w-bit d (and c)
    const FastKind wide = ty.is_signed ? FastKind::mul_wide_s : FastKind::mul_wide_u;
    {
      FormText f(wide);
      auto a = f.src(w), b = f.src(w);
      out.push_back(f.one("mul.wide" + t + " " + f.dst(2 * w) + ", " + a + ", " + b + ";"));
    }
    for (const auto& imm : int_immediates(w)) {
      FormText f(wide);
      auto a = f.src(w);
      out.push_back(f.one("mul.wide" + t + " " + f.dst(2 * w) + ", " + a + ", " + imm + ";"));
    }
    if (w == 16) {
      FormText f(FastKind::none);  // d wider than 2w: Table 28's extension, the general path's
      auto a = f.src(w), b = f.src(w);
      out.push_back(f.one("mul.wide" + t + " " + f.dst(64) + ", " + a + ", " + b + ";"));
    }
    {
      FormText f(FastKind::none);
      auto a = f.src(w), b = f.src(w), c = f.src(2 * w);
      out.push_back(f.one("mad.wide" + t + " " + f.dst(2 * w) + ", " + a + ", " + b + ", " + c + ";"));
    }
  }
  FormText f(FastKind::none);
  auto a = f.src(32), b = f.src(32), c = f.src(32);
  out.push_back(f.one("mad.hi.sat.s32 " + f.dst(32) + ", " + a + ", " + b + ", " + c + ";"));
}
}  // namespace

void integer_arithmetic_forms(std::vector<Form>& out) {
  add_sub_forms(out);
  mul_mad_forms(out);
}

void logic_and_shift_forms(std::vector<Form>& out) {
  const std::pair<const char*, FastKind> ops[] = {{"and", FastKind::and_}, {"or", FastKind::or_}, {"xor", FastKind::xor_}};
  for (const auto& [op, k] : ops) {
    for (unsigned w : {16u, 32u, 64u}) binary_shapes(out, std::string(op) + ".b" + std::to_string(w), w, k);
    {
      FormText f(k);
      auto a = f.src(1), b = f.src(1);
      out.push_back(f.one(std::string(op) + ".pred " + f.dst(1) + ", " + a + ", " + b + ";"));
    }
  }
  for (unsigned w : {16u, 32u, 64u}) {
    const std::string t = ".b" + std::to_string(w);
    for (bool imm : {false, true}) {
      FormText f(FastKind::not_);
      auto a = imm ? hex(0x0123456789abcdefull & mask(w)) : f.src(w);
      out.push_back(f.one("not" + t + " " + f.dst(w) + ", " + a + ";"));
    }
    FormText f(FastKind::not_);
    auto a = f.src_component(w);
    out.push_back(f.one("not" + t + " " + f.dst(w) + ", " + a + ";"));
  }
  {
    FormText f(FastKind::not_);
    auto a = f.src(1);
    out.push_back(f.one("not.pred " + f.dst(1) + ", " + a + ";"));
  }
  // Shifts: b is a .u32 amount, any value (ISA 9.7.8.8-9: "Shift amounts greater than the register width N are
  // clamped to N"); immediates 0, w-1, w, w+1, 2^32-1.
  struct Shift {
    const char* type;
    unsigned w;
    FastKind k;
  };
  std::vector<Shift> shifts;
  for (unsigned w : {16u, 32u, 64u}) {
    shifts.push_back({"shl.b", w, FastKind::shl});
    shifts.push_back({"shr.b", w, FastKind::shr_u});
    shifts.push_back({"shr.u", w, FastKind::shr_u});
    shifts.push_back({"shr.s", w, FastKind::shr_s});
  }
  for (const auto& s : shifts) {
    const std::string op = s.type + std::to_string(s.w);
    {
      FormText f(s.k);
      auto a = f.src(s.w), b = f.src(32, Draw::shift, s.w);
      out.push_back(f.one(op + " " + f.dst(s.w) + ", " + a + ", " + b + ";"));
    }
    for (std::uint64_t amount : {std::uint64_t(0), std::uint64_t(s.w - 1), std::uint64_t(s.w), std::uint64_t(s.w + 1), std::uint64_t(0xffffffffu)}) {
      FormText f(s.k);
      auto a = f.src(s.w);
      out.push_back(f.one(op + " " + f.dst(s.w) + ", " + a + ", " + std::to_string(amount) + ";"));
    }
    {
      FormText f(s.k);
      auto b = f.src(32, Draw::shift, s.w);
      out.push_back(f.one(op + " " + f.dst(s.w) + ", " + hex(0x8421084210842108ull & mask(s.w)) + ", " + b + ";"));
    }
    {
      FormText f(s.k);
      auto a = f.src_component(s.w), b = f.src_component(32, Draw::shift, s.w);
      out.push_back(f.one(op + " " + f.dst_component(s.w) + ", " + a + ", " + b + ";"));
    }
  }
}

}  // namespace fast_forms
