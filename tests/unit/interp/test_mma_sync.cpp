// mma.sync (PTX ISA 9.0 9.7.14.5.14) in the interpreter: one warp loads its A, B and C fragments from global
// memory, runs one mma.sync and stores D; the host checks D == A * B + C element by element. Independent
// expectations: the fragment layouts below are this file's own transcription of the row/column formulas of
// 9.7.14.5.1-11 (written out shape by shape as the text gives them, not the interpreter's general pattern), and
// the values are small (0, +-0.5, +-1, +-2, +-3) so that every partial sum is exact and every order agrees.
#include "semantics/interp/launch.hpp"
#include "semantics/ir/build.hpp"
#include "semantics/interp/matrix_operand.hpp"
#include "tests/unit/interp/matrix_layouts.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

using namespace ptx::interp;
using matrix_test::d_value;
using matrix_test::module_of;

namespace {
struct Pos {
  int row, col;
  bool operator==(const Pos&) const = default;
};
using Layout = std::function<Pos(int lane, int i)>;

// The text's formulas (g = groupID = %laneid >> 2, t = threadID_in_group = %laneid % 4).
struct Frag {
  Layout a, b, c;
};
int g_(int l) { return l >> 2; }
int t_(int l) { return l % 4; }
Pos c_m16(int l, int i) { return {i < 2 ? g_(l) : g_(l) + 8, t_(l) * 2 + (i & 1)}; }  // every m16n8 C/D (9.7.14.5.6-11)
Pos c_m8(int l, int i) { return {g_(l), t_(l) * 2 + (i & 1)}; }                         // m8n8k4 .f64, m8n8k16, m8n8k32

// 9.7.14.5.2-13, keyed by shape and multiplicand kind: "16" = .f16/.bf16, "32" = .tf32, "64" = .f64, "8" = .s8/.u8 and
// the fp8 types, "4" = .s4/.u4, "1" = .b1.
Frag fragments(const std::string& shape, const std::string& kind) {
  if (shape == "m8n8k128")  // 9.7.14.5.5
    return {[](int l, int i) { return Pos{g_(l), t_(l) * 32 + i}; }, [](int l, int i) { return Pos{t_(l) * 32 + i, g_(l)}; }, c_m8};
  if (shape == "m16n8k128")  // 9.7.14.5.12
    return {[](int l, int i) { return Pos{i < 32 ? g_(l) : g_(l) + 8, t_(l) * 32 + (i & 0x1F)}; },
            [](int l, int i) { return Pos{t_(l) * 32 + i, g_(l)}; }, c_m16};
  if (shape == "m16n8k256")  // 9.7.14.5.13; A's column for i < 64 as Figure 100 draws it (32t + (i & 0x1F): the formula
                             // writes 32t + i, which would put a32..a63 of T0 on T1's columns)
    return {[](int l, int i) {
              return Pos{(i < 32 || (64 <= i && i < 96)) ? g_(l) : g_(l) + 8, t_(l) * 32 + (i & 0x1F) + (i >= 64 ? 128 : 0)};
            },
            [](int l, int i) { return Pos{t_(l) * 32 + (i & 0x1F) + (i >= 32 ? 128 : 0), g_(l)}; }, c_m16};
  if (shape == "m8n8k4" && kind == "64")  // 9.7.14.5.2
    return {[](int l, int) { return Pos{g_(l), t_(l)}; }, [](int l, int) { return Pos{t_(l), g_(l)}; }, c_m8};
  if (shape == "m8n8k16")  // 9.7.14.5.3
    return {[](int l, int i) { return Pos{g_(l), t_(l) * 4 + i}; }, [](int l, int i) { return Pos{t_(l) * 4 + i, g_(l)}; }, c_m8};
  if (shape == "m8n8k32")  // 9.7.14.5.4
    return {[](int l, int i) { return Pos{g_(l), t_(l) * 8 + i}; }, [](int l, int i) { return Pos{t_(l) * 8 + i, g_(l)}; }, c_m8};
  if (shape == "m16n8k4")  // 9.7.14.5.6, .tf32 and .f64 alike
    return {[](int l, int i) { return Pos{i == 0 ? g_(l) : g_(l) + 8, t_(l)}; }, [](int l, int) { return Pos{t_(l), g_(l)}; }, c_m16};
  if (shape == "m16n8k8" && kind == "16")  // 9.7.14.5.7
    return {[](int l, int i) { return Pos{i < 2 ? g_(l) : g_(l) + 8, t_(l) * 2 + (i & 1)}; },
            [](int l, int i) { return Pos{t_(l) * 2 + i, g_(l)}; }, c_m16};
  if (shape == "m16n8k8")  // 9.7.14.5.7, .tf32 and .f64
    return {[](int l, int i) { return Pos{(i == 0 || i == 2) ? g_(l) : g_(l) + 8, i < 2 ? t_(l) : t_(l) + 4}; },
            [](int l, int i) { return Pos{i == 0 ? t_(l) : t_(l) + 4, g_(l)}; }, c_m16};
  if (shape == "m16n8k16" && kind == "16")  // 9.7.14.5.8
    return {[](int l, int i) { return Pos{(i < 2 || (4 <= i && i < 6)) ? g_(l) : g_(l) + 8, t_(l) * 2 + (i & 1) + (i >= 4 ? 8 : 0)}; },
            [](int l, int i) { return Pos{t_(l) * 2 + (i & 1) + (i >= 2 ? 8 : 0), g_(l)}; }, c_m16};
  if (shape == "m16n8k16" && kind == "64")  // 9.7.14.5.8
    return {[](int l, int i) { return Pos{i % 2 == 0 ? g_(l) : g_(l) + 8, i % 2 == 0 ? i * 2 + t_(l) : i * 2 - 2 + t_(l)}; },
            [](int l, int i) { return Pos{t_(l) + i * 4, g_(l)}; }, c_m16};
  if (shape == "m16n8k16")  // 9.7.14.5.9, 8-bit
    return {[](int l, int i) { return Pos{i < 4 ? g_(l) : g_(l) + 8, t_(l) * 4 + (i & 3)}; },
            [](int l, int i) { return Pos{t_(l) * 4 + i, g_(l)}; }, c_m16};
  if (shape == "m16n8k32" && kind == "4")  // 9.7.14.5.10
    return {[](int l, int i) { return Pos{i < 8 ? g_(l) : g_(l) + 8, t_(l) * 8 + (i & 7)}; },
            [](int l, int i) { return Pos{t_(l) * 8 + (i & 7), g_(l)}; }, c_m16};
  if (shape == "m16n8k32")  // 9.7.14.5.10, 8-bit
    return {[](int l, int i) { return Pos{(i < 4 || (8 <= i && i < 12)) ? g_(l) : g_(l) + 8, t_(l) * 4 + (i & 3) + (i >= 8 ? 16 : 0)}; },
            [](int l, int i) { return Pos{t_(l) * 4 + (i & 3) + (i >= 4 ? 16 : 0), g_(l)}; }, c_m16};
  if (shape == "m16n8k64")  // 9.7.14.5.11
    return {[](int l, int i) { return Pos{(i < 8 || (16 <= i && i < 24)) ? g_(l) : g_(l) + 8, t_(l) * 8 + (i & 7) + (i >= 16 ? 32 : 0)}; },
            [](int l, int i) { return Pos{t_(l) * 8 + (i & 7) + (i >= 8 ? 32 : 0), g_(l)}; }, c_m16};
  FAIL("no fragment table for " << shape << " " << kind);
  return {};
}

// 9.7.14.5.1, m8n8k4 .f16: four products (lanes 0-3 with 16-19, 4-7 with 20-23, ...); hi = the high group.
Pos m8n8k4_a(bool row_major, int l, int i) {
  const int hi = l < 16 ? 0 : 4;
  return row_major ? Pos{l % 4 + hi, i} : Pos{i % 4 + hi, l % 4};
}
Pos m8n8k4_b(bool row_major, int l, int i) {
  const int hi = l < 16 ? 0 : 4;
  return row_major ? Pos{l % 4, i + hi} : Pos{i, l % 4 + hi};
}
Pos m8n8k4_c(bool f16, int l, int i) {
  const int hi = l < 16 ? 0 : 4;
  if (f16) return {l % 4 + hi, i};
  return {(l & 1) + (i & 2) + hi, (i & 4) + (l & 2) + (i & 1)};
}

int type_bits(const std::string& t) {
  if (t == "f64") return 64;
  if (t == "tf32" || t == "f32" || t == "s32") return 32;
  if (t == "f16" || t == "bf16") return 16;
  if (t == "s4" || t == "u4") return 4;
  if (t == "b1") return 1;
  return 8;
}
const matrix_test::Type* fp_type(const std::string& t) {
  using namespace matrix_test;
  for (const Type* x : {&kF16, &kBF16, &kTF32, &kE4M3, &kE5M2, &kE3M2, &kE2M3, &kE2M1})
    if (t == x->name) return x;
  return nullptr;
}

struct Form {
  std::string shape, d, a, b, c, alayout = "row", blayout = "col", extra;  // extra: ".satfinite", ".rz", ...
  std::string bit_op;  // .b1: "xor" or "and", written after the types as 9.7.14.5.14's syntax does (".bitOp.popc")
  int m = 16, n = 8, k = 16;
  bool quad() const { return shape == "m8n8k4" && a == "f16"; }
  int lanes() const { return quad() ? 8 : 32; }
  bool integer() const { return d == "s32"; }
};
Form form(std::string shape, std::string d, std::string a, std::string b, std::string c) {
  Form f;
  f.shape = shape, f.d = d, f.a = a, f.b = b, f.c = c;
  std::sscanf(shape.c_str(), "m%dn%dk%d", &f.m, &f.n, &f.k);
  return f;
}

// A register file for one operand: `per` elements per register of `bits` each (or one .f64 a register).
struct Regs {
  int elems, bits, per, count;
  std::vector<std::uint64_t> words;  // 32 lanes x count
  Regs(int e, int b) : elems(e), bits(b), per(b >= 32 ? 1 : 32 / b), count((e + per - 1) / per), words(32 * count, 0) {}
  void put(int lane, int i, std::uint64_t bits_) {
    const int sh = bits >= 32 ? 0 : bits * (i % per);
    words[lane * count + i / per] |= (bits_ & (bits >= 64 ? ~0ull : (1ull << bits) - 1)) << sh;
  }
  std::uint64_t get(int lane, int i) const {
    const int sh = bits >= 32 ? 0 : bits * (i % per);
    return (words[lane * count + i / per] >> sh) & (bits >= 64 ? ~0ull : (1ull << bits) - 1);
  }
  int reg_bytes() const { return bits == 64 ? 8 : 4; }
  std::vector<std::uint8_t> bytes() const {
    std::vector<std::uint8_t> out(words.size() * reg_bytes());
    for (std::size_t r = 0; r < words.size(); ++r) std::memcpy(out.data() + r * reg_bytes(), &words[r], reg_bytes());
    return out;
  }
};

std::string kernel(const Form& f, const Regs& A, const Regs& B, const Regs& C, const Regs& D) {
  auto reg_type = [](const std::string& t) { return t == "f64" ? "f64" : t == "f32" ? "f32" : "b32"; };
  const std::string at = reg_type(f.a), bt = reg_type(f.b), ct = reg_type(f.c), dt = reg_type(f.d);
  const std::string target = f.extra.find("kind::") != std::string::npos ? "sm_120a" : "sm_90a";
  std::string s = ".version 8.7\n.target " + target + "\n.address_size 64\n"
                  ".visible .entry mma(.param .u64 out, .param .u64 ain, .param .u64 bin, .param .u64 cin)\n{\n"
                  "  .reg .b32 %r<4>;\n  .reg .b64 %rd<20>;\n";
  s += "  .reg ." + at + " %a<40>;\n  .reg ." + bt + " %b<40>;\n  .reg ." + ct + " %c<10>;\n  .reg ." + dt + " %d<10>;\n";
  s += "  mov.u32 %r1, %laneid;\n";
  auto load = [&](const char* param, const char* name, const std::string& type, const Regs& R, int base) {
    const std::string p = "%rd" + std::to_string(base), q = "%rd" + std::to_string(base + 1);
    s += "  ld.param.u64 " + p + ", [" + param + "];\n  cvta.to.global.u64 " + p + ", " + p + ";\n";
    s += "  mul.wide.u32 " + q + ", %r1, " + std::to_string(R.count * R.reg_bytes()) + ";\n  add.u64 " + p + ", " + p + ", " + q + ";\n";
    for (int r = 0; r < R.count; ++r)
      s += "  " + std::string(name[0] == 'd' ? "st" : "ld") + ".global." + type + " " +
           (name[0] == 'd' ? "[" + p + "+" + std::to_string(r * R.reg_bytes()) + "], %" + name + std::to_string(r)
                           : "%" + std::string(name) + std::to_string(r) + ", [" + p + "+" + std::to_string(r * R.reg_bytes()) + "]") + ";\n";
  };
  load("ain", "a", at, A, 2);
  load("bin", "b", bt, B, 4);
  load("cin", "c", ct, C, 6);
  auto vec = [](const char* name, int n) {
    std::string v = "{";
    for (int r = 0; r < n; ++r) v += (r ? ", %" : "%") + std::string(name) + std::to_string(r);
    return v + "}";
  };
  s += "  mma.sync.aligned." + f.shape + "." + f.alayout + "." + f.blayout + f.extra + "." + f.d + "." + f.a + "." + f.b + "." + f.c +
       (f.bit_op.empty() ? "" : "." + f.bit_op + ".popc") + " " + vec("d", D.count) + ", " + vec("a", A.count) + ", " + vec("b", B.count) + ", " + vec("c", C.count) + ";\n";
  load("out", "d", dt, D, 8);
  s += "  ret;\n}\n";
  return s;
}

// A value of type t: one of +-{0, 0.5, 1, 2, 3} for the floating-point types (tf32 with random low 13 bits, which
// the interpreter drops), random for the integers. Returns the value and sets the encoding.
double value(const std::string& t, std::mt19937& rng, std::uint64_t& enc) {
  const int bits = type_bits(t);
  if (t == "s8" || t == "u8" || t == "s4" || t == "u4" || t == "b1") {
    enc = rng() & ((1u << bits) - 1);
    const bool sgn = t[0] == 's' && (enc >> (bits - 1)) & 1;
    return static_cast<double>(static_cast<std::int64_t>(enc) - (sgn ? (1 << bits) : 0));
  }
  const int v = static_cast<int>(rng() % 9) - 4;
  const double x = v < 0 ? -matrix_test::kValue[-v] : matrix_test::kValue[v];
  if (t == "f64") std::memcpy(&enc, &x, 8);
  else if (t == "f32") {
    const float y = static_cast<float>(x);
    std::uint32_t w;
    std::memcpy(&w, &y, 4);
    enc = w;
  } else {
    enc = fp_type(t)->enc[std::abs(v)] | (v < 0 ? matrix_test::sign_bit(*fp_type(t)) : 0);
    if (t == "tf32") enc |= rng() & 0x1fff;
  }
  return x;
}


std::string kind(const std::string& t) {
  const int b = type_bits(t);
  return b == 64 ? "64" : b == 32 ? "32" : b == 16 ? "16" : b == 4 ? "4" : b == 1 ? "1" : "8";
}

// The test's expectation hooks: C's values (default: random small), and D from the exact sum (default: itself,
// wrapped to 32 bits for integers without .satfinite, clamped with it).
struct Inputs {
  std::function<double(int q, int row, int col, std::uint64_t& enc)> c_value;
  std::function<double(int q, int row, int col, std::uint64_t& enc)> a_value, b_value;
  std::function<double(double exact)> expect;
};

// Runs form f on random inputs and checks every element of D.
void check(const Form& f, unsigned seed = 1, const Inputs& opt = {}) {
  CAPTURE(f.shape + f.extra + "." + f.alayout + "." + f.blayout + "." + f.d + "." + f.a + "." + f.b + "." + f.c);
  std::mt19937 rng(seed);
  const int L = f.lanes(), Q = 32 / L, M = f.m, N = f.n, K = f.k;
  Regs A(M * K / L, type_bits(f.a)), B(K * N / L, type_bits(f.b)), C(M * N / L, type_bits(f.c) == 16 ? 16 : type_bits(f.c)),
      D(M * N / L, type_bits(f.d));
  Layout la, lb, lc, ld;
  if (f.quad()) {
    la = [&](int l, int i) { return m8n8k4_a(f.alayout == "row", l, i); };
    lb = [&](int l, int i) { return m8n8k4_b(f.blayout == "row", l, i); };
    lc = [&](int l, int i) { return m8n8k4_c(f.c == "f16", l, i); };
    ld = [&](int l, int i) { return m8n8k4_c(f.d == "f16", l, i); };
  } else {
    const Frag fr = fragments(f.shape, kind(f.a));
    la = fr.a, lb = fr.b, lc = ld = fr.c;
  }
  // The product a lane takes part in: m8n8k4 .f16's table (9.7.14.5.1), else the one product.
  auto product = [&](int l) { return f.quad() ? (l % 16) / 4 : 0; };
  std::vector<double> a(Q * M * K), b(Q * K * N), c(Q * M * N);
  std::vector<int> seen_a(Q * M * K), seen_b(Q * K * N), seen_c(Q * M * N);
  // Values per matrix element first, then placed in each lane's registers by the text's formulas.
  std::vector<std::uint64_t> ea(a.size()), eb(b.size()), ec(c.size());
  for (int q = 0; q < Q; ++q) {
    for (int r = 0; r < M; ++r)
      for (int k = 0; k < K; ++k) a[(q * M + r) * K + k] = opt.a_value ? opt.a_value(q, r, k, ea[(q * M + r) * K + k]) : value(f.a, rng, ea[(q * M + r) * K + k]);
    for (int k = 0; k < K; ++k)
      for (int n = 0; n < N; ++n) b[(q * K + k) * N + n] = opt.b_value ? opt.b_value(q, k, n, eb[(q * K + k) * N + n]) : value(f.b, rng, eb[(q * K + k) * N + n]);
    for (int r = 0; r < M; ++r)
      for (int n = 0; n < N; ++n) {
        std::uint64_t& e = ec[(q * M + r) * N + n];
        if (opt.c_value) c[(q * M + r) * N + n] = opt.c_value(q, r, n, e);
        else if (f.integer()) {
          const std::int32_t v = static_cast<std::int32_t>(rng() % 200001) - 100000;
          e = static_cast<std::uint32_t>(v), c[(q * M + r) * N + n] = v;
        } else c[(q * M + r) * N + n] = value(f.c, rng, e);
      }
  }
  for (int l = 0; l < 32; ++l) {
    const int q = product(l);
    for (int i = 0; i < A.elems; ++i) {
      const Pos p = la(l, i);
      REQUIRE((p.row < M && p.col < K));
      A.put(l, i, ea[(q * M + p.row) * K + p.col]), ++seen_a[(q * M + p.row) * K + p.col];
    }
    for (int i = 0; i < B.elems; ++i) {
      const Pos p = lb(l, i);
      REQUIRE((p.row < K && p.col < N));
      B.put(l, i, eb[(q * K + p.row) * N + p.col]), ++seen_b[(q * K + p.row) * N + p.col];
    }
    for (int i = 0; i < C.elems; ++i) {
      const Pos p = lc(l, i);
      REQUIRE((p.row < M && p.col < N));
      C.put(l, i, ec[(q * M + p.row) * N + p.col]), ++seen_c[(q * M + p.row) * N + p.col];
    }
  }
  // The transcription covers each element exactly once (a check on the table itself).
  for (const auto* seen : {&seen_a, &seen_b, &seen_c})
    for (int s : *seen) REQUIRE(s == 1);

  const ptx::ir::Module& module = module_of(kernel(f, A, B, C, D), "mma_sync_test.ptx");
  REQUIRE(instruction_supported(*std::find_if(module.functions[0].body.begin(), module.functions[0].body.end(),
                                              [](const auto& ins) { return ins.op == ptx::ir::Opcode::mma_; })));
  Launch launch;
  launch.kernel = "mma";
  launch.block = {32, 1, 1};
  launch.buffers = {{"out", std::vector<std::uint8_t>(D.bytes().size())}, {"ain", A.bytes()}, {"bin", B.bytes()}, {"cin", C.bytes()}};
  auto buf = [](const char* name) { return ParamValue{name, {}, 0, {}}; };
  launch.params = {buf("out"), buf("ain"), buf("bin"), buf("cin")};
  const RunResult r = run(module, launch, {});
  REQUIRE_MESSAGE(r.ok(), r.problem.message);
  const auto& out = r.buffers[0].second;
  for (std::size_t w = 0; w < D.words.size(); ++w) std::memcpy(&D.words[w], out.data() + w * D.reg_bytes(), D.reg_bytes());
  int wrong = 0;
  for (int l = 0; l < 32; ++l)
    for (int i = 0; i < D.elems; ++i) {
      const Pos p = ld(l, i);
      const int q = product(l);
      double exact = c[(q * M + p.row) * N + p.col];
      for (int k = 0; k < K; ++k) {
        const double x = a[(q * M + p.row) * K + k], y = b[(q * K + k) * N + p.col];
        // .b1 (9.7.14.5.14): "the XOR, AND respectively of a k-bit row of A with a k-bit column of B, then counts the
        // number of set bits in the result (popc)"; bits are 0 or 1 here, so per k: x != y, x * y
        exact += f.bit_op == "xor" ? (x != y ? 1 : 0) : x * y;
      }
      double want = exact;
      if (opt.expect) want = opt.expect(exact);
      else if (f.integer() && f.extra == ".satfinite") want = std::clamp(exact, -2147483648.0, 2147483647.0);
      else if (f.integer()) want = static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::int64_t>(exact)));
      const double got = d_value(f.d, D.get(l, i));
      if (got != want && wrong++ < 4) FAIL_CHECK("lane " << l << " d" << i << " = D[" << p.row << "][" << p.col << "] (product " << q << "): " << got << ", expected " << want);
    }
  CHECK(wrong == 0);
}
}  // namespace

