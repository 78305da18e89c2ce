// wmma (PTX ISA 9.0 9.7.14.4), stmatrix (9.7.14.5.16) and movmatrix (9.7.14.5.17) in the interpreter.
// wmma's fragment layout is unspecified (9.7.14.4.1), so its tests check only what the text defines: wmma.mma
// computes D = A * B + C on whole matrices loaded and stored by wmma.load / wmma.store in either layout and at
// any stride (9.7.14.4.2), uniform register arithmetic scales a fragment's matrix, and the stated restrictions
// are refused. The values are small (0, +-0.5, +-1, +-2, +-3; random integers) so every order of summation is
// exact. stmatrix and movmatrix are checked against the text's Figures 107-110, with spot checks read off them.
#include "semantics/interp/launch.hpp"
#include "semantics/ir/build.hpp"
#include "tests/unit/interp/matrix_layouts.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

using namespace ptx::interp;
using matrix_test::d_value;
using matrix_test::module_of;

namespace {
int bits_of(const std::string& t) {
  if (t == "f64") return 64;
  if (t == "f32" || t == "s32" || t == "tf32") return 32;
  if (t == "f16" || t == "bf16") return 16;
  if (t == "s8" || t == "u8") return 8;
  if (t == "s4" || t == "u4") return 4;
  return 1;  // b1
}

// A value of type t and its encoding: +-{0, 0.5, 1, 2, 3} for floating point (tf32 with random low 13 bits, which
// do not take part, 9.7.14.5.14's .tf32), random for integers.
double value(const std::string& t, std::mt19937& rng, std::uint64_t& enc) {
  const int bits = bits_of(t);
  if (t == "s8" || t == "u8" || t == "s4" || t == "u4" || t == "b1" || t == "s32") {
    if (t == "s32") {
      const std::int32_t v = static_cast<std::int32_t>(rng() % 200001) - 100000;
      enc = static_cast<std::uint32_t>(v);
      return v;
    }
    enc = rng() & ((1u << bits) - 1);
    const bool neg = t[0] == 's' && (enc >> (bits - 1)) & 1;
    return static_cast<double>(static_cast<std::int64_t>(enc) - (neg ? (1 << bits) : 0));
  }
  static const double mag[5] = {0, 0.5, 1, 2, 3};
  const int v = static_cast<int>(rng() % 9) - 4;
  const double x = v < 0 ? -mag[-v] : mag[v];
  if (t == "f64") std::memcpy(&enc, &x, 8);
  else if (t == "f32" || t == "tf32") {
    const float y = static_cast<float>(x);
    std::uint32_t w;
    std::memcpy(&w, &y, 4);
    enc = w | (t == "tf32" ? rng() & 0x1fff : 0);
  } else {  // f16: 0 0x3800 0x3c00 0x4000 0x4200; bf16: 0 0x3f00 0x3f80 0x4000 0x4040 (their definitions)
    static const std::uint32_t f16[5] = {0, 0x3800, 0x3c00, 0x4000, 0x4200}, bf16[5] = {0, 0x3f00, 0x3f80, 0x4000, 0x4040};
    enc = (t == "f16" ? f16 : bf16)[std::abs(v)] | (v < 0 ? 0x8000u : 0);
  }
  return x;
}


// A matrix in memory (9.7.14.4.2): element (r, c) at element offset r * stride + c (.row) or c * stride + r (.col);
// sub-byte elements packed from the low bits of each byte.
struct Stored {
  int rows, cols, bits, stride;
  bool row;
  std::vector<std::uint8_t> bytes;
  Stored(int r, int c, int b, bool rw, int extra) : rows(r), cols(c), bits(b), stride((rw ? c : r) + extra), row(rw),
    bytes(static_cast<std::size_t>((rw ? r : c) * stride * b / 8 + 64), 0) {}
  long bit(int r, int c) const { return (row ? static_cast<long>(r) * stride + c : static_cast<long>(c) * stride + r) * bits; }
  void put(int r, int c, std::uint64_t e) {
    const long b = bit(r, c);
    if (bits < 8) bytes[b / 8] |= static_cast<std::uint8_t>((e & ((1u << bits) - 1)) << (b % 8));
    else std::memcpy(&bytes[b / 8], &e, bits / 8);
  }
  std::uint64_t get(int r, int c) const {
    std::uint64_t e = 0;
    std::memcpy(&e, &bytes[bit(r, c) / 8], bits / 8);
    return e;
  }
};

struct Form {
  std::string shape, d, a, b, c;  // a == "f16": the .f16 form names only .dtype.ctype
  bool arow = true, brow = false, crow = true, drow = true;
  int extra_a = 0, extra_b = 0, extra_c = 0, extra_d = 0;  // elements added to the default strides
  std::string mods;  // ".satfinite", ".rz", ...; for .b1: ".xor.popc" / ".and.popc" after "mma"
  bool stride_reg = false;  // the stride as a register rather than an immediate
  int m = 0, n = 0, k = 0;
};
Form form(std::string shape, std::string d, std::string a, std::string b, std::string c) {
  Form f;
  f.shape = shape, f.d = d, f.a = a, f.b = b, f.c = c;
  std::sscanf(shape.c_str(), "m%dn%dk%d", &f.m, &f.n, &f.k);
  return f;
}

// Registers per fragment, from 9.7.14.4.1's tables (one .f64 a register; else .b32).
int regs(const Form& f, char x, const std::string& t) {
  const int rows = x == 'a' ? f.m : x == 'b' ? f.k : f.m, cols = x == 'a' ? f.k : x == 'b' ? f.n : f.n;
  if (t == "f16" && (x == 'a' || x == 'b')) return 8;  // "eight .f16x2 registers"
  const int elems = rows * cols / 32;
  return t == "f64" ? elems : elems * bits_of(t) / 32;
}

std::string vec(const std::string& name, int n) {
  std::string v = "{";
  for (int r = 0; r < n; ++r) v += (r ? ", %" : "%") + name + std::to_string(r);
  return v + "}";
}

std::string kernel(const Form& f, const Stored& A, const Stored& B, const Stored& C, const Stored& D) {
  auto rt = [](const std::string& t) { return t == "f64" ? std::string("f64") : std::string("b32"); };
  std::string s = ".version 8.7\n.target sm_90\n.address_size 64\n"
                  ".visible .entry k(.param .u64 out, .param .u64 ain, .param .u64 bin, .param .u64 cin)\n{\n"
                  "  .reg .b32 %s<4>;\n  .reg .b64 %rd<8>;\n";
  s += "  .reg ." + rt(f.a) + " %a<8>;\n  .reg ." + rt(f.b) + " %b<8>;\n  .reg ." + rt(f.c) + " %c<8>;\n  .reg ." + rt(f.d) + " %d<8>;\n";
  const char* params[4] = {"ain", "bin", "cin", "out"};
  for (int i = 0; i < 4; ++i)
    s += "  ld.param.u64 %rd" + std::to_string(i) + ", [" + params[i] + "];\n  cvta.to.global.u64 %rd" + std::to_string(i) + ", %rd" + std::to_string(i) + ";\n";
  auto stride = [&](int i, int v) {
    if (!f.stride_reg) return std::to_string(v);
    s += "  mov.b32 %s" + std::to_string(i) + ", " + std::to_string(v) + ";\n";
    return "%s" + std::to_string(i);
  };
  auto load = [&](char x, const std::string& t, const Stored& S, int i) {
    const std::string st = stride(i, S.stride);
    s += std::string("  wmma.load.") + x + ".sync.aligned." + (S.row ? "row" : "col") + "." + f.shape + ".global." + t + " " +
         vec(std::string(1, x), regs(f, x, t)) + ", [%rd" + std::to_string(i) + "], " + st + ";\n";
  };
  load('a', f.a, A, 0);
  load('b', f.b, B, 1);
  load('c', f.c, C, 2);
  // 9.7.14.4.5's order: .xor.popc after mma, a rounding after the shape, .satfinite after the types.
  const bool b1 = f.a == "b1", sat = f.mods == ".satfinite";
  const std::string types = f.a == "f16" ? "." + f.d + "." + f.c : "." + f.d + "." + f.a + "." + f.b + "." + f.c;
  s += "  wmma.mma" + std::string(b1 ? f.mods : "") + ".sync.aligned." + (f.arow ? "row" : "col") + "." + (f.brow ? "row" : "col") + "." +
       f.shape + (b1 || sat ? "" : f.mods) + types + (sat ? f.mods : "") + " " + vec("d", regs(f, 'd', f.d)) + ", " + vec("a", regs(f, 'a', f.a)) + ", " +
       vec("b", regs(f, 'b', f.b)) + ", " + vec("c", regs(f, 'c', f.c)) + ";\n";
  const std::string sd = stride(3, D.stride);
  s += std::string("  wmma.store.d.sync.aligned.") + (D.row ? "row" : "col") + "." + f.shape + ".global." + f.d + " [%rd3], " +
       vec("d", regs(f, 'd', f.d)) + ", " + sd + ";\n  ret;\n}\n";
  return s;
}

RunResult run_module(const std::string& ptx, std::vector<std::pair<std::string, std::vector<std::uint8_t>>> buffers, std::uint32_t threads = 32) {
  const ptx::ir::Module& module = module_of(ptx, "wmma_test.ptx");
  for (const auto& ins : module.functions[0].body) REQUIRE_MESSAGE(instruction_supported(ins), ptx::ir::opcode_text(ins));
  Launch launch;
  launch.block = {threads, 1, 1};
  for (const auto& [name, bytes] : buffers) launch.params.push_back(ParamValue{name, {}, 0, {}});
  launch.buffers = std::move(buffers);
  return run(module, launch, {});
}

// Runs f on random inputs and checks every element of D against the host's exact A * B + C.
void check(const Form& f, unsigned seed = 1) {
  CAPTURE(f.shape + f.mods + " " + f.d + " " + f.a + " " + f.b + " " + f.c + (f.arow ? " A.row" : " A.col") + (f.brow ? " B.row" : " B.col") +
          (f.crow ? " C.row" : " C.col") + (f.drow ? " D.row" : " D.col"));
  std::mt19937 rng(seed);
  const int M = f.m, N = f.n, K = f.k;
  Stored A(M, K, bits_of(f.a), f.arow, f.extra_a), B(K, N, bits_of(f.b), f.brow, f.extra_b), C(M, N, bits_of(f.c), f.crow, f.extra_c),
      D(M, N, bits_of(f.d), f.drow, f.extra_d);
  std::vector<double> a(M * K), b(K * N), c(M * N);
  std::uint64_t e = 0;
  for (int r = 0; r < M; ++r)
    for (int k = 0; k < K; ++k) a[r * K + k] = value(f.a, rng, e), A.put(r, k, e);
  for (int k = 0; k < K; ++k)
    for (int n = 0; n < N; ++n) b[k * N + n] = value(f.b, rng, e), B.put(k, n, e);
  for (int r = 0; r < M; ++r)
    for (int n = 0; n < N; ++n) c[r * N + n] = value(f.c, rng, e), C.put(r, n, e);
  const RunResult r = run_module(kernel(f, A, B, C, D), {{"out", D.bytes}, {"ain", A.bytes}, {"bin", B.bytes}, {"cin", C.bytes}});
  REQUIRE_MESSAGE(r.ok(), r.problem.message);
  D.bytes = r.buffers[0].second;
  int wrong = 0;
  for (int row = 0; row < M; ++row)
    for (int col = 0; col < N; ++col) {
      double exact = c[row * N + col];
      for (int k = 0; k < K; ++k) {
        const double x = a[row * K + k], y = b[k * N + col];
        exact += f.a != "b1" ? x * y : f.mods.find("and") != std::string::npos ? static_cast<int>(x) & static_cast<int>(y)
                                                                                 : static_cast<int>(x) ^ static_cast<int>(y);
      }
      double want = exact;
      if (f.d == "s32" && f.mods == ".satfinite") want = std::clamp(exact, -2147483648.0, 2147483647.0);
      else if (f.d == "s32") want = static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::int64_t>(exact)));
      const double got = d_value(f.d, D.get(row, col));
      if (got != want && wrong++ < 4) FAIL_CHECK("D[" << row << "][" << col << "] = " << got << ", expected " << want);
    }
  CHECK(wrong == 0);
  // The padding between lines (a stride above the default) is not written.
  for (int line = 0; line < (D.row ? M : N); ++line)
    for (int x = D.row ? N : M; x < D.stride; ++x)
      for (int byte = 0; byte < D.bits / 8; ++byte) CHECK(D.bytes[(line * D.stride + x) * D.bits / 8 + byte] == 0);
}

