// mma.sp / mma.sp::ordered_metadata (PTX ISA 9.0 9.7.14.6) in the interpreter: one warp loads its sparse A, B, C
// fragments and metadata from global memory, runs one mma.sp and stores D; the host checks D == A * B + C with A the
// dense (decompressed) matrix. Independent expectations: the sparse A layouts and the metadata layouts below are this
// file's own transcription of 9.7.14.6.2.1-8 (each section's row/firstcol formulas and metadata figure, written out
// shape by shape), B/C/D the dense formulas the sections refer to; values are small (0, +-0.5 .. +-3) or random
// integers, so that every partial sum is exact and every accumulation order agrees. Lanes that hold no metadata for
// the selector get random words, so a wrong metadata lane shows.
#include "semantics/interp/launch.hpp"
#include "semantics/ir/build.hpp"
#include "tests/unit/interp/matrix_layouts.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

using namespace ptx::interp;
using matrix_test::d_value;
using matrix_test::module_of;

namespace {
int g_(int l) { return l >> 2; }
int t_(int l) { return l % 4; }

int type_bits(const std::string& t) {
  if (t == "tf32" || t == "f32" || t == "s32") return 32;
  if (t == "f16" || t == "bf16") return 16;
  if (t == "s4" || t == "u4") return 4;
  return 8;
}

// Sparse A element i of lane l: its row, and the first column of the range it is a non-zero of (9.7.14.6.2.x "row =
// ... firstcol = ..."); `width` = lastcol - firstcol + 1; `per` = the elements of one range a lane holds.
struct ARange {
  int row, firstcol;
};
struct Shape {
  int k, width, per;  // per: the number of consecutive ai sharing one (row, firstcol)
  std::function<ARange(int l, int i)> a;
  int chunk;  // metadata chunk, in elements: 4 (2:4), 2 (.tf32 1:2), 8 (4:8 pair-wise)
  // Metadata: the lane offset within the group of four and the low bit of the nibble for (row, chunk c), sel = f.
  std::function<std::pair<int, int>(int row, int c, int sel)> meta;
};

Shape shape_of(const std::string& a, int k) {
  const int b = type_bits(a);
  if (b == 16 && k == 16)  // 9.7.14.6.2.1, Figures 118-119
    return {16, 4, 2, [](int l, int i) { return ARange{i < 2 ? g_(l) : g_(l) + 8, t_(l) * 4}; }, 4,
            [](int r, int c, int sel) { return std::pair{sel, (r < 8 ? 0 : 16) + 4 * c}; }};
  if (b == 16 && k == 32)  // 9.7.14.6.2.2, Figures 120, 122
    return {32, 4, 2, [](int l, int i) { return ARange{(i < 2 || (4 <= i && i < 6)) ? g_(l) : g_(l) + 8, t_(l) * 4 + (i >= 4 ? 16 : 0)}; }, 4,
            [](int r, int c, int sel) { return std::pair{c < 4 ? 2 * sel : 2 * sel + 1, (r < 8 ? 0 : 16) + 4 * (c % 4)}; }};
  if (b == 32 && k == 16)  // 9.7.14.6.2.3, Figures 123, 125
    return {16, 2, 1, [](int l, int i) { return ARange{(i == 0 || i == 2) ? g_(l) : g_(l) + 8, t_(l) * 2 + (i >= 2 ? 8 : 0)}; }, 2,
            [](int r, int c, int sel) { return std::pair{c < 4 ? 2 * sel : 2 * sel + 1, (r < 8 ? 0 : 16) + 4 * (c % 4)}; }};
  if (b == 32 && k == 8)  // 9.7.14.6.2.4, Figures 126-127
    return {8, 2, 1, [](int l, int i) { return ARange{i == 0 ? g_(l) : g_(l) + 8, t_(l) * 2}; }, 2,
            [](int r, int c, int sel) { return std::pair{sel, (r < 8 ? 0 : 16) + 4 * c}; }};
  if (b == 8 && k == 32)  // 9.7.14.6.2.5, Figures 128-129
    return {32, 8, 4, [](int l, int i) { return ARange{i < 4 ? g_(l) : g_(l) + 8, t_(l) * 8}; }, 4,
            [](int r, int c, int sel) { return std::pair{r < 8 ? 2 * sel : 2 * sel + 1, 4 * c}; }};
  if (b == 8 && k == 64)  // 9.7.14.6.2.6, Figures 130-131, 136-137 (T0/T1 columns 0-31, T2/T3 columns 32-63)
    return {64, 8, 4, [](int l, int i) { return ARange{(i < 4 || (8 <= i && i < 12)) ? g_(l) : g_(l) + 8, t_(l) * 8 + (i >= 8 ? 32 : 0)}; }, 4,
            [](int r, int c, int) { return std::pair{(r < 8 ? 0 : 1) + (c < 8 ? 0 : 2), 4 * (c % 8)}; }};
  if (b == 4 && k == 64)  // 9.7.14.6.2.7, Figures 138-139
    return {64, 16, 8, [](int l, int i) { return ARange{i < 8 ? g_(l) : g_(l) + 8, t_(l) * 16}; }, 8,
            [](int r, int c, int sel) { return std::pair{r < 8 ? 2 * sel : 2 * sel + 1, 4 * c}; }};
  if (b == 4 && k == 128)  // 9.7.14.6.2.8, Figures 140-141, 146-147
    return {128, 16, 8, [](int l, int i) { return ARange{(i < 8 || (16 <= i && i < 24)) ? g_(l) : g_(l) + 8, t_(l) * 16 + (i >= 16 ? 64 : 0)}; }, 8,
            [](int r, int c, int) { return std::pair{(r < 8 ? 0 : 1) + (c < 8 ? 0 : 2), 4 * (c % 8)}; }};
  FAIL("no sparse layout for " << a << " k" << k);
  return {};
}

// Dense B and C/D (9.7.14.5.7-11 as the sparse sections refer to them): B row p t + i % p + 4p (i / p), column g,
// p the elements per 32 bits (1 for .tf32); C/D row g + 8 (i / 2), column 2t + i % 2.
std::pair<int, int> b_pos(int bits, int l, int i) {
  const int p = bits == 32 ? 1 : 32 / bits;
  return {p * t_(l) + i % p + 4 * p * (i / p), g_(l)};
}
std::pair<int, int> c_pos(int l, int i) { return {g_(l) + 8 * (i / 2), 2 * t_(l) + i % 2}; }

struct Regs {
  int bits, per, count;
  std::vector<std::uint32_t> words;
  Regs(int elems, int b) : bits(b), per(b >= 32 ? 1 : 32 / b), count((elems + per - 1) / per), words(32 * count, 0) {}
  void put(int lane, int i, std::uint32_t v) {
    const int sh = bits >= 32 ? 0 : bits * (i % per);
    words[lane * count + i / per] |= (bits >= 32 ? v : v & ((1u << bits) - 1)) << sh;
  }
  std::uint32_t get(int lane, int i) const {
    const int sh = bits >= 32 ? 0 : bits * (i % per);
    return bits >= 32 ? words[lane * count + i / per] : (words[lane * count + i / per] >> sh) & ((1u << bits) - 1);
  }
};

const matrix_test::Type* fp_type(const std::string& t) {
  using namespace matrix_test;
  for (const Type* x : {&kF16, &kBF16, &kTF32, &kE4M3, &kE5M2, &kE3M2, &kE2M3, &kE2M1})
    if (t == x->name) return x;
  return nullptr;
}
// A non-zero-or-zero value of type t with its encoding: +-{0.5, 1, 2, 3} (or 0 when `zero_ok`) for the floats,
// random for the integers.
double value(const std::string& t, std::mt19937& rng, std::uint32_t& enc, bool zero_ok = true) {
  const int bits = type_bits(t);
  if (t == "s8" || t == "u8" || t == "s4" || t == "u4") {
    enc = rng() & ((1u << bits) - 1);
    const bool sgn = t[0] == 's' && (enc >> (bits - 1)) & 1;
    return static_cast<double>(static_cast<int>(enc) - (sgn ? (1 << bits) : 0));
  }
  if (t == "f32") {
    const int v = static_cast<int>(rng() % 9) - 4;
    const float x = static_cast<float>(v < 0 ? -matrix_test::kValue[-v] : matrix_test::kValue[v]);
    std::memcpy(&enc, &x, 4);
    return x;
  }
  int v = static_cast<int>(rng() % (zero_ok ? 9 : 8)) - 4;
  if (!zero_ok && v >= 0) ++v;
  enc = fp_type(t)->enc[std::abs(v)] | (v < 0 ? matrix_test::sign_bit(*fp_type(t)) : 0);
  return v < 0 ? -matrix_test::kValue[-v] : matrix_test::kValue[v];
}

struct Form {
  std::string variant = "sp", d, a, b, c, extra;  // extra: ".satfinite", ".kind::f8f6f4"
  int k = 16, selector = 0;
  int written_selector = -1;  // the f the kernel gives, when not `selector` (the data is laid out for `selector`)
};

std::string kernel(const Form& f, const Regs& A, const Regs& B, const Regs& C, const Regs& D) {
  const std::string ct = f.c == "f32" ? "f32" : "b32", dt = f.d == "f32" ? "f32" : "b32";
  const bool kind = f.extra.find("kind::") != std::string::npos;
  const std::string target = kind ? "sm_120a" : (f.a[0] == 'e' ? "sm_89" : "sm_80");
  std::string s = ".version " + std::string(kind ? "8.7" : "8.5") + "\n.target " + target + "\n.address_size 64\n" +
                  ".visible .entry mma(.param .u64 out, .param .u64 ain, .param .u64 bin, .param .u64 cin, .param .u64 ein)\n{\n"
                  "  .reg .b32 %r<4>;\n  .reg .b64 %rd<20>;\n  .reg .b32 %a<8>;\n  .reg .b32 %b<8>;\n  .reg .b32 %e;\n";
  s += "  .reg ." + ct + " %c<4>;\n  .reg ." + dt + " %d<4>;\n  mov.u32 %r1, %laneid;\n";
  auto move = [&](const char* param, const char* name, const std::string& type, int count, int base, bool store) {
    const std::string p = "%rd" + std::to_string(base), q = "%rd" + std::to_string(base + 1);
    s += "  ld.param.u64 " + p + ", [" + param + "];\n  cvta.to.global.u64 " + p + ", " + p + ";\n";
    s += "  mul.wide.u32 " + q + ", %r1, " + std::to_string(4 * count) + ";\n  add.u64 " + p + ", " + p + ", " + q + ";\n";
    for (int r = 0; r < count; ++r) {
      const std::string reg = "%" + std::string(name) + (count > 0 && std::string(name) != "e" ? std::to_string(r) : "");
      const std::string at = "[" + p + "+" + std::to_string(4 * r) + "]";
      s += store ? "  st.global." + type + " " + at + ", " + reg + ";\n" : "  ld.global." + type + " " + reg + ", " + at + ";\n";
    }
  };
  move("ain", "a", "b32", A.count, 2, false);
  move("bin", "b", "b32", B.count, 4, false);
  move("cin", "c", ct, C.count, 6, false);
  move("ein", "e", "b32", 1, 10, false);
  auto vec = [](const char* name, int n) {
    std::string v = "{";
    for (int r = 0; r < n; ++r) v += (r ? ", %" : "%") + std::string(name) + std::to_string(r);
    return v + "}";
  };
  s += "  mma." + f.variant + ".sync.aligned.m16n8k" + std::to_string(f.k) + ".row.col" + f.extra + "." + f.d + "." + f.a + "." + f.b +
       "." + f.c + " " + vec("d", D.count) + ", " + vec("a", A.count) + ", " + vec("b", B.count) + ", " + vec("c", C.count) +
       ", %e, " + std::to_string(f.written_selector >= 0 ? f.written_selector : f.selector) + ";\n";
  move("out", "d", dt, D.count, 8, true);
  s += "  ret;\n}\n";
  return s;
}

// Every meaningful nibble (9.7.14.6.1): the 2:4 index pairs, or for .tf32 the two 1:2 values.
std::vector<unsigned> meaningful(const std::string& a) {
  if (a == "tf32") return {0b0100, 0b1110};
  return {0b0100, 0b1000, 0b1001, 0b1100, 0b1101, 0b1110};
}
// The columns of chunk c's non-zero elements for nibble m (chunk width w): 2:4 -> the two indices; .tf32 -> 0b0100
// element 0, 0b1110 element 1; 4:8 pair-wise -> the two two-element sub-chunks the indices name.
std::vector<int> nonzero_cols(const Shape& s, int c, unsigned m) {
  const int i0 = m & 3, i1 = (m >> 2) & 3, base = c * s.chunk;
  if (s.chunk == 2) return {base + (m == 0b0100 ? 0 : 1)};
  if (s.chunk == 4) return {base + i0, base + i1};
  return {base + 2 * i0, base + 2 * i0 + 1, base + 2 * i1, base + 2 * i1 + 1};
}

struct Hooks {
  std::function<void(std::vector<std::uint32_t>& e)> edit_meta;  // change the metadata words before the run
  std::function<void(const RunResult&)> on_run;                 // replaces the D check
  bool fixed_c = false;                                         // every integer C element c_value, not random
  std::int64_t c_value = 0;
};

// Runs form f on random inputs and checks every element of D against the dense product.
void check(const Form& f, unsigned seed = 1, const Hooks& h = {}) {
  CAPTURE("mma." + f.variant + ".m16n8k" + std::to_string(f.k) + f.extra + "." + f.d + "." + f.a + "." + f.b + "." + f.c);
  CAPTURE(f.selector);
  std::mt19937 rng(seed);
  const Shape s = shape_of(f.a, f.k);
  const int M = 16, N = 8, K = f.k, ab = type_bits(f.a);
  const bool integer = f.d == "s32";
  Regs A(M * K / 2 / 32, ab), B(K * N / 32, type_bits(f.b)), C(M * N / 32, type_bits(f.c)), D(M * N / 32, type_bits(f.d));
  std::vector<double> a(M * K, 0.0), b(K * N), c(M * N);
  std::vector<std::uint32_t> ea(M * K, 0), eb(K * N), ec(M * N), e(32);
  for (auto& w : e) w = rng();  // lanes without metadata: random words
  const auto patterns = meaningful(f.a);
  for (int r = 0; r < M; ++r)
    for (int ch = 0; ch < K / s.chunk; ++ch) {
      const unsigned m = patterns[rng() % patterns.size()];
      const auto [lane_off, bit] = s.meta(r, ch, f.selector);
      const int lane = 4 * (r % 8) + lane_off;
      e[lane] = (e[lane] & ~(15u << bit)) | (m << bit);
      for (int col : nonzero_cols(s, ch, m)) a[r * K + col] = value(f.a, rng, ea[r * K + col], integer);
    }
  for (int k = 0; k < K; ++k)
    for (int n = 0; n < N; ++n) b[k * N + n] = value(f.b, rng, eb[k * N + n]);
  for (int i = 0; i < M * N; ++i) {
    if (integer) {
      const std::int32_t v = h.fixed_c ? static_cast<std::int32_t>(h.c_value) : static_cast<std::int32_t>(rng() % 200001) - 100000;
      ec[i] = static_cast<std::uint32_t>(v), c[i] = v;
    } else c[i] = value(f.c, rng, ec[i]);
  }
  // Metadata words of lanes that are not metadata lanes stay random; a metadata lane has every nibble set above
  // (each of its nibbles belongs to one (row, chunk)).
  // Place A: element i of lane l is the (i % per)-th non-zero of its row in columns firstcol .. firstcol + width - 1,
  // the non-zeros read back from the metadata words (an integer non-zero element may be 0).
  std::vector<int> seen(M * K, 0);
  std::vector<std::vector<int>> stored(M);
  for (int r = 0; r < M; ++r)
    for (int ch = 0; ch < K / s.chunk; ++ch) {
      const auto [lane_off, bit] = s.meta(r, ch, f.selector);
      for (int col : nonzero_cols(s, ch, (e[4 * (r % 8) + lane_off] >> bit) & 15)) stored[r].push_back(col);
    }
  for (int l = 0; l < 32; ++l)
    for (int i = 0; i < A.count * A.per; ++i) {
      const ARange rg = s.a(l, i);
      std::vector<int> in_range;
      for (int col : stored[rg.row])
        if (col >= rg.firstcol && col < rg.firstcol + s.width) in_range.push_back(col);
      REQUIRE(static_cast<int>(in_range.size()) == s.per);
      const int col = in_range[i % s.per];
      A.put(l, i, ea[rg.row * K + col]), ++seen[rg.row * K + col];
    }
  for (int r = 0; r < M; ++r)  // each stored element placed once, each zero none
    for (int col = 0; col < K; ++col)
      REQUIRE(seen[r * K + col] == (std::count(stored[r].begin(), stored[r].end(), col) ? 1 : 0));
  for (int l = 0; l < 32; ++l) {
    for (int i = 0; i < B.count * B.per; ++i) {
      const auto [row, col] = b_pos(type_bits(f.b), l, i);
      B.put(l, i, eb[row * N + col]);
    }
    for (int i = 0; i < 4; ++i) {
      const auto [row, col] = c_pos(l, i);
      C.put(l, i, ec[row * N + col]);
    }
  }
  if (h.edit_meta) h.edit_meta(e);
  const std::string text = kernel(f, A, B, C, D);
  if (const char* dir = std::getenv("PTXCHECK_MMA_SP_PTX_DIR")) {  // for checking the kernels with ptxas by hand
    static int n = 0;
    std::ofstream(std::string(dir) + "/mma_sp_" + std::to_string(n++) + ".ptx") << text;
  }
  const ptx::ir::Module& module = module_of(text, "mma_sparse_test.ptx");
  REQUIRE(instruction_supported(*std::find_if(module.functions[0].body.begin(), module.functions[0].body.end(),
                                              [](const auto& ins) { return ins.op == ptx::ir::Opcode::mma_; })));
  auto bytes = [](const std::vector<std::uint32_t>& w) { return matrix_test::bytes_of(w); };
  Launch launch;
  launch.kernel = "mma";
  launch.block = {32, 1, 1};
  launch.buffers = {{"out", std::vector<std::uint8_t>(D.words.size() * 4)}, {"ain", bytes(A.words)}, {"bin", bytes(B.words)},
                    {"cin", bytes(C.words)}, {"ein", bytes(e)}};
  auto buf = [](const char* name) { return ParamValue{name, {}, 0, {}}; };
  launch.params = {buf("out"), buf("ain"), buf("bin"), buf("cin"), buf("ein")};
  const RunResult r = run(module, launch, {});
  if (h.on_run) return h.on_run(r);
  REQUIRE_MESSAGE(r.ok(), r.problem.message);
  std::memcpy(D.words.data(), r.buffers[0].second.data(), D.words.size() * 4);
  int wrong = 0;
  for (int l = 0; l < 32; ++l)
    for (int i = 0; i < 4; ++i) {
      const auto [row, col] = c_pos(l, i);
      double exact = c[row * N + col];
      for (int k = 0; k < K; ++k) exact += a[row * K + k] * b[k * N + col];
      double want = exact;
      if (integer && f.extra == ".satfinite") want = std::clamp(exact, -2147483648.0, 2147483647.0);
      else if (integer) want = static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::int64_t>(exact)));
      const std::uint32_t w = f.d == "f16" ? D.words[l * D.count + i / 2] : D.words[l * D.count + i];
      const double got = d_value(f.d, w, f.d == "f16" ? i % 2 : 0);
      if (got != want && wrong++ < 4) FAIL_CHECK("lane " << l << " d" << i << " = D[" << row << "][" << col << "]: " << got << ", expected " << want);
    }
  CHECK(wrong == 0);
}