TEST_CASE("mma.sync m8n8k4 .f16 (9.7.14.5.1): four products, every layout pair, .f16 and .f32 accumulators") {
  for (const char* al : {"row", "col"})
    for (const char* bl : {"row", "col"})
      for (auto [d, c] : {std::pair{"f16", "f16"}, {"f32", "f16"}, {"f32", "f32"}}) {
        Form f = form("m8n8k4", d, "f16", "f16", c);
        f.alayout = al, f.blayout = bl;
        check(f);
      }
}

TEST_CASE("mma.sync .f16/.bf16/.tf32 (9.7.14.5.6-8): m16n8k4, m16n8k8, m16n8k16") {
  check(form("m16n8k4", "f32", "tf32", "tf32", "f32"));
  check(form("m16n8k8", "f32", "tf32", "tf32", "f32"), 2);
  check(form("m16n8k8", "f32", "bf16", "bf16", "f32"));
  check(form("m16n8k8", "f16", "f16", "f16", "f16"));
  check(form("m16n8k8", "f32", "f16", "f16", "f32"));
  check(form("m16n8k16", "f32", "bf16", "bf16", "f32"));
  for (const char* d : {"f16", "f32"})
    for (const char* c : {"f16", "f32"}) check(form("m16n8k16", d, "f16", "f16", c), 3);  // mixed: as for fp8 below
}