// Every layout of A, B, C and D.
void check_layouts(Form f, unsigned seed = 1) {
  for (int mask = 0; mask < 16; ++mask) {
    f.arow = mask & 1, f.brow = mask & 2, f.crow = mask & 4, f.drow = mask & 8;
    check(f, seed + mask);
  }
}
}  // namespace

TEST_CASE("wmma .f16 (9.7.14.4.5): every shape, .f16/.f32 accumulators, every layout") {
  for (const char* shape : {"m16n16k16", "m8n32k16", "m32n8k16"})
    for (auto [d, c] : {std::pair{"f32", "f32"}, {"f16", "f16"}, {"f32", "f16"}, {"f16", "f32"}}) check_layouts(form(shape, d, "f16", "f16", c));
}

TEST_CASE("wmma .bf16, .tf32 (9.7.14.4.5): every shape, every layout") {
  for (const char* shape : {"m16n16k16", "m8n32k16", "m32n8k16"}) check_layouts(form(shape, "f32", "bf16", "bf16", "f32"));
  check_layouts(form("m16n16k8", "f32", "tf32", "tf32", "f32"));
}

TEST_CASE("wmma .s8/.u8 (9.7.14.4.5): every shape, every layout, wrapped and .satfinite") {
  for (const char* shape : {"m16n16k16", "m8n32k16", "m32n8k16"})
    for (const char* t : {"s8", "u8"}) check_layouts(form(shape, "s32", t, t, "s32"));
  // Near the s32 limits: C = 2^31 - 100 plus products up to 16 * 255 * 255 overflows.
  Form f = form("m16n16k16", "s32", "u8", "u8", "s32");
  for (const char* mods : {"", ".satfinite"}) {
    f.mods = mods;
    CAPTURE(mods);
    std::mt19937 rng(7);
    Stored A(16, 16, 8, true, 0), B(16, 16, 8, false, 0), C(16, 16, 32, true, 0), D(16, 16, 32, true, 0);
    for (int r = 0; r < 16; ++r)
      for (int c = 0; c < 16; ++c) A.put(r, c, 255), B.put(r, c, 255), C.put(r, c, static_cast<std::uint32_t>(r % 2 ? 0x7fffff9c : 0x80000064));
    // row r of D: C + 16 * 255 * 255 = C + 1040400
    const RunResult res = run_module(kernel(f, A, B, C, D), {{"out", D.bytes}, {"ain", A.bytes}, {"bin", B.bytes}, {"cin", C.bytes}});
    REQUIRE_MESSAGE(res.ok(), res.problem.message);
    D.bytes = res.buffers[0].second;
    for (int r = 0; r < 16; ++r) {
      const std::int64_t exact = (r % 2 ? 2147483548LL : -2147483548LL) + 1040400;
      const std::int64_t want = *mods ? std::min<std::int64_t>(exact, 2147483647) : static_cast<std::int32_t>(static_cast<std::uint32_t>(exact));
      CHECK(static_cast<std::int32_t>(D.get(r, 3)) == want);
    }
  }
}

