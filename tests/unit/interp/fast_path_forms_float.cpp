// cvt between integer types (ISA 9.7.9.21) and floating-point add/sub/mul/fma/mad (9.7.3.3-9.7.3.7, the half-precision ones of
// 9.7.4.1-4 and the mixed ones of 9.7.5.1-2): every qualifier combination, with the fast path expected on f32 in
// round-to-nearest without .ftz/.sat only.
#include "tests/unit/interp/fast_path_text.hpp"

namespace fast_forms {

namespace {
struct IntType {
  const char* name;
  unsigned w;
  bool is_signed;
};
const IntType kCvtTypes[] = {{"u8", 8, false},  {"u16", 16, false}, {"u32", 32, false}, {"u64", 64, false},
                             {"s8", 8, true},   {"s16", 16, true},  {"s32", 32, true},  {"s64", 64, true}};

// Float literals at the edges: inf, NaN, -0, the least subnormal, the greatest finite.
const char* kF32Immediates[] = {"0f7f800000", "0f7fc00000", "0f80000000", "0f00000001", "0f7f7fffff"};
}  // namespace

void conversion_forms(std::vector<Form>& out) {
  for (const auto& d : kCvtTypes) {
    for (const auto& a : kCvtTypes) {
      const std::string op = std::string("cvt.") + d.name + "." + a.name + " ";
      const FastKind k = a.w >= d.w ? FastKind::cvt_trunc : a.is_signed ? FastKind::cvt_sext : FastKind::cvt_zext;
      {
        FormText f(k);
        auto x = f.src(a.w, Draw::bits);
        out.push_back(f.one(op + f.dst(d.w) + ", " + x + ";"));
      }
      {
        FormText f(k);
        out.push_back(f.one(op + f.dst(d.w) + ", -1;"));
      }
      if (d.w < 32 || a.w < 32) {  // regular-width registers (ISA 9.4.1): Table 27's chop, Table 28's extension
        FormText f(FastKind::none);
        auto x = f.src(a.w < 32 ? 32 : a.w, Draw::bits, a.w);
        out.push_back(f.one(op + f.dst(d.w < 32 ? 32 : d.w) + ", " + x + ";"));
      }
      if (a.w >= d.w || a.is_signed != d.is_signed) {  // .sat: clamps to the destination's range
        FormText f(FastKind::none);
        auto x = f.src(a.w, Draw::bits);
        out.push_back(f.one(std::string("cvt.sat.") + d.name + "." + a.name + " " + f.dst(d.w) + ", " + x + ";"));
      }
    }
  }
  const std::pair<const char*, std::pair<unsigned, unsigned>> floats[] = {
      {"cvt.rn.f32.s32", {32, 32}}, {"cvt.rzi.s32.f32", {32, 32}}, {"cvt.f64.f32", {64, 32}},
      {"cvt.rn.f32.f64", {32, 64}}, {"cvt.rn.f16.f32", {16, 32}}, {"cvt.rni.u16.f32", {16, 32}}};
  for (const auto& [op, widths] : floats) {
    FormText f(FastKind::none);
    auto x = f.src(widths.second, widths.second == 32 ? Draw::f32 : Draw::bits);
    out.push_back(f.one(std::string(op) + " " + f.dst(widths.first) + ", " + x + ";"));
  }
}

namespace {
void f32_binary_forms(std::vector<Form>& out) {
  const std::pair<const char*, FastKind> ops[] = {{"add", FastKind::fadd32}, {"sub", FastKind::fsub32}, {"mul", FastKind::fmul32}};
  for (const auto& [op, k] : ops) {
    for (const char* q : {"", ".rn", ".rz", ".rm", ".rp", ".ftz", ".rn.ftz", ".sat", ".rn.sat", ".ftz.sat", ".rz.ftz.sat"}) {
      const bool fast = std::string(q).empty() || std::string(q) == ".rn";
      const std::string name = std::string(op) + q + ".f32 ";
      {
        FormText f(fast ? k : FastKind::none);
        auto a = f.src(32, Draw::f32), b = f.src(32, Draw::f32);
        out.push_back(f.one(name + f.dst(32) + ", " + a + ", " + b + ";"));
      }
      if (!fast) continue;
      for (const char* imm : kF32Immediates) {
        FormText f(k);
        auto a = f.src(32, Draw::f32);
        out.push_back(f.one(name + f.dst(32) + ", " + a + ", " + imm + ";"));
      }
      {
        FormText f(k);
        auto b = f.src(32, Draw::f32);
        out.push_back(f.one(name + f.dst(32) + ", 0f3f800001, " + b + ";"));
      }
      {
        FormText f(k);
        auto a = f.src_component(32, Draw::f32), b = f.src(32, Draw::f32);
        out.push_back(f.one(name + f.dst_component(32) + ", " + a + ", " + b + ";"));
      }
    }
  }
}

void f32_fused_forms(std::vector<Form>& out) {
  for (const char* op : {"fma", "mad"}) {
    for (const char* rnd : {".rn", ".rz", ".rm", ".rp"}) {
      for (const char* q : {"", ".ftz", ".sat", ".ftz.sat"}) {
        const bool fast = std::string(rnd) == ".rn" && std::string(q).empty();
        const std::string name = std::string(op) + rnd + q + ".f32 ";
        {
          FormText f(fast ? FastKind::ffma32 : FastKind::none);
          auto a = f.src(32, Draw::f32), b = f.src(32, Draw::f32), c = f.src(32, Draw::f32);
          out.push_back(f.one(name + f.dst(32) + ", " + a + ", " + b + ", " + c + ";"));
        }
        if (!fast) continue;
        for (const char* imm : kF32Immediates) {
          FormText f(FastKind::ffma32);
          auto a = f.src(32, Draw::f32), b = f.src(32, Draw::f32);
          out.push_back(f.one(name + f.dst(32) + ", " + a + ", " + b + ", " + imm + ";"));
        }
        FormText f(FastKind::ffma32);
        auto a = f.src_component(32, Draw::f32), c = f.src(32, Draw::f32);
        out.push_back(f.one(name + f.dst(32) + ", " + a + ", 0fbf800000, " + c + ";"));
      }
    }
  }
}

// The other floating-point types of the same opcodes: f64, f16/bf16 and their pairs, f32x2, mixed f32.f16.
void other_float_forms(std::vector<Form>& out) {
  struct Other {
    const char* name;  // the qualifiers after the opcode
    unsigned w;
    bool ternary;
  };
  const Other others[] = {{"add.f64", 64, false},      {"add.rz.f64", 64, false},     {"mul.rn.f64", 64, false},
                          {"sub.f64", 64, false},      {"fma.rn.f64", 64, true},      {"mad.rn.f64", 64, true},
                          {"add.f16", 16, false},      {"add.rn.ftz.f16", 16, false}, {"mul.f16", 16, false},
                          {"fma.rn.f16", 16, true},    {"add.f16x2", 32, false},      {"sub.rn.f16x2", 32, false},
                          {"add.bf16", 16, false},     {"mul.rn.bf16x2", 32, false},  {"fma.rn.bf16", 16, true},
                          {"add.rn.f32x2", 64, false}, {"mul.f32x2", 64, false},      {"fma.rn.f32x2", 64, true},
                          {"sub.rz.ftz.f32x2", 64, false}};
  for (const auto& o : others) {
    FormText f(FastKind::none);
    auto a = f.src(o.w), b = f.src(o.w);
    std::string text = std::string(o.name) + " " + f.dst(o.w) + ", " + a + ", " + b;
    if (o.ternary) text += ", " + f.src(o.w);
    out.push_back(f.one(text + ";"));
  }
  for (const char* op : {"add.f32.f16", "sub.rn.sat.f32.bf16"}) {  // d, a (.f16/.bf16), c (.f32)
    FormText f(FastKind::none);
    auto a = f.src(16), c = f.src(32, Draw::f32);
    out.push_back(f.one(std::string(op) + " " + f.dst(32) + ", " + a + ", " + c + ";"));
  }
}
}  // namespace

void float_forms(std::vector<Form>& out) {
  f32_binary_forms(out);
  f32_fused_forms(out);
  other_float_forms(out);
}

}  // namespace fast_forms