TEST_CASE("mma.sync .f64 (9.7.14.5.2, 6-8): m8n8k4, m16n8k4, m16n8k8, m16n8k16") {
  for (const char* s : {"m8n8k4", "m16n8k4", "m16n8k8", "m16n8k16"}) check(form(s, "f64", "f64", "f64", "f64"));
}

TEST_CASE("mma.sync .f64 rounds each step as an .f64 fma in the rounding the instruction names") {
  // D[r][c] = fma(A[r][0], 1, C[r][c]) with A[r][0] = +-2^-60 and C = +-1, every other product 0: the single rounding
  // step decides. 1 + 2^-60 rounds to 1 (.rn, .rz, .rm) or to 1 + 2^-52 (.rp); -1 - 2^-60 to -1 - 2^-52 with .rm.
  for (const char* rnd : {"", ".rn", ".rz", ".rm", ".rp"})
    for (double sign : {1.0, -1.0}) {
      Form f = form("m16n8k8", "f64", "f64", "f64", "f64");
      f.extra = rnd;
      Inputs o;
      auto enc = [](double x, std::uint64_t& e) { std::memcpy(&e, &x, 8); return x; };
      o.a_value = [&](int, int, int k, std::uint64_t& e) { return enc(k == 0 ? sign * std::ldexp(1, -60) : 0, e); };
      o.b_value = [&](int, int, int, std::uint64_t& e) { return enc(1, e); };
      o.c_value = [&](int, int, int, std::uint64_t& e) { return enc(sign, e); };
      const std::string r = rnd;
      CAPTURE(r);
      o.expect = [&](double) {
        const bool away = (r == ".rp" && sign > 0) || (r == ".rm" && sign < 0);
        return sign * (away ? 1 + std::ldexp(1, -52) : 1.0);
      };
      check(f, 1, o);
    }
}