TEST_CASE("wmma .f64 (9.7.14.4.5): m8n8k4, every layout, each rounding") {
  check_layouts(form("m8n8k4", "f64", "f64", "f64", "f64"));
  Form f = form("m8n8k4", "f64", "f64", "f64", "f64");
  for (const char* rnd : {".rn", ".rz", ".rm", ".rp"}) f.mods = rnd, check(f);
}

TEST_CASE("wmma sub-byte and single-bit (9.7.14.4.5): .s4/.u4 m8n8k32, .b1 .xor/.and .popc m8n8k128") {
  for (const char* t : {"s4", "u4"})
    for (bool crow : {true, false}) {
      Form f = form("m8n8k32", "s32", t, t, "s32");
      f.crow = crow, f.drow = !crow;
      check(f);
      f.mods = ".satfinite";
      check(f, 3);
    }
  for (const char* op : {".xor.popc", ".and.popc"}) {
    Form f = form("m8n8k128", "s32", "b1", "b1", "s32");
    f.mods = op;
    check(f);
  }
}

TEST_CASE("wmma strides (9.7.14.4.2): above the default, as immediates and registers") {
  Form f = form("m16n16k16", "f32", "f16", "f16", "f32");
  f.extra_a = 16, f.extra_b = 48, f.extra_c = 8, f.extra_d = 24;
  check_layouts(f);
  f.stride_reg = true;
  check_layouts(f, 5);
  Form g = form("m8n32k16", "s32", "s8", "s8", "s32");
  g.extra_a = 16, g.extra_b = 32, g.extra_c = 8, g.extra_d = 8, g.stride_reg = true;
  check_layouts(g);
}

