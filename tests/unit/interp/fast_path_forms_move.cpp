// mov (ISA 9.7.9.3), selp (9.7.6.3) and setp (9.7.6.2, its operators from 9.3.1.1) in every type and shape.
#include "tests/unit/interp/fast_path_text.hpp"

namespace fast_forms {

namespace {
struct Typed {
  const char* name;
  unsigned w;
  Draw draw;
};
// mov's and selp's types (9.7.9.3, 9.7.6.3) less .pred.
const Typed kMoveTypes[] = {{"b16", 16, Draw::bits}, {"b32", 32, Draw::bits}, {"b64", 64, Draw::bits}, {"u16", 16, Draw::bits},
                            {"u32", 32, Draw::bits}, {"u64", 64, Draw::bits}, {"s16", 16, Draw::bits}, {"s32", 32, Draw::bits},
                            {"s64", 64, Draw::bits}, {"f32", 32, Draw::f32},  {"f64", 64, Draw::bits}};

// An immediate of the type: f32 NaN for .f32 (0f literal), an f64 literal for .f64, else a negative integer.
std::string immediate(const Typed& t) {
  if (std::string(t.name) == "f32") return "0f7fc00001";
  if (std::string(t.name) == "f64") return "0d7ff0000000000001";
  return "-2";
}

void mov_forms(std::vector<Form>& out) {
  for (const auto& t : kMoveTypes) {
    const std::string op = std::string("mov.") + t.name + " ";
    const bool f64 = std::string(t.name) == "f64";
    {
      FormText f(FastKind::mov);
      auto a = f.src(t.w, t.draw);
      out.push_back(f.one(op + f.dst(t.w) + ", " + a + ";"));
    }
    {
      FormText f(f64 ? FastKind::none : FastKind::mov);  // an f64 literal is not one the planner resolves
      out.push_back(f.one(op + f.dst(t.w) + ", " + immediate(t) + ";"));
    }
    {
      FormText f(FastKind::mov);
      auto a = f.src_component(t.w, t.draw);
      out.push_back(f.one(op + f.dst_component(t.w) + ", " + a + ";"));
    }
  }
  for (const char* imm : {"0", "1"}) {
    FormText f(FastKind::mov);
    out.push_back(f.one("mov.pred " + f.dst(1) + ", " + imm + ";"));
  }
  {
    FormText f(FastKind::mov);
    auto a = f.src(1);
    out.push_back(f.one("mov.pred " + f.dst(1) + ", " + a + ";"));
  }
  // Special registers and addresses of variables (9.7.9.3 "mov.type d, sreg; d, avar; d, avar+imm").
  for (const char* s : {"%tid.x", "%tid.y", "%ntid.x", "%laneid", "%warpid", "%ctaid.x", "%nctaid.x", "%lanemask_lt"}) {
    FormText f(FastKind::mov_read);
    out.push_back(f.one("mov.u32 " + f.dst(32) + ", " + s + ";"));
  }
  for (const char* v : {"sbuf", "gvar", "lbuf", "gvar+8", "sbuf+16"}) {
    FormText f(std::string(v).find('+') == std::string::npos ? FastKind::mov_read : FastKind::none);  // avar+imm: an address
    out.push_back(f.one("mov.u64 " + f.dst(64) + ", " + std::string(v) + ";"));                      // operand, Machine::read's
  }
  {
    FormText f(FastKind::none);  // a function's address
    out.push_back(f.one("mov.u64 " + f.dst(64) + ", echo;"));
  }
  for (const char* t : {"b64", "b32"}) {  // packing and unpacking vectors: the register's storage
    const unsigned w = std::string(t) == "b64" ? 64 : 32;
    FormText pack(FastKind::none);
    auto a = pack.src(w / 2), b = pack.src(w / 2);
    out.push_back(pack.one(std::string("mov.") + t + " " + pack.dst(w) + ", {" + a + ", " + b + "};"));
    FormText unpack(FastKind::none);
    auto c = unpack.src(w);
    auto lo = unpack.dst(w / 2), hi = unpack.dst(w / 2);
    out.push_back(unpack.one(std::string("mov.") + t + " {" + lo + ", " + hi + "}, " + c + ";"));
  }
}

void selp_forms(std::vector<Form>& out) {
  for (const auto& t : kMoveTypes) {
    const std::string op = std::string("selp.") + t.name + " ";
    const bool f64 = std::string(t.name) == "f64";
    {
      FormText f(FastKind::selp);
      auto a = f.src(t.w, t.draw), b = f.src(t.w, t.draw), c = f.src(1);
      out.push_back(f.one(op + f.dst(t.w) + ", " + a + ", " + b + ", " + c + ";"));
    }
    {
      FormText f(f64 ? FastKind::none : FastKind::selp);
      auto a = f.src(t.w, t.draw), c = f.src(1);
      out.push_back(f.one(op + f.dst(t.w) + ", " + a + ", " + immediate(t) + ", " + c + ";"));
    }
    if (!f64) {
      FormText f(FastKind::selp);
      auto c = f.src(1);
      const std::string other = std::string(t.name) == "f32" ? "0f80000000" : "7";
      out.push_back(f.one(op + f.dst(t.w) + ", " + immediate(t) + ", " + other + ", " + c + ";"));
    }
    {
      FormText f(FastKind::selp);
      auto a = f.src_component(t.w, t.draw), b = f.src(t.w, t.draw), c = f.src(1);
      out.push_back(f.one(op + f.dst_component(t.w) + ", " + a + ", " + b + ", " + c + ";"));
    }
  }
}

// setp's integer operators: 9.3.1.1's per kind of type, and lt/le/gt/ge on unsigned types (which nvcc writes).
std::vector<std::string> compare_ops(char kind) {
  if (kind == 'b') return {"eq", "ne"};
  if (kind == 's') return {"eq", "ne", "lt", "le", "gt", "ge"};
  return {"eq", "ne", "lo", "ls", "hi", "hs", "lt", "le", "gt", "ge"};
}

void setp_forms(std::vector<Form>& out) {
  for (char kind : {'b', 'u', 's'}) {
    for (unsigned w : {16u, 32u, 64u}) {
      const std::string type = std::string(".") + kind + std::to_string(w);
      for (const auto& cmp : compare_ops(kind)) {
        const std::string op = "setp." + cmp;
        {
          FormText f(FastKind::setp);
          auto a = f.src(w), b = f.src(w);
          out.push_back(f.one(op + type + " " + f.dst(1) + ", " + a + ", " + b + ";"));
        }
        for (const auto& imm : {std::string("-1"), hex(std::uint64_t(1) << (w - 1))}) {
          FormText f(FastKind::setp);
          auto a = f.src(w);
          out.push_back(f.one(op + type + " " + f.dst(1) + ", " + a + ", " + imm + ";"));
        }
        {
          FormText f(FastKind::setp);
          auto a = f.src_component(w), b = f.src(w);
          out.push_back(f.one(op + type + " " + f.dst(1) + ", " + a + ", " + b + ";"));
        }
        {
          FormText f(FastKind::none);  // p|q: two results
          auto a = f.src(w), b = f.src(w);
          auto p = f.dst(1), q = f.dst(1);
          out.push_back(f.one(op + type + " " + p + "|" + q + ", " + a + ", " + b + ";"));
        }
        for (const char* bool_op : {"and", "or", "xor"}) {
          for (bool negated : {false, true}) {
            FormText f(FastKind::none);  // with a predicate c (9.7.6.2): the general path's
            auto a = f.src(w), b = f.src(w), c = f.src(1);
            out.push_back(f.one(op + "." + bool_op + type + " " + f.dst(1) + ", " + a + ", " + b + ", " + (negated ? "!" : "") + c + ";"));
          }
        }
      }
    }
  }
  for (const char* cmp : {"eq", "lt", "ge", "ne", "equ", "ltu", "num", "nan"}) {  // float setp: the general path's
    FormText f(FastKind::none);
    auto a = f.src(32, Draw::f32), b = f.src(32, Draw::f32);
    out.push_back(f.one(std::string("setp.") + cmp + ".f32 " + f.dst(1) + ", " + a + ", " + b + ";"));
  }
}
// Forms under a guard predicate (ISA 9.3 "@p", "@!p"), on for some lanes of a warp and off for others: the
// fast path runs them on the lanes the guard leaves on.
void guarded_forms(std::vector<Form>& out) {
  struct Guarded {
    const char* op;
    unsigned d, a, b;  // register widths (b 0: no b)
    FastKind k;
    Draw draw;
  };
  const Guarded forms[] = {{"add.u32", 32, 32, 32, FastKind::add, Draw::bits},       {"mul.wide.s16", 32, 16, 16, FastKind::mul_wide_s, Draw::bits},
                           {"shr.s64", 64, 64, 32, FastKind::shr_s, Draw::shift},    {"setp.lt.s32", 1, 32, 32, FastKind::setp, Draw::bits},
                           {"cvt.s64.s8", 64, 8, 0, FastKind::cvt_sext, Draw::bits}, {"fma.rn.f32", 32, 32, 32, FastKind::ffma32, Draw::f32},
                           {"mov.b16", 16, 16, 0, FastKind::mov, Draw::bits},         {"not.b64", 64, 64, 0, FastKind::not_, Draw::bits}};
  for (const char* guard : {"@", "@!"}) {
    for (const auto& g : forms) {
      FormText f(g.k);
      auto p = f.src(1), a = f.src(g.a, g.draw);
      std::string text = std::string(g.op) + " " + f.dst(g.d) + ", " + a;
      if (g.b) text += ", " + f.src(g.b, g.draw);
      if (g.k == FastKind::ffma32) text += ", " + f.src(32, Draw::f32);
      out.push_back(f.one(guard + p + " " + text + ";"));
    }
    {
      FormText f(FastKind::mov_read);
      auto p = f.src(1);
      out.push_back(f.one(guard + p + " mov.u32 " + f.dst(32) + ", %laneid;"));
    }
    {
      FormText f(FastKind::ld);
      auto p = f.src(1);
      const std::string d = f.dst(16);
      f.form(guard + p + " ld.global.u16 " + d + ", [" + f.memory_input(6) + "];");
      out.push_back(f.done());
    }
    {
      FormText f(FastKind::st);
      auto p = f.src(1), v = f.src(32);
      const unsigned k = f.memory_slot();
      const std::string lo = f.dst(64);
      f.form(guard + p + " st.global.b32 [" + FormText::input_at(k, 4) + "], " + v + ";");
      f.line("ld.global.b64 " + lo + ", [" + FormText::input_at(k, 0) + "];");
      out.push_back(f.done());
    }
  }
}
}  // namespace

void move_select_compare_forms(std::vector<Form>& out) {
  mov_forms(out);
  selp_forms(out);
  setp_forms(out);
  guarded_forms(out);
}

}  // namespace fast_forms