Form form(int k, std::string d, std::string a, std::string b, std::string c, int selector = 0, std::string variant = "sp") {
  Form f;
  f.k = k, f.d = d, f.a = a, f.b = b, f.c = c, f.selector = selector, f.variant = variant;
  return f;
}
}  // namespace

TEST_CASE("mma.sp .f16/.bf16 (9.7.14.6.2.1-2): m16n8k16 every selector, m16n8k32 both pairs, both variants") {
  for (const char* v : {"sp", "sp::ordered_metadata"}) {
    for (int sel = 0; sel < 4; ++sel) check(form(16, "f32", "f16", "f16", "f32", sel, v), 10 + sel);
    for (int sel = 0; sel < 2; ++sel) check(form(32, "f32", "f16", "f16", "f32", sel, v), 20 + sel);
    check(form(16, "f16", "f16", "f16", "f16", 1, v), 30);
    check(form(32, "f16", "f16", "f16", "f16", 0, v), 31);
    check(form(16, "f32", "bf16", "bf16", "f32", 2, v), 32);
    check(form(32, "f32", "bf16", "bf16", "f32", 1, v), 33);
  }
}

TEST_CASE("mma.sp .tf32 (9.7.14.6.2.3-4): 1:2 sparsity, m16n8k8 and m16n8k16") {
  for (int sel = 0; sel < 4; ++sel) check(form(8, "f32", "tf32", "tf32", "f32", sel), 40 + sel);
  for (int sel = 0; sel < 2; ++sel) check(form(16, "f32", "tf32", "tf32", "f32", sel, "sp::ordered_metadata"), 44 + sel);
}