TEST_CASE("wmma fragments may be scaled uniformly (9.7.14.4.1): load C, double each register, store") {
  // 9.7.14.4.1: "if each register corresponding to a given matrix is multiplied by a uniform constant value, then
  // the resulting matrix is simply the scaled version of the original matrix". C(r, c) = r - c, stored at stride 20.
  const std::string ptx = R"(.version 8.7
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 in)
{
  .reg .b64 %rd<4>;
  .reg .f32 %c<8>;
  ld.param.u64 %rd0, [out];
  ld.param.u64 %rd1, [in];
  wmma.load.c.sync.aligned.col.m32n8k16.f32 {%c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7}, [%rd1], 40;
  mul.f32 %c0, %c0, 0f40000000;
  mul.f32 %c1, %c1, 0f40000000;
  mul.f32 %c2, %c2, 0f40000000;
  mul.f32 %c3, %c3, 0f40000000;
  mul.f32 %c4, %c4, 0f40000000;
  mul.f32 %c5, %c5, 0f40000000;
  mul.f32 %c6, %c6, 0f40000000;
  mul.f32 %c7, %c7, 0f40000000;
  wmma.store.d.sync.aligned.row.m32n8k16.f32 [%rd0], {%c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7};
  ret;
}
)";
  Stored in(32, 8, 32, false, 8);  // column-major, stride 40
  for (int r = 0; r < 32; ++r)
    for (int c = 0; c < 8; ++c) {
      const float v = static_cast<float>(r - c);
      std::uint32_t w;
      std::memcpy(&w, &v, 4);
      in.put(r, c, w);
    }
  const RunResult res = run_module(ptx, {{"out", std::vector<std::uint8_t>(32 * 8 * 4)}, {"in", in.bytes}});
  REQUIRE_MESSAGE(res.ok(), res.problem.message);
  const auto& out = res.buffers[0].second;
  for (int r = 0; r < 32; ++r)
    for (int c = 0; c < 8; ++c) {
      float v;
      std::memcpy(&v, &out[(r * 8 + c) * 4], 4);  // row-major at the default stride 8
      CHECK(v == 2.0f * (r - c));
    }
}