TEST_CASE("mma.sync 8-bit integers (9.7.14.5.3, 9-10): m8n8k16, m16n8k16, m16n8k32, mixed signedness") {
  for (const char* s : {"m8n8k16", "m16n8k16", "m16n8k32"})
    for (auto [a, b] : {std::pair{"s8", "s8"}, {"u8", "u8"}, {"s8", "u8"}, {"u8", "s8"}}) check(form(s, "s32", a, b, "s32"), 4);
}

TEST_CASE("mma.sync 4-bit integers (9.7.14.5.4, 10-11): m8n8k32, m16n8k32, m16n8k64, mixed signedness") {
  for (const char* s : {"m8n8k32", "m16n8k32", "m16n8k64"})
    for (auto [a, b] : {std::pair{"s4", "s4"}, {"u4", "u4"}, {"s4", "u4"}}) check(form(s, "s32", a, b, "s32"), 5);
}

TEST_CASE("mma.sync .b1 (9.7.14.5.5, 12-13): m8n8k128, m16n8k128, m16n8k256, .xor.popc and .and.popc") {
  unsigned seed = 40;
  for (const char* s : {"m8n8k128", "m16n8k128", "m16n8k256"})
    for (const char* op : {"xor", "and"}) {
      Form f = form(s, "s32", "b1", "b1", "s32");
      f.bit_op = op;
      check(f, seed++);
    }
  // Every bit set: .and counts K per element, .xor none, so D = C + K and D = C (hand-computed).
  for (const char* op : {"xor", "and"}) {
    Form f = form("m16n8k256", "s32", "b1", "b1", "s32");
    f.bit_op = op;
    Inputs o;
    auto one = [](int, int, int, std::uint64_t& e) { e = 1; return 1.0; };
    o.a_value = o.b_value = one;
    o.c_value = [](int, int, int, std::uint64_t& e) { e = 7; return 7.0; };
    o.expect = [op](double) { return std::string(op) == "and" ? 7.0 + 256 : 7.0; };
    check(f, 50, o);
  }
  // The sum wraps modulo 2^32 as the integer forms without .satfinite do (the text names no clamp for .b1).
  Form f = form("m16n8k128", "s32", "b1", "b1", "s32");
  f.bit_op = "and";
  Inputs o;
  o.c_value = [](int, int, int, std::uint64_t& e) { e = static_cast<std::uint32_t>(INT32_MAX); return 2147483647.0; };
  check(f, 51, o);
}