TEST_CASE("mma.sp 8-bit integers and fp8 (9.7.14.6.2.5-6): m16n8k32, m16n8k64") {
  for (auto [a, b] : {std::pair{"s8", "s8"}, {"u8", "u8"}, {"s8", "u8"}, {"u8", "s8"}}) {
    for (int sel = 0; sel < 2; ++sel) check(form(32, "s32", a, b, "s32", sel), 50 + sel);
    check(form(64, "s32", a, b, "s32", 0, "sp::ordered_metadata"), 52);
  }
  for (auto [a, b] : {std::pair{"e4m3", "e4m3"}, {"e5m2", "e4m3"}, {"e4m3", "e5m2"}, {"e5m2", "e5m2"}})
    check(form(64, "f32", a, b, "f32"), 53);
  // .kind::f8f6f4 (mma.sp::ordered_metadata only): the 8-bit types, and the 6- and 4-bit ones in 8-bit containers
  for (auto [a, b] : {std::pair{"e4m3", "e5m2"}, {"e3m2", "e2m3"}, {"e2m3", "e2m1"}, {"e2m1", "e4m3"}, {"e5m2", "e3m2"}})
    for (const char* d : {"f16", "f32"}) {
      Form f = form(64, d, a, b, d, 0, "sp::ordered_metadata");
      f.extra = ".kind::f8f6f4";
      check(f, 54);
    }
}