namespace {
std::string one_wmma(const std::string& line, const std::string& regs = ".reg .b32 %x<8>;\n  .reg .b32 %y<8>;\n  .reg .f64 %f<4>;") {
  return ".version 8.7\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n  .reg .b64 %rd<4>;\n  " + regs +
         "\n  ld.param.u64 %rd0, [out];\n  " + line + "\n  ret;\n}\n";
}
bool supported(const std::string& line) {
  auto loaded = ptx::ir::load_ptx(one_wmma(line), "wmma_forms.ptx");
  if (!loaded) return false;
  for (const auto& ins : loaded.module->functions[0].body)
    if (ins.op == ptx::ir::Opcode::wmma_) return instruction_supported(ins);
  return false;
}
}  // namespace

TEST_CASE("instruction_supported: the wmma forms of 9.7.14.4.3-5 run, and others are refused") {
  CHECK(supported("wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%x0, %x1, %x2, %x3, %x4, %x5, %x6, %x7}, [%rd0];"));
  CHECK(supported("wmma.load.b.sync.aligned.col.m8n32k16.u8 {%x0, %x1, %x2, %x3}, [%rd0], 32;"));
  CHECK(supported("wmma.load.a.sync.aligned.row.m8n8k32.s4 {%x0}, [%rd0];"));
  CHECK(supported("wmma.store.d.sync.aligned.col.m8n8k4.f64 [%rd0], {%f0, %f1};"));
  CHECK(supported("wmma.mma.sync.aligned.col.row.m8n8k4.rz.f64.f64.f64.f64 {%f0, %f1}, {%f2}, {%f3}, {%f0, %f1};"));
  // The fragment's register count is 9.7.14.4.1's: an .f16 A is eight registers, a .bf16 m16n16k16 A four.
  CHECK_FALSE(supported("wmma.load.a.sync.aligned.row.m16n16k16.f16 {%x0, %x1, %x2, %x3}, [%rd0];"));
  CHECK_FALSE(supported("wmma.load.a.sync.aligned.row.m16n16k16.bf16 {%x0, %x1, %x2, %x3, %x4, %x5, %x6, %x7}, [%rd0];"));
  // Sub-byte A loads are .row only, B loads .col only (9.7.14.4.3).
  CHECK_FALSE(supported("wmma.load.a.sync.aligned.col.m8n8k32.s4 {%x0}, [%rd0];"));
  CHECK_FALSE(supported("wmma.load.b.sync.aligned.row.m8n8k128.b1 {%x0}, [%rd0];"));
  // "the values for .atype and .btype must be the same" (9.7.14.4.5).
  CHECK_FALSE(supported("wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.u8.s32 {%x0, %x1, %x2, %x3, %x4, %x5, %x6, %x7}, "
                        "{%y0, %y1}, {%y2, %y3}, {%x0, %x1, %x2, %x3, %x4, %x5, %x6, %x7};"));
  // .satfinite on floating-point wmma.mma was removed in PTX 6.5; the sub-byte forms are .row.col only.
  CHECK_FALSE(supported("wmma.mma.sync.aligned.row.col.m16n16k16.satfinite.f32.f32 {%x0, %x1, %x2, %x3, %x4, %x5, %x6, %x7}, "
                        "{%y0, %y1, %y2, %y3, %y4, %y5, %y6, %y7}, {%y0, %y1, %y2, %y3, %y4, %y5, %y6, %y7}, {%x0, %x1, %x2, %x3, %x4, %x5, %x6, %x7};"));
  CHECK_FALSE(supported("wmma.mma.sync.aligned.col.col.m8n8k32.s32.s4.s4.s32 {%x0, %x1}, {%y0}, {%y1}, {%x0, %x1};"));
  // .b1 needs .xor or .and with .popc.
  CHECK_FALSE(supported("wmma.mma.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32 {%x0, %x1}, {%y0}, {%y1}, {%x0, %x1};"));
  CHECK(supported("wmma.mma.and.popc.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32 {%x0, %x1}, {%y0}, {%y1}, {%x0, %x1};"));
}