TEST_CASE("mma.sync integers near the s32 limits: wrapped without .satfinite, clamped with it") {
  for (const char* extra : {"", ".satfinite"})
    for (std::int32_t base : {INT32_MAX - 1000, INT32_MIN + 1000}) {
      Form f = form("m16n8k32", "s32", base > 0 ? "u8" : "s8", "u8", "s32");
      f.extra = extra;
      Inputs o;
      o.c_value = [&](int, int, int, std::uint64_t& e) { e = static_cast<std::uint32_t>(base); return static_cast<double>(base); };
      if (base < 0)  // s8 x u8 with A <= 0: every sum goes down
        o.a_value = [](int, int, int, std::uint64_t& e) { e = 0x80; return -128.0; };
      CAPTURE(base);
      check(f, 6, o);
    }
}

TEST_CASE("mma.sync .e4m3/.e5m2 (9.7.14.5.9-10): m16n8k16 and m16n8k32, .f16 and .f32 accumulators, .kind::f8f6f4") {
  for (const char* s : {"m16n8k16", "m16n8k32"})
    for (auto [a, b] : {std::pair{"e4m3", "e4m3"}, {"e5m2", "e4m3"}, {"e4m3", "e5m2"}})
      for (const char* d : {"f16", "f32"}) check(form(s, d, a, b, d), 7);
  // The text's syntax lets .dtype and .ctype differ here (ptxas 13.0 does not; docs/tensor-cores.md)
  check(form("m16n8k32", "f16", "e5m2", "e5m2", "f32"), 9);
  // .kind::f8f6f4 with the 8-bit types (9.7.14.5.14's syntax; 9.7.14.5.10's fragments)
  Form f = form("m16n8k32", "f32", "e5m2", "e4m3", "f32");
  f.extra = ".kind::f8f6f4";
  check(f, 8);
}