TEST_CASE("mma.sp 4-bit integers (9.7.14.6.2.7-8): 4:8 pair-wise sparsity, m16n8k64 and m16n8k128") {
  for (auto [a, b] : {std::pair{"s4", "s4"}, {"u4", "u4"}, {"s4", "u4"}}) {
    for (int sel = 0; sel < 2; ++sel) check(form(64, "s32", a, b, "s32", sel), 60 + sel);
    check(form(128, "s32", a, b, "s32", 0, "sp::ordered_metadata"), 62);
  }
}

TEST_CASE("mma.sp integers: wrapped without .satfinite, clamped with it") {
  // C near INT32_MAX and u8 x u8 products: the sums pass the limit
  for (const char* extra : {"", ".satfinite"}) {
    Form f = form(32, "s32", "u8", "u8", "s32");
    f.extra = extra;
    Hooks h;
    h.fixed_c = true, h.c_value = INT32_MAX - 1000;  // each row has 16 u8 x u8 products: the sum passes INT32_MAX
    check(f, 70, h);
  }
}

TEST_CASE("mma.sp: a meaningless metadata nibble or selector is undefined and stops the run as illegal") {
  Hooks h;
  h.edit_meta = [](std::vector<std::uint32_t>& e) { e[4 * 3 + 1] = (e[4 * 3 + 1] & ~0xf0u) | 0x50u; };  // 0b0101 (9.7.14.6.1)
  h.on_run = [](const RunResult& r) {
    CHECK(r.problem.kind == Problem::Kind::illegal);
    CHECK(r.problem.message.find("9.7.14.6.1") != std::string::npos);
  };
  check(form(16, "f32", "f16", "f16", "f32", 1), 80, h);
  // .tf32: only 0b0100 and 0b1110; 0b1000 is a valid 2:4 pair but not a 1:2 value
  h.edit_meta = [](std::vector<std::uint32_t>& e) { e[0] = (e[0] & ~0xfu) | 0x8u; };
  check(form(8, "f32", "tf32", "tf32", "f32", 0), 81, h);
  // m16n8k32 .f16 allows selectors 0 and 1 only; m16n8k64 .s8 only 0 (9.7.14.6.1)
  Hooks sel;
  sel.on_run = [](const RunResult& r) {
    CHECK(r.problem.kind == Problem::Kind::illegal);
    CHECK(r.problem.message.find("selector") != std::string::npos);
  };
  Form f = form(32, "f32", "f16", "f16", "f32", 0);
  f.written_selector = 2;
  check(f, 82, sel);
  f = form(64, "s32", "s8", "s8", "s32", 0);
  f.written_selector = 1;
  check(f, 83, sel);
}