TEST_CASE("wmma.load: lanes giving different addresses, a stride below the default, misalignment") {
  auto run1 = [](const std::string& body, std::uint32_t threads = 32) {
    const std::string ptx = ".version 8.7\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n"
                            "  .reg .b64 %rd<4>;\n  .reg .b32 %r<2>;\n  .reg .b32 %x<8>;\n  .reg .pred %p<2>;\n  ld.param.u64 %rd0, [out];\n"
                            "  cvta.to.global.u64 %rd0, %rd0;\n"
                            "  mov.u32 %r0, %laneid;\n" + body + "\n  ret;\n}\n";
    return run_module(ptx, {{"out", std::vector<std::uint8_t>(4096)}}, threads);
  };
  const std::string load = "  wmma.load.c.sync.aligned.row.m16n16k16.global.f32 {%x0, %x1, %x2, %x3, %x4, %x5, %x6, %x7}, ";
  RunResult r = run1("  and.b32 %r1, %r0, 1;\n  mul.wide.u32 %rd1, %r1, 64;\n  add.u64 %rd1, %rd0, %rd1;\n" + load + "[%rd1];");
  CHECK(r.problem.kind == Problem::Kind::illegal);
  r = run1(load + "[%rd0], 8;");  // 9.7.14.4.3: "a value lower than the default value results in undefined behavior"
  CHECK(r.problem.kind == Problem::Kind::illegal);
  r = run1(load + "[%rd0+16];");  // 9.7.14.4.2: 32-byte fragments, lines at multiples of 32 bytes
  CHECK(r.problem.kind == Problem::Kind::misaligned);
  r = run1(load + "[%rd0], 20;");  // stride 80 bytes
  CHECK(r.problem.kind == Problem::Kind::misaligned);
  r = run1(load + "[%rd0+32], 24;");
  CHECK_MESSAGE(r.ok(), r.problem.message);
  // "undefined ... if any thread in the warp has exited": a warp of 16 threads, and lanes 16-31 gone first.
  r = run1(load + "[%rd0];", 16);
  CHECK(r.problem.kind == Problem::Kind::illegal);
  r = run1("  setp.ge.u32 %p0, %r0, 16;\n  @%p0 exit;\n" + load + "[%rd0];");
  CHECK(r.problem.kind == Problem::Kind::illegal);
}