TEST_CASE("mma.sync .kind::f8f6f4 with the 6- and 4-bit types (9.7.14.5.14, 5.2.5): m16n8k32, 8-bit containers") {
  const char* types[] = {"e3m2", "e2m3", "e2m1", "e4m3", "e5m2"};
  unsigned seed = 100;
  for (const char* a : types)
    for (const char* b : types) {
      auto fp8 = [](const std::string& t) { return t == "e4m3" || t == "e5m2"; };
      if (fp8(a) && fp8(b)) continue;  // the fp8 x fp8 pairs are above
      const char* dc = seed % 2 ? "f16" : "f32";  // .dtype = .ctype, as ptxas 13.0 takes them
      Form f = form("m16n8k32", dc, a, b, dc);
      f.extra = ".kind::f8f6f4";
      check(f, seed++);
    }
}

TEST_CASE("matrix_element_value: the narrow formats' values from 5.2.5, hand-checked") {
  using ST = ptx::ir::ScalarType;
  // e2m1 (in bits 5..2 of the container): 0b0111 = 1.5 * 2^2 = 6 (its max), 0b1111 = -6, 0b0001 = 0.5 (subnormal);
  // the padding bits are ignored
  CHECK(matrix_element_value(ST::e2m1x2, 0b0111 << 2) == 6.0);
  CHECK(matrix_element_value(ST::e2m1x2, 0b1111 << 2) == -6.0);
  CHECK(matrix_element_value(ST::e2m1x2, (0b0001 << 2) | 0xc3) == 0.5);
  // e2m3: max 0.11.111 = 1.875 * 2^(3-1) = 7.5; least subnormal 0.00.001 = 1/8 * 2^0 = 0.125
  CHECK(matrix_element_value(ST::e2m3x2, 0b011111) == 7.5);
  CHECK(matrix_element_value(ST::e2m3x2, 0b000001) == 0.125);
  CHECK(matrix_element_value(ST::e2m3x2, 0b100001) == -0.125);
  // e3m2: max 0.111.11 = 1.75 * 2^(7-3) = 28; least subnormal 0.000.01 = 1/4 * 2^(1-3) = 0.0625
  CHECK(matrix_element_value(ST::e3m2x2, 0b011111) == 28.0);
  CHECK(matrix_element_value(ST::e3m2x2, 0b000001) == 0.0625);
  // e4m3: max 0.1111.110 = 1.75 * 2^8 = 448, 0x7f NaN; e5m2: 0x7b = 1.75 * 2^15 = 57344, 0x7c inf, 0x7d NaN
  CHECK(matrix_element_value(ST::e4m3, 0x7e) == 448.0);
  CHECK(std::isnan(matrix_element_value(ST::e4m3, 0x7f)));
  CHECK(matrix_element_value(ST::e5m2, 0x7b) == 57344.0);
  CHECK(matrix_element_value(ST::e5m2, 0xfc) == -HUGE_VAL);
  CHECK(std::isnan(matrix_element_value(ST::e5m2, 0x7d)));
}

