// ld and st (ISA 9.7.9.8, 9.7.9.11) of every scalar type to .global, .shared, .local, .param and generic
// addresses, through a register base and a variable base, with qualifiers, wider registers (9.4.1), vectors and
// a cache-policy operand. The kernel (test_fast_path.cpp) gives every thread %ib/%ob (its input/output bytes),
// %sb (16 bytes of .shared of its own), %lb (lbuf's .local address); module gvar and cbuf (.const), kernel sbuf,
// lbuf, param pv and the function echo (its argument returned) are there too.
#include "tests/unit/interp/fast_path_text.hpp"

namespace fast_forms {

namespace {
struct MemType {
  const char* name;
  unsigned w;
};
const MemType kMemTypes[] = {{"b8", 8},   {"u8", 8},   {"s8", 8},   {"b16", 16}, {"u16", 16}, {"s16", 16}, {"b32", 32}, {"u32", 32},
                             {"s32", 32}, {"f32", 32}, {"b64", 64}, {"u64", 64}, {"s64", 64}, {"f64", 64}};

// Where an access goes: its state-space qualifier, and how the 16 bytes it lies in are set and read back.
struct Place {
  const char* space;  // "" for generic
  const char* base;   // the address's base: a register or variable the kernel has, or "IN" (the thread's input slot)
  bool param_call;    // the .param arguments of a call to echo
};
const Place kPlaces[] = {{".global", "IN", false}, {"", "IN", false},       {".global", "gvar", false}, {".shared", "%sb", false},
                         {".shared", "sbuf", false}, {".local", "%lb", false}, {".local", "lbuf", false}, {".param", "$pa", true}};

unsigned offset(unsigned w) { return w < 64 ? w / 8 : 8; }  // aligned, and not at the start of the 16 bytes

// `base+off` for place p; for "IN" an input slot of its own (random bytes).
std::string address(FormText& f, const Place& p, unsigned off) {
  if (std::string(p.base) == "IN") return "[" + f.memory_input(off) + "]";
  return "[" + std::string(p.base) + "+" + std::to_string(off) + "]";
}

// A load of type t from place p: the 16 bytes set from two random 64-bit values (a call passes them through echo).
// `before` / `after`: qualifiers before the state space (.volatile, .relaxed.scope) and after it (cache operators).
Form load(const MemType& t, const Place& p, unsigned dst_width, const std::string& before = "", const std::string& after = "") {
  FormText f(dst_width == t.w ? FastKind::ld : FastKind::none);
  const unsigned off = offset(t.w);
  const std::string d = f.dst(dst_width);
  const std::string op = "ld" + before + p.space + after + "." + t.name + " " + d + ", ";
  if (std::string(p.base) == "IN") {
    f.form(op + address(f, p, off) + ";");
    return f.done();
  }
  auto lo = f.src(64), hi = f.src(64);
  const std::string space = p.param_call ? ".param" : p.space;
  if (p.param_call) {
    f.line("{ .param .align 8 .b8 $pa[16]; .param .align 8 .b8 $pr[16];");
    f.line("st.param.b64 [$pa], " + lo + "; st.param.b64 [$pa+8], " + hi + ";");
    f.line("call.uni ($pr), echo, ($pa);");
    f.form(op + "[$pr+" + std::to_string(off) + "];");
    f.line("}");
    return f.done();
  }
  f.line("st" + space + ".b64 [" + p.base + "], " + lo + "; st" + space + ".b64 [" + p.base + "+8], " + hi + ";");
  f.form(op + address(f, p, off) + ";");
  return f.done();
}

// A store of type t (a register of `src_width`, or `imm`) into place p, the 16 bytes read back as two b64 results.
Form store(const MemType& t, const Place& p, unsigned src_width, const std::string& imm = "", bool fast = true) {
  FormText f(fast && src_width == t.w ? FastKind::st : FastKind::none);
  const unsigned off = offset(t.w);
  const std::string v = imm.empty() ? f.src(src_width, std::string(t.name) == "f32" ? Draw::f32 : Draw::bits, t.w) : imm;
  const std::string lo = f.dst(64), hi = f.dst(64);
  const std::string op = std::string("st") + p.space + "." + t.name + " ";
  if (std::string(p.base) == "IN") {
    const unsigned k = f.memory_slot();
    f.form(op + "[" + FormText::input_at(k, off) + "], " + v + ";");
    f.line("ld" + std::string(p.space) + ".b64 " + lo + ", [" + FormText::input_at(k, 0) + "];");
    f.line("ld" + std::string(p.space) + ".b64 " + hi + ", [" + FormText::input_at(k, 8) + "];");
    return f.done();
  }
  auto x = f.src(64), y = f.src(64);
  if (p.param_call) {
    f.line("{ .param .align 8 .b8 $pa[16]; .param .align 8 .b8 $pr[16];");
    f.line("st.param.b64 [$pa], " + x + "; st.param.b64 [$pa+8], " + y + ";");
    f.form(op + "[$pa+" + std::to_string(off) + "], " + v + ";");
    f.line("call.uni ($pr), echo, ($pa);");
    f.line("ld.param.b64 " + lo + ", [$pr]; ld.param.b64 " + hi + ", [$pr+8];");
    f.line("}");
    return f.done();
  }
  const std::string b = p.base;
  f.line("st" + std::string(p.space) + ".b64 [" + b + "], " + x + "; st" + p.space + ".b64 [" + b + "+8], " + y + ";");
  f.form(op + "[" + b + "+" + std::to_string(off) + "], " + v + ";");
  f.line("ld" + std::string(p.space) + ".b64 " + lo + ", [" + b + "]; ld" + p.space + ".b64 " + hi + ", [" + b + "+8];");
  return f.done();
}

// A store of type t with qualifiers (`before` the state space, cache operators `after` it) into the thread's
// input slot (global) or its .shared bytes.
Form qualified_store(const MemType& t, const std::string& before, const std::string& after, bool shared) {
  FormText f(FastKind::st);
  auto v = f.src(t.w, std::string(t.name) == "f32" ? Draw::f32 : Draw::bits);
  const std::string lo = f.dst(64), hi = f.dst(64), at = std::to_string(offset(t.w));
  const std::string op = "st" + before + (shared ? ".shared" : ".global") + after + "." + t.name + " ";
  if (shared) {
    f.line("st.shared.b64 [%sb], 0; st.shared.b64 [%sb+8], 0;");
    f.form(op + "[%sb+" + at + "], " + v + ";");
    f.line("ld.shared.b64 " + lo + ", [%sb]; ld.shared.b64 " + hi + ", [%sb+8];");
    return f.done();
  }
  const unsigned k = f.memory_slot();
  f.form(op + "[" + FormText::input_at(k, offset(t.w)) + "], " + v + ";");
  f.line("ld.global.b64 " + lo + ", [" + FormText::input_at(k, 0) + "]; ld.global.b64 " + hi + ", [" + FormText::input_at(k, 8) + "];");
  return f.done();
}

// The module's initialised .const bytes cbuf: through the name and through its address in a register.
Form load_const(const MemType& t, bool register_base) {
  FormText f(FastKind::ld);
  const std::string d = f.dst(t.w);
  std::string base = "cbuf";
  if (register_base) {
    base = f.reg(64);
    f.line("mov.u64 " + base + ", cbuf;");
  }
  f.form("ld.const." + std::string(t.name) + " " + d + ", [" + base + "+" + std::to_string(offset(t.w)) + "];");
  return f.done();
}

// Kernel parameter pv (a u64 the launch passes): through its name and through its address in a register.
Form load_kernel_param(const MemType& t, bool register_base) {
  FormText f(FastKind::ld);
  const unsigned off = t.w < 64 ? t.w / 8 : 0;
  const std::string d = f.dst(t.w);
  std::string base = "pv";
  if (register_base) {
    base = f.reg(64);
    f.line("mov.u64 " + base + ", pv;");
  }
  f.form("ld.param." + std::string(t.name) + " " + d + ", [" + base + "+" + std::to_string(off) + "];");
  return f.done();
}
}  // namespace

void memory_forms(std::vector<Form>& out) {
  for (const auto& t : kMemTypes) {
    for (const auto& p : kPlaces) {
      out.push_back(load(t, p, t.w));
      out.push_back(store(t, p, t.w));
    }
    const unsigned wider = t.w < 32 ? 32 : 64;  // ISA 9.4.1: ld/st data registers wider than the type
    if (t.w < 64) {
      out.push_back(load(t, kPlaces[0], wider));
      out.push_back(store(t, kPlaces[0], wider));
    }
    out.push_back(load_kernel_param(t, false));
    out.push_back(load_kernel_param(t, true));
    out.push_back(load_const(t, false));
    out.push_back(load_const(t, true));
    const std::string name = t.name;
    const bool f64 = name == "f64";
    out.push_back(store(t, kPlaces[0], t.w, name == "f32" ? "0f7fc00001" : f64 ? "0d7ff8000000000001" : "-3", !f64));
  }
  // Orders and scopes (ISA 9.7.9.8, 9.7.9.11), .mmio, cache operators, eviction priorities, prefetch sizes, and
  // ld.global.nc (9.7.9.9), on every type.
  for (const auto& t : kMemTypes) {
    for (const char* q : {".volatile", ".relaxed.gpu", ".relaxed.cta", ".acquire.sys", ".acquire.gpu", ".weak", ".mmio.relaxed.sys"})
      out.push_back(load(t, kPlaces[0], t.w, q));
    for (const char* q : {".ca", ".cg", ".cs", ".lu", ".cv", ".L1::evict_last", ".L1::no_allocate", ".cg.L2::128B", ".L2::64B",
                          ".L2::256B", ".nc", ".nc.L1::evict_first"})
      out.push_back(load(t, kPlaces[0], t.w, "", q));
    for (const char* q : {".relaxed.cta", ".acquire.cta", ".volatile"}) out.push_back(load(t, kPlaces[3], t.w, q));
    for (const char* q : {".volatile", ".relaxed.gpu", ".release.gpu", ".release.sys", ".weak", ".mmio.relaxed.sys"})
      out.push_back(qualified_store(t, q, "", false));
    for (const char* q : {".wb", ".cg", ".cs", ".wt", ".L1::no_allocate", ".L1::evict_last"}) out.push_back(qualified_store(t, "", q, false));
    for (const char* q : {".release.cta", ".relaxed.cta", ".volatile"}) out.push_back(qualified_store(t, q, "", true));
  }
  {
    FormText f(FastKind::none);  // with a cache-policy operand
    const std::string pol = f.reg(64), d = f.dst(32);
    f.line("createpolicy.fractional.L2::evict_last.b64 " + pol + ", 1.0;");
    f.form("ld.global.L2::cache_hint.u32 " + d + ", [" + f.memory_input(4) + "], " + pol + ";");
    out.push_back(f.done());
  }
  for (const char* v : {"v2", "v4"}) {
    FormText f(FastKind::none);
    std::string list = "{" + f.dst(32) + ", " + f.dst(32);
    if (std::string(v) == "v4") list += ", " + f.dst(32) + ", " + f.dst(32);
    f.form("ld.global." + std::string(v) + ".u32 " + list + "}, [" + f.memory_input(0) + "];");
    out.push_back(f.done());
  }
}

std::vector<Form> fast_path_forms() {
  std::vector<Form> forms;
  integer_arithmetic_forms(forms);
  logic_and_shift_forms(forms);
  move_select_compare_forms(forms);
  conversion_forms(forms);
  float_forms(forms);
  memory_forms(forms);
  return forms;
}

}  // namespace fast_forms