// ---------------------------------------------------------------------------------------------- stmatrix
namespace {
// One warp stores the matrices of `st` from shared memory s, each lane's address s + 16 * lane (lane 8j+i: line i of
// matrix j), then copies s to out. Lane L's register j is in[4L + j] (u32 words).
std::vector<std::uint8_t> stmatrix(const std::string& st, int count, const std::vector<std::uint32_t>& in) {
  std::string ptx = ".version 8.7\n.target sm_100a\n.address_size 64\n.visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                    "  .shared .align 16 .b8 s[512];\n  .reg .b64 %rd<8>;\n  .reg .b32 %r<2>;\n  .reg .b32 %v<8>;\n"
                    "  ld.param.u64 %rd0, [out];\n  ld.param.u64 %rd1, [in];\n  mov.u32 %r0, %laneid;\n"
                    "  cvta.to.global.u64 %rd0, %rd0;\n  cvta.to.global.u64 %rd1, %rd1;\n"
                    "  mul.wide.u32 %rd2, %r0, 16;\n  add.u64 %rd1, %rd1, %rd2;\n  add.u64 %rd0, %rd0, %rd2;\n"
                    "  mov.u64 %rd3, s;\n  add.u64 %rd3, %rd3, %rd2;\n";
  for (int j = 0; j < count; ++j) ptx += "  ld.global.u32 %v" + std::to_string(j) + ", [%rd1+" + std::to_string(4 * j) + "];\n";
  ptx += "  " + st + " [%rd3], " + vec("v", count) + ";\n  bar.warp.sync -1;\n"
         "  ld.shared.v4.u32 {%v4, %v5, %v6, %v7}, [%rd3];\n  st.global.v4.u32 [%rd0], {%v4, %v5, %v6, %v7};\n  ret;\n}\n";
  std::vector<std::uint8_t> bytes(in.size() * 4);
  std::memcpy(bytes.data(), in.data(), bytes.size());
  const RunResult r = run_module(ptx, {{"out", std::vector<std::uint8_t>(512)}, {"in", bytes}});
  REQUIRE_MESSAGE(r.ok(), r.problem.message);
  return r.buffers[0].second;
}
std::uint16_t half(const std::vector<std::uint8_t>& m, int index) { return static_cast<std::uint16_t>(m[2 * index] | (m[2 * index + 1] << 8)); }
}  // namespace

TEST_CASE("stmatrix .m8n8 .b16 (9.7.14.5.16, Figure 107): .x1/.x2/.x4, with and without .trans") {
  // Lane L's register j holds 0x1000 j + 0x10 L + e in its half e.
  std::vector<std::uint32_t> in(128);
  auto v = [](int j, int lane, int e) { return static_cast<std::uint16_t>(0x1000 * j + 0x10 * lane + e); };
  for (int lane = 0; lane < 32; ++lane)
    for (int j = 0; j < 4; ++j) in[4 * lane + j] = v(j, lane, 0) | (v(j, lane, 1) << 16);
  for (int count : {1, 2, 4})
    for (bool trans : {false, true}) {
      CAPTURE(count);
      CAPTURE(trans);
      const auto m = stmatrix("stmatrix.sync.aligned.m8n8.x" + std::to_string(count) + (trans ? ".trans" : "") + ".shared.b16", count, in);
      // Figure 107: element (row, col) of matrix j is lane 4 row + col / 2's register j, half col % 2; line `row` of
      // matrix j (.trans: line `col`) is at 16 (8 j + line).
      for (int j = 0; j < 4; ++j)
        for (int row = 0; row < 8; ++row)
          for (int col = 0; col < 8; ++col) {
            const int at = trans ? (8 * j + col) * 8 + row : (8 * j + row) * 8 + col;
            CHECK(half(m, at) == (j < count ? v(j, 4 * row + col / 2, col % 2) : 0));
          }
      // Spot checks read off Figure 107: row 0 col 2 is T1's low half, row 7 col 7 is T31's high half.
      CHECK(half(m, trans ? 2 * 8 : 2) == v(0, 1, 0));
      CHECK(half(m, 7 * 8 + 7) == v(0, 31, 1));
    }
}