TEST_CASE("instruction_supported: the mma forms the interpreter runs, and those it refuses by name") {
  auto load = [](const std::string& line) {
    const std::string text = ".version 8.7\n.target sm_120a\n.address_size 64\n.visible .entry k()\n{\n"
                             ".reg .f32 %f<9>;\n.reg .b32 %r<9>;\n.reg .f64 %fd<9>;\n" + line + "\nret;\n}\n";
    return ptx::ir::load_ptx(text, "forms.ptx");
  };
  auto supported = [&](const std::string& line) {
    const auto loaded = load(line);
    for (const auto& e : loaded.errors) FAIL(e.render());
    REQUIRE(loaded);
    return instruction_supported(loaded.module->functions[0].body[0]);
  };
  // A form the text does not define is refused when the module is read (semantics/ir/mma_form.hpp), with why.
  auto refused = [&](const std::string& line, const std::string& why) {
    const auto loaded = load(line);
    REQUIRE(loaded.errors.size() == 1);
    INFO(loaded.errors[0].render());
    return loaded.errors[0].render().find(why) != std::string::npos;
  };
  CHECK(supported("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8};"));
  CHECK(supported("mma.sync.aligned.m8n8k4.col.row.f16.f16.f16.f16 {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%r7, %r8}, {%r1, %r2, %r3, %r4};"));
  // m8n8k4: a .f32 C needs a .f32 D (9.7.14.5.14); m16n8k8: .dtype = .ctype
  CHECK(refused("mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f32 {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%r7, %r8}, {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8};", "when .ctype is .f32, .dtype must also be .f32"));
  CHECK(refused("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f16 {%f1, %f2, %f3, %f4}, {%r1, %r2}, {%r3}, {%r4, %r5};", ".dtype must be the same as .ctype"));
  // the other forms but m8n8k4 .f16 are .row.col only; .satfinite is for integers; rounding for .f64
  CHECK(refused("mma.sync.aligned.m16n8k16.col.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8};", "this form is .row.col only"));
  CHECK(refused("mma.sync.aligned.m16n8k16.row.col.satfinite.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8};", ".satfinite is a qualifier of the integer forms only"));
  CHECK(refused("mma.sync.aligned.m16n8k16.row.col.rz.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8};", "a rounding is a qualifier of the .f64 forms only"));
  // sub-byte multiplicands: the syntax's .atype and .btype apart (9.7.14.2's table says both .u4 or both .s4)
  CHECK(supported("mma.sync.aligned.m8n8k32.row.col.s32.s4.u4.s32 {%r1, %r2}, {%r3}, {%r4}, {%r5, %r6};"));
  CHECK(refused("mma.sync.aligned.m8n8k32.row.col.s32.s4.u8.s32 {%r1, %r2}, {%r3}, {%r4}, {%r5, %r6};", "these types and .kind are no combination"));
  // single-bit forms run with their register counts (A: 1, 2, 4 registers; B: 1, 1, 2); block scaling is not modelled
  CHECK(supported("mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc {%r1, %r2}, {%r3}, {%r4}, {%r5, %r6};"));
  CHECK(supported("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, {%r1, %r2}, {%r5, %r6, %r7, %r8};"));
  CHECK_FALSE(supported("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%r1, %r2}, {%r5, %r6, %r7, %r8};"));
  CHECK(supported("mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f16.e4m3.e4m3.f16 {%r1, %r2}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%r7, %r8};"));
  CHECK(refused("mma.sync.aligned.m16n8k16.row.col.kind::f8f6f4.f32.e4m3.e4m3.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2}, {%r5}, {%f5, %f6, %f7, %f8};", ".m16n8k16 is no shape of these types (the syntax lists .m16n8k32)"));
  CHECK(supported("mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e3m2.e2m1.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8};"));
  // the 6- and 4-bit types only with .kind::f8f6f4
  CHECK(refused("mma.sync.aligned.m16n8k32.row.col.f32.e3m2.e2m1.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8};", "these types and .kind are no combination"));
  // block scaling (.kind::mxf*) is not modelled
  CHECK_FALSE(supported("mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e4m3.e4m3.f32.ue8m0 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8}, %r1, {0, 0}, %r2, {0, 0};"));
  // sparse forms run (mma_sparse.cpp, test_mma_sparse.cpp), with the shape's register counts
  CHECK(supported("mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, {%f5, %f6, %f7, %f8}, %r1, 0x0;"));
  CHECK_FALSE(supported("mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2}, {%r5, %r6, %r7, %r8}, {%f5, %f6, %f7, %f8}, %r1, 0x0;"));
  // .kind::f8f6f4 with sparsity is mma.sp::ordered_metadata's only; the selector is a constant
  CHECK(refused("mma.sp.sync.aligned.m16n8k64.row.col.kind::f8f6f4.f32.e4m3.e4m3.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, {%f5, %f6, %f7, %f8}, %r1, 0;", "this form is mma.sp::ordered_metadata only"));
  CHECK(supported("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::f8f6f4.f32.e4m3.e4m3.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, {%f5, %f6, %f7, %f8}, %r1, 0;"));
  CHECK_FALSE(supported("mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, {%f5, %f6, %f7, %f8}, %r1, %r2;"));
  // a fragment of the wrong size: m16n8k16 .f16 A is four registers
  CHECK_FALSE(supported("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2}, {%r5, %r6}, {%f5, %f6, %f7, %f8};"));
}