TEST_CASE("stmatrix .m16n8 .trans .b8 (9.7.14.5.16, Figure 108): 16x8 matrices stored column-major") {
  std::vector<std::uint32_t> in(128);
  for (int lane = 0; lane < 32; ++lane)
    for (int j = 0; j < 4; ++j)
      for (int e = 0; e < 4; ++e) in[4 * lane + j] |= static_cast<std::uint32_t>((64 * j + 2 * lane + (e & 1)) ^ (e & 2 ? 0x80 : 0)) << (8 * e);
  for (int count : {1, 2, 4}) {
    CAPTURE(count);
    const auto m = stmatrix("stmatrix.sync.aligned.m16n8.x" + std::to_string(count) + ".trans.shared::cta.b8", count, in);
    // Figure 108: element (row, col) is lane 4 (row % 8) + col / 2's byte 2 (row / 8) + col % 2; column col of matrix
    // j is the 16 bytes at 16 (8 j + col).
    for (int j = 0; j < count; ++j)
      for (int row = 0; row < 16; ++row)
        for (int col = 0; col < 8; ++col) {
          const int lane = 4 * (row % 8) + col / 2, e = 2 * (row / 8) + col % 2;
          CHECK(m[(8 * j + col) * 16 + row] == ((in[4 * lane + j] >> (8 * e)) & 0xff));
        }
    // Spot check: row 8, column 1 is T0:e3 (Figure 108).
    CHECK(m[1 * 16 + 8] == (in[0] >> 24));
  }
}

TEST_CASE("movmatrix.m8n8.trans.b16 (9.7.14.5.17, Figures 109-110): the transpose in the same fragment layout") {
  const std::string ptx = R"(.version 8.7
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .b64 %rd<4>;
  .reg .b32 %r<8>;
  ld.param.u64 %rd0, [out];
  cvta.to.global.u64 %rd0, %rd0;
  mov.u32 %r0, %laneid;
  // a = {A[L/4][2(L%4)], A[L/4][2(L%4)+1]} with A[r][c] = 0x100 + 16 r + c
  shr.u32 %r1, %r0, 2;
  and.b32 %r2, %r0, 3;
  shl.b32 %r2, %r2, 1;
  shl.b32 %r1, %r1, 4;
  add.u32 %r3, %r1, %r2;
  add.u32 %r3, %r3, 256;
  add.u32 %r4, %r3, 1;
  shl.b32 %r4, %r4, 16;
  or.b32 %r5, %r3, %r4;
  movmatrix.sync.aligned.m8n8.trans.b16 %r6, %r5;
  mul.wide.u32 %rd1, %r0, 4;
  add.u64 %rd1, %rd0, %rd1;
  st.global.u32 [%rd1], %r6;
  ret;
}
)";
  const RunResult r = run_module(ptx, {{"out", std::vector<std::uint8_t>(128)}});
  REQUIRE_MESSAGE(r.ok(), r.problem.message);
  const auto& m = r.buffers[0].second;
  auto A = [](int row, int col) { return static_cast<std::uint16_t>(0x100 + 16 * row + col); };
  // Lane L's d holds row L/4 of the transpose: A[2(L%4)][L/4], A[2(L%4)+1][L/4].
  for (int lane = 0; lane < 32; ++lane) {
    CHECK(half(m, 2 * lane) == A(2 * (lane % 4), lane / 4));
    CHECK(half(m, 2 * lane + 1) == A(2 * (lane % 4) + 1, lane / 4));
  }
  // By hand: lane 0 gets A[0][0], A[1][0]; lane 1 A[2][0], A[3][0]; lane 4 A[0][1], A[1][1].
  CHECK(half(m, 0) == 0x100);
  CHECK(half(m, 1) == 0x110);
  CHECK(half(m, 2) == 0x120);
  CHECK(half(m, 3) == 0x130);
  CHECK(half(m, 8) == 0x101);
  CHECK(half(m, 9) == 0x111);
}
