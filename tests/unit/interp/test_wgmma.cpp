// wgmma (PTX ISA 9.0 9.7.15) in the interpreter: one warpgroup runs wgmma.mma_async on shared-memory matrices
// placed here by hand-built descriptors, and the results are checked against a host triple loop. Independent
// expectations: the shared-memory placement evaluates the spec's canonical layouts (9.7.15.5.1.10, CuTe notation)
// with a generic layout evaluator, checked against entries of the spec's Figures 166-169; the register fragments
// (Figures 148-153, drawn as images in the text) are CuTe's SM90 GMMA thread-value layouts, evaluated the same way.
#include "checker/race/dynamic.hpp"
#include "semantics/interp/launch.hpp"
#include "semantics/ir/build.hpp"
#include "tests/unit/interp/matrix_layouts.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace ptx::interp;
using namespace matrix_test;

namespace {
// Figures 148-153 as CuTe's SM90 layouts (cute/atom/mma_traits_sm90_gmma.hpp): (thread, value) -> m + 64 k.
const Mode kThread16{{4, 128}, {8, 1}, {4, 16}}, kThread8bit{{4, 256}, {8, 1}, {4, 16}}, kThreadTf32{{4, 64}, {8, 1}, {4, 16}};
std::pair<int, int> d_elem(int thread, int i) {  // CLayout_64xN: ((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512))
  const long x = eval(kThread16, thread) + eval({{2, 64}, {2, 8}, {32, 512}}, i);
  return {static_cast<int>(x % 64), static_cast<int>(x / 64)};
}
std::pair<int, int> a_elem(int eb, int thread, int i) {
  long x = 0;
  if (eb == 2) x = eval(kThread16, thread) + eval({{2, 64}, {2, 8}, {2, 512}}, i);           // ALayout_64x16
  else if (eb == 4) x = eval(kThreadTf32, thread) + eval({{2, 8}, {2, 256}}, i);              // ALayout_64x8
  else x = eval(kThread8bit, thread) + eval({{4, 64}, {2, 8}, {2, 1024}}, i);                // ALayout_64x32
  return {static_cast<int>(x % 64), static_cast<int>(x / 64)};
}

TEST_CASE("the test's layout evaluator reproduces entries of the spec's Figures 166-169") {
  // Figure 166: K-major, no swizzle, tf32, LBO 64 and SBO 32 elements: (row 1, col 4) = 68, (row 9, col 8) = 164.
  Smem f166{0, false, 64 * 4, 32 * 4, 0};
  CHECK(f166.place(4, 0, 1, 4) / 4 == 68);
  CHECK(f166.place(4, 0, 9, 4 + 0) / 4 == 100);
  // Figure 167: K-major, 32B swizzle, tf32, SBO 64 elements: row 4 reads 36 37 38 39 32 ..., row 12: 100 ... 96.
  Smem f167{32, false, 16, 64 * 4, 0};
  CHECK(f167.place(4, 0, 4, 0) / 4 == 36);
  CHECK(f167.place(4, 0, 4, 4) / 4 == 32);
  CHECK(f167.place(4, 0, 12, 0) / 4 == 100);
  CHECK(f167.place(4, 0, 3, 7) / 4 == 31);
  // Figure 168: MN-major, no swizzle, bf16, LBO 128 and SBO 64 elements: (mn 9, k 1) = 73, (mn 0, k 8) = 128.
  Smem f168{0, true, 128 * 2, 64 * 2, 0};
  CHECK(f168.place(2, 0, 9, 1) / 2 == 73);
  CHECK(f168.place(2, 0, 0, 8) / 2 == 128);
  // Figure 169: MN-major, 32B swizzle, bf16, LBO 128 and SBO 256 elements: (mn 0, k 4) = 72, (mn 24, k 4) = 192.
  // (Its rows 8-15 print 80 96 112 128 in columns 4-7, which is no Swizzle<1,4,3> and puts 128 twice, at row 16 too;
  // the swizzle the figure states gives 64 80 96 112 there, as rows 24-31 of the same figure do.)
  Smem f169{32, true, 128 * 2, 256 * 2, 0};
  CHECK(f169.place(2, 0, 0, 4) / 2 == 72);
  CHECK(f169.place(2, 0, 8, 4) / 2 == 64);
  CHECK(f169.place(2, 0, 16, 0) / 2 == 128);
  CHECK(f169.place(2, 0, 24, 4) / 2 == 192);
}

struct Case {
  Case(Type ta, Type tb) : a(ta), b(tb) {}
  Type a, b;
  const char* dtype = "f32";
  int n = 16;
  bool reg_a = false, trans_a = false, trans_b = false, scale_d = true, neg_a = false, neg_b = false, chain = false, satfinite = false;
  bool sparse = false;  // wgmma.mma_async.sp: m64nNk64 (8-bit types) or m64nNk32 (16-bit), with sp-meta and sp-sel
  int sel = 0;          // sp-sel
  bool bad_meta = false;  // one metadata nibble names one position twice (9.7.15.6.1: undefined)
  bool b1() const { return std::string(a.name) == "b1"; }
  int k() const { return b1() ? 256 : (sparse ? 64 : 32) / a.bytes; }
  Smem sa, sb;
};

// The kernel: 128 threads copy `img` into shared memory, load D (and A) fragments, run wgmma (twice in two groups
// with `chain`), and store D before any wait (early), after wait_group 1 (mid) and after wait_group 0 (out).
std::string kernel(const Case& c) {
  const bool f16d = std::string(c.dtype) == "f16", f32d = std::string(c.dtype) == "f32";
  const int regs = f16d ? c.n / 4 : c.n / 2, k = c.k();
  std::string d = "{", s;
  for (int i = 0; i < regs; ++i) d += (i ? ", %d" : "%d") + std::to_string(i);
  d += "}";
  const std::string dt = f32d ? "f32" : "b32";
  auto each_d = [&](const std::string& what) {
    for (int i = 0; i < regs; ++i) s += "  " + what + "." + dt + " " + (what[0] == 'l' ? "%d" + std::to_string(i) + ", [%rd6+" + std::to_string(4 * i) + "]" : "[%rd6+" + std::to_string(4 * i) + "], %d" + std::to_string(i)) + ";\n";
  };
  s += std::string(c.sparse ? ".version 8.4" : ".version 8.0") + "\n.target sm_90a\n.address_size 64\n"
       ".visible .entry wg(.param .u64 out, .param .u64 img, .param .u64 dinit, .param .u64 ain, .param .u64 adesc, .param .u64 bdesc, .param .u32 scaled)\n{\n"
       "  .reg .pred %p<4>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<16>;\n  .reg ." + dt + " %d<130>;\n  .reg .b32 %a<5>;\n"
       "  .shared .align 1024 .b8 smem[16384];\n"
       "  mov.u32 %r1, %tid.x;\n  ld.param.u64 %rd1, [img];\n  cvta.to.global.u64 %rd1, %rd1;\n  mov.u32 %r2, 0;\n"
       "LOOP:\n  mad.lo.u32 %r3, %r2, 128, %r1;\n  shl.b32 %r4, %r3, 2;\n  cvt.u64.u32 %rd2, %r4;\n  add.u64 %rd3, %rd1, %rd2;\n"
       "  ld.global.u32 %r5, [%rd3];\n  mov.u32 %r6, smem;\n  add.u32 %r6, %r6, %r4;\n  st.shared.u32 [%r6], %r5;\n"
       "  add.u32 %r2, %r2, 1;\n  setp.lt.u32 %p1, %r2, 32;\n  @%p1 bra LOOP;\n  bar.sync 0;\n  fence.proxy.async.shared::cta;\n"
       "  ld.param.u64 %rd4, [dinit];\n  cvta.to.global.u64 %rd4, %rd4;\n  mul.wide.u32 %rd5, %r1, " + std::to_string(4 * regs) + ";\n"
       "  add.u64 %rd6, %rd4, %rd5;\n";
  each_d("ld.global");
  // ain: 4 words of A registers a thread (with .sp a fifth: its sp-meta)
  s += "  ld.param.u64 %rd7, [ain];\n  cvta.to.global.u64 %rd7, %rd7;\n  mul.wide.u32 %rd8, %r1, " + std::string(c.sparse ? "20" : "16") +
       ";\n  add.u64 %rd7, %rd7, %rd8;\n";
  for (int i = 0; i < (c.sparse ? 5 : 4); ++i) s += "  ld.global.b32 %a" + std::to_string(i) + ", [%rd7+" + std::to_string(4 * i) + "];\n";
  s += "  ld.param.u64 %rd9, [adesc];\n  ld.param.u64 %rd10, [bdesc];\n  mov.u64 %rd11, smem;\n  shr.u64 %rd11, %rd11, 4;\n"
       "  add.u64 %rd9, %rd9, %rd11;\n  add.u64 %rd10, %rd10, %rd11;\n  ld.param.u32 %r7, [scaled];\n  setp.ne.u32 %p2, %r7, 0;\n"
       "  ld.param.u64 %rd12, [out];\n  cvta.to.global.u64 %rd12, %rd12;\n  mul.wide.u32 %rd13, %r1, " + std::to_string(4 * regs) + ";\n"
       "  add.u64 %rd6, %rd12, %rd13;\n";
  const bool fp = c.a.enc[2] != 0, trans = c.a.bytes == 2;
  std::string mma = std::string("  wgmma.mma_async") + (c.sparse ? ".sp" : "") + ".sync.aligned.m64n" + std::to_string(c.n) + "k" + std::to_string(k) + "." +
                    c.dtype + "." + c.a.name + "." + c.b.name + (c.b1() ? ".and.popc" : "") + (c.satfinite ? ".satfinite " : " ") + d + ", " +
                    (c.reg_a ? "{%a0, %a1, %a2, %a3}" : "%rd9") + ", %rd10" + (c.sparse ? ", %a4, " + std::to_string(c.sel) : "") + ", %p2";
  if (fp) mma += std::string(", ") + (c.neg_a ? "-1" : "1") + ", " + (c.neg_b ? "-1" : "1");
  if (trans && !c.reg_a) mma += c.trans_a ? ", 1" : ", 0";
  if (trans) mma += c.trans_b ? ", 1" : ", 0";
  mma += ";\n";
  s += "  wgmma.fence.sync.aligned;\n" + mma + "  wgmma.commit_group.sync.aligned;\n";
  if (c.chain) s += mma + "  wgmma.commit_group.sync.aligned;\n";
  const int block = 128 * regs * 4;
  each_d("st.global");  // early: before any wait
  s += "  add.u64 %rd6, %rd6, " + std::to_string(block) + ";\n  wgmma.wait_group.sync.aligned 1;\n";
  each_d("st.global");  // mid
  s += "  add.u64 %rd6, %rd6, " + std::to_string(block) + ";\n  wgmma.wait_group.sync.aligned 0;\n";
  each_d("st.global");  // out
  s += "  ret;\n}\n";
  return s;
}

struct Inputs {
  std::vector<std::uint8_t> img = std::vector<std::uint8_t>(16384);
  std::vector<std::uint32_t> dinit, ain;
  std::vector<double> A, B;  // 64 x K, K x N, as values (negation applied on use)
};

// A sparse 64 x K A (9.7.15.6.1: 2:4, two 2-bit indices a chunk, any two distinct positions, in either order: the
// first stored element goes to the index in bits 1..0). Stored element j of chunk ch of row m is element (m, 2 ch + j)
// of the compressed 64 x K/2 matrix: in shared memory at c.sa (a descriptor A), or, 8-bit in registers, placed by the
// text's Figure 179 (thread 32w + 4g + t: {a0..a3} the non-zeros of row 16w + g, columns 8t..8t+7, {a4..a7} of row
// 16w + g + 8, {a8..a11} and {a12..a15} the same rows at columns 32 + 8t..). sp-meta: 8-bit by Figures 180-181
// (sp-sel 0: thread 4g holds row g's chunks 0-7 (columns 0-31) in bits 4c..4c+3, 4g + 1 row g + 8's, 4g + 2 and
// 4g + 3 the same rows' chunks 8-15); 16-bit by Figure 176 (sp-sel i: thread 4g + 2i holds row g's chunks 0-3 in
// bits 4c..4c+3 and row g + 8's in bits 16 + 4c.., thread 4g + 2i + 1 their chunks 4-7); the other threads' sp-meta
// is random and must not matter.
template <class Value>
void sparse_a(const Case& c, std::mt19937& rng, Inputs& in, Value&& value) {
  const int K = c.k(), eb = c.a.bytes;
  in.ain.assign(128 * 5, 0);
  for (int t = 0; t < 128 && eb == 2; ++t)
    if ((t % 4) / 2 != c.sel) in.ain[t * 5 + 4] = static_cast<std::uint32_t>(rng());
  for (int m = 0; m < 64; ++m) {
    const int w = m / 16, r16 = m % 16, g = r16 % 8, hi = r16 / 8;
    for (int ch = 0; ch < K / 4; ++ch) {
      int i0 = static_cast<int>(rng() % 4), i1 = static_cast<int>(rng() % 3);
      if (i1 >= i0) ++i1;  // distinct, in either order
      if (c.bad_meta && m == 37 && ch == 5) i1 = i0;
      // (An sp-sel outside 0-1, which the run must refuse, places the metadata as its low bit would: in bounds.)
      const int meta_thread = eb == 1 ? 32 * w + 4 * g + hi + 2 * (ch / 8) : 32 * w + 4 * g + 2 * (c.sel & 1) + ch / 4;
      const int meta_bit = eb == 1 ? 4 * (ch % 8) : 16 * hi + 4 * (ch % 4);
      in.ain[meta_thread * 5 + 4] |= static_cast<std::uint32_t>(i0 | i1 << 2) << meta_bit;
      for (int j = 0; j < 2; ++j) {
        std::uint32_t bits;
        const int col = 4 * ch + (j ? i1 : i0);
        const double v = value(c.a, bits);
        if (!(c.bad_meta && m == 37 && ch == 5 && j == 1)) in.A[m * K + col] = v;
        if (!c.reg_a) {
          std::memcpy(in.img.data() + c.sa.place(eb, 0, m, 2 * ch + j), &bits, eb);
          continue;
        }
        const int t = (col / 8) % 4, reg = hi + 2 * (col / 32), byte = 2 * ((col / 4) % 2) + j;  // Figure 179
        in.ain[(32 * w + 4 * g + t) * 5 + reg] |= (bits & 0xff) << (8 * byte);
      }
    }
  }
}

// Fills A and B with the small values of kValue (exact in every type, every partial sum exact too), or random
// bytes for the integer types, placed in img by the layouts; A also in registers for reg_a.
Inputs inputs(const Case& c, std::mt19937& rng) {
  Inputs in;
  const int K = c.k(), regs = std::string(c.dtype) == "f16" ? c.n / 4 : c.n / 2;
  in.A.assign(64 * K, 0);
  in.B.assign(K * c.n, 0);
  auto value = [&](const Type& t, std::uint32_t& bits) -> double {
    if (c.b1()) return bits = rng() & 1, bits;
    if (!t.enc[2]) {
      bits = rng() & 0xff;
      return std::string(t.name) == "s8" ? static_cast<double>(static_cast<std::int8_t>(bits)) : static_cast<double>(bits);
    }
    const int v = static_cast<int>(rng() % 9) - 4;  // -4..4: index into kValue with a sign
    bits = t.enc[std::abs(v)] | (v < 0 ? 1u << (8 * t.bytes - 1) : 0);
    if (t.bytes == 4) bits |= rng() & 0x1fff;  // tf32: the low 13 bits are ignored (9.7.15.5.2)
    return v < 0 ? -kValue[-v] : kValue[v];
  };
  auto put = [&](long at, std::uint32_t bits, int eb) {
    REQUIRE(at + eb <= 16384);
    std::memcpy(in.img.data() + at, &bits, eb);
  };
  // .b1 (9.7.15.5.1.10, T = 128 elements per 16 bytes): element (mn, k) is bit k % 8 of the byte the layout gives
  // position k / 8, K-major (bit order low to high, as .b1 elements in registers)
  auto put_bit = [&](const Smem& sm, long region, int mn, int k, std::uint32_t bit) {
    const long at = sm.place(1, region, mn, k / 8);
    REQUIRE(at < 16384);
    in.img[at] |= static_cast<std::uint8_t>(bit << (k % 8));
  };
  if (c.sparse) sparse_a(c, rng, in, value);
  for (int m = 0; m < 64 && !c.sparse; ++m)
    for (int k = 0; k < K; ++k) {
      std::uint32_t bits;
      in.A[m * K + k] = value(c.a, bits);
      if (c.b1()) put_bit(c.sa, 0, m, k, bits);
      else if (!c.reg_a) put(c.sa.place(c.a.bytes, 0, m, k), bits, c.a.bytes);
      else {
        for (int t = 0; t < 128; ++t)  // find the thread and element that hold (m, k)
          for (int i = 0; i < 16 / c.a.bytes; ++i)
            if (a_elem(c.a.bytes, t, i) == std::pair<int, int>{m, k}) {
              if (in.ain.empty()) in.ain.assign(128 * 4, 0);
              const int per = 4 / c.a.bytes;
              in.ain[t * 4 + i / per] |= (c.a.bytes == 4 ? bits : bits & ((1u << 8 * c.a.bytes) - 1)) << (8 * c.a.bytes * (i % per));
            }
      }
    }
  if (in.ain.empty()) in.ain.assign(128 * 4, 0);
  for (int k = 0; k < K; ++k)
    for (int n = 0; n < c.n; ++n) {
      std::uint32_t bits;
      in.B[k * c.n + n] = value(c.b, bits);
      if (c.b1()) put_bit(c.sb, 8192, n, k, bits);
      else put(c.sb.place(c.b.bytes, 8192, n, k), bits, c.b.bytes);
    }
  in.dinit.resize(128 * regs);
  for (auto& w : in.dinit) {  // 0, +-1, +-2 in the D type
    const int v = static_cast<int>(rng() % 5) - 2;
    if (std::string(c.dtype) == "s32") w = static_cast<std::uint32_t>(c.satfinite ? 0x7fffff00 + v : v * 1000);  // near the top: saturates
    else if (std::string(c.dtype) == "f32") { float f = static_cast<float>(v); std::memcpy(&w, &f, 4); }
    else w = (kF16.enc[std::abs(v) + 1] | (v < 0 ? 0x8000u : 0)) * 0x10001u;  // two f16 of +-0.5, 1, 2
  }
  return in;
}

// The launch of a case: one warpgroup, its buffers and descriptors; `regs` D registers per thread.
Launch launch_of(const Case& c, const Inputs& in, int regs) {
  Launch l;
  l.kernel = "wg";
  l.block = {128, 1, 1};
  l.buffers = {{"out", std::vector<std::uint8_t>(3 * 128 * regs * 4)}, {"img", in.img}, {"dinit", bytes_of(in.dinit)}, {"ain", bytes_of(in.ain)}};
  auto buf = [](const char* name) { return ParamValue{name, {}, 0, {}}; };
  l.params = {buf("out"), buf("img"), buf("dinit"), buf("ain"), {"", ptx::ir::ScalarType::u64, c.sa.desc(0), {}},
              {"", ptx::ir::ScalarType::u64, c.sb.desc(8192), {}}, {"", ptx::ir::ScalarType::u32, c.scale_d ? 1u : 0u, {}}};
  return l;
}

// Runs one case and checks early == D0, mid == A*B (+ D0), out == the chained result, element by element.
void check(const Case& c, unsigned seed = 1) {
  std::mt19937 rng(seed);
  const Inputs in = inputs(c, rng);
  const int K = c.k();
  const bool f16d = std::string(c.dtype) == "f16";
  const int regs = f16d ? c.n / 4 : c.n / 2;
  if (const char* dir = std::getenv("PTXCHECK_WGMMA_PTX_DIR")) {  // for checking the kernels with ptxas by hand
    static int n = 0;
    std::ofstream(std::string(dir) + "/wgmma_" + std::to_string(n++) + ".ptx") << kernel(c);
  }
  const RunResult r = run(module_of(kernel(c), "wgmma_test.ptx"), launch_of(c, in, regs), {});
  REQUIRE_MESSAGE(r.ok(), r.problem.message);
  const auto& out = r.buffers[0].second;
  auto got = [&](int block, int t, int reg) {
    std::uint32_t w;
    std::memcpy(&w, out.data() + 4 * (block * 128 * regs + t * regs + reg), 4);
    return w;
  };
  int wrong = 0;
  for (int t = 0; t < 128; ++t)
    for (int i = 0; i < (f16d ? 2 * regs : regs); ++i) {
      const auto [m, n] = d_elem(t, i);
      const int reg = f16d ? i / 2 : i, half = f16d ? i % 2 : 0;
      double ab = 0;
      for (int k = 0; k < K; ++k) ab += (c.neg_a ? -1 : 1) * in.A[m * K + k] * (c.neg_b ? -1 : 1) * in.B[k * c.n + n];
      const double d0 = d_value(c.dtype, in.dinit[t * regs + reg], half);
      double once = (c.scale_d ? d0 : 0) + ab, twice = c.chain ? (c.scale_d ? once : 0) + ab : once;
      if (c.satfinite) once = std::clamp(once, -2147483648.0, 2147483647.0), twice = std::clamp(twice, -2147483648.0, 2147483647.0);
      else if (std::string(c.dtype) == "s32") once = static_cast<std::int32_t>(static_cast<std::int64_t>(once)), twice = static_cast<std::int32_t>(static_cast<std::int64_t>(twice));
      const double e = d_value(c.dtype, got(0, t, reg), half), mid = d_value(c.dtype, got(1, t, reg), half), o = d_value(c.dtype, got(2, t, reg), half);
      // mid: after wait_group 1, the older of two groups is complete; a single group is still pending
      const double want_mid = c.chain ? once : d0;
      if ((e != d0 || mid != want_mid || o != twice) && wrong++ < 4)
        FAIL_CHECK("thread " << t << " element " << i << " = D[" << m << "][" << n << "]: early " << e << " (D0 " << d0 << "), mid " << mid
                              << " (expected " << want_mid << "), out " << o << " (expected " << twice << ")");
    }
  CHECK(wrong == 0);
}

}  // namespace

TEST_CASE("wgmma.mma_async f16/bf16 with descriptors: K-major and MN-major, each swizzle mode, against a host GEMM") {
  for (const Type& t : {kF16, kBF16})
    for (int sw : {0, 32, 64, 128})
      for (bool trans : {false, true}) {
        Case c{t, t};
        c.n = 32;
        c.trans_a = c.trans_b = trans;
        c.sa = trans ? mnmajor(sw, 64, 2) : kmajor(sw, true, sw == 128 ? 64 : sw == 64 ? 32 : 0);
        c.sb = trans ? mnmajor(sw, c.n, 2) : kmajor(sw, false);
        CAPTURE(t.name);
        CAPTURE(sw);
        CAPTURE(trans);
        check(c);
      }
}

TEST_CASE("wgmma.mma_async: A in registers, mixed major-ness, negation, scale-d false, f16 accumulator, chained groups") {
  Case c{kF16, kF16};
  c.reg_a = true;
  c.sb = kmajor(128, false);
  SUBCASE("plain") { check(c); }
  SUBCASE("B N-major 64B, negated A") { c.trans_b = true; c.sb = mnmajor(64, c.n, 2); c.neg_a = true; check(c); }
  SUBCASE("scale-d false") { c.scale_d = false; check(c); }
  SUBCASE("f16 accumulator, n64, chained") { c.dtype = "f16"; c.n = 64; c.chain = true; check(c); }
  SUBCASE("bf16, A M-major 32B from a descriptor, B K-major, negated B, n8") {
    c = Case{kBF16, kBF16};
    c.n = 8;
    c.trans_a = true;
    c.neg_b = true;
    c.sa = mnmajor(32, 64, 2);
    c.sb = kmajor(0, false);
    check(c);
  }
  SUBCASE("chained f32 with D from the first as the second's accumulator") { c.chain = true; c.n = 24; check(c); }
}

TEST_CASE("wgmma.mma_async tf32 (k8, low 13 bits dropped), e4m3/e5m2 (k32), s8/u8 (k32, exact)") {
  SUBCASE("tf32 descriptors, 128B") { Case c{kTF32, kTF32}; c.sa = kmajor(128, true, 32); c.sb = kmajor(128, false); check(c); }
  SUBCASE("tf32 registers, no swizzle") { Case c{kTF32, kTF32}; c.reg_a = true; c.sb = kmajor(0, false); check(c); }
  SUBCASE("e4m3 x e5m2, f32") { Case c{kE4M3, kE5M2}; c.sa = kmajor(64, true); c.sb = kmajor(32, false); check(c); }
  SUBCASE("e5m2 x e4m3, f16, A in registers, negated") { Case c{kE5M2, kE4M3}; c.dtype = "f16"; c.reg_a = true; c.neg_a = true; c.sb = kmajor(128, false); check(c); }
  SUBCASE("s8 x s8, registers") { Case c{kS8, kS8}; c.dtype = "s32"; c.reg_a = true; c.sb = kmajor(128, false); check(c); }
  SUBCASE("u8 x s8, descriptors, chained") { Case c{kU8, kS8}; c.dtype = "s32"; c.chain = true; c.n = 48; c.sa = kmajor(0, true); c.sb = kmajor(64, false); check(c); }
  SUBCASE("u8 x u8 .satfinite") { Case c{kU8, kU8}; c.dtype = "s32"; c.satfinite = true; c.sa = kmajor(32, true); c.sb = kmajor(32, false); check(c); }
}

// .b1 reads 32 bytes of each row of A and column of B (the canonical layouts in bytes, as for 8-bit K = 32). The
// order of the bits within a byte is not pinned by this test: D is invariant under one permutation of k applied to
// both A and B, and both are read alike.
TEST_CASE("wgmma.mma_async .b1 (9.7.15.5.2): m64nNk256 .and.popc, descriptors in each swizzle mode, chained") {
  const Type b1{"b1", 1, {}};
  for (int sw : {0, 32, 64, 128})
    for (int n : {8, 48}) {
      Case c{b1, b1};
      c.dtype = "s32";
      c.n = n;
      c.chain = n == 48;
      c.sa = kmajor(sw, true, sw == 128 ? 64 : sw == 64 ? 32 : 0);
      c.sb = kmajor(sw, false);
      CAPTURE(sw);
      CAPTURE(n);
      check(c, 70 + sw + n);
    }
}

TEST_CASE("wgmma.mma_async.sp m64nNk64 (9.7.15.6.2.3): 8-bit A in registers, sparse, against a host GEMM") {
  // B's 64 bytes of K a row fit a 128B or 64B swizzle row (K-major); the unswizzled and 32B test layouts hold 32.
  SUBCASE("e4m3 x e5m2, f32 D, negated A") { Case c{kE4M3, kE5M2}; c.sparse = c.reg_a = true; c.neg_a = true; c.sb = kmajor(64, false); check(c); }
  SUBCASE("e5m2 x e4m3, f16 D, N = 64") { Case c{kE5M2, kE4M3}; c.sparse = c.reg_a = true; c.dtype = "f16"; c.n = 64; c.sb = kmajor(128, false); check(c, 2); }
  SUBCASE("s8 x u8, chained") { Case c{kS8, kU8}; c.sparse = c.reg_a = true; c.dtype = "s32"; c.chain = true; c.sb = kmajor(128, false); check(c, 3); }
  SUBCASE("u8 x u8, .satfinite") { Case c{kU8, kU8}; c.sparse = c.reg_a = true; c.dtype = "s32"; c.satfinite = true; c.sb = kmajor(64, false); check(c, 4); }
}

TEST_CASE("wgmma.mma_async.sp with A from a descriptor (9.7.15.6): .f16/.bf16 m64nNk32, 8-bit m64nNk64") {
  // A is the compressed 64 x K/2 matrix, in the canonical layouts of 9.7.15.5.1.6 ("wgmma.mma_async{.sp}"); B's
  // K of 64 bytes a row fits a 128B or 64B swizzle row K-major, or any N-major layout here.
  SUBCASE("f16, f32 D, A K-major 128B, sp-sel 0") { Case c{kF16, kF16}; c.sparse = true; c.sa = kmajor(128, true, 64); c.sb = kmajor(128, false); check(c); }
  SUBCASE("bf16, sp-sel 1, A M-major 64B, B N-major 32B, negated B") {
    Case c{kBF16, kBF16};
    c.sparse = true, c.sel = 1, c.trans_a = c.trans_b = true, c.neg_b = true;
    c.sa = mnmajor(64, 64, 2);
    c.sb = mnmajor(32, c.n, 2);
    check(c, 2);
  }
  SUBCASE("f16 D, N = 64, chained, sp-sel 1, A K-major unswizzled, negated A") {
    Case c{kF16, kF16};
    c.sparse = true, c.sel = 1, c.dtype = "f16", c.n = 64, c.chain = true, c.neg_a = true;
    c.sa = kmajor(0, true);
    c.sb = kmajor(64, false);
    check(c, 3);
  }
  SUBCASE("e4m3 x e5m2, f32 D, A K-major 64B") { Case c{kE4M3, kE5M2}; c.sparse = true; c.sa = kmajor(64, true); c.sb = kmajor(128, false); check(c, 4); }
  SUBCASE("s8 x u8 .satfinite, A K-major 32B") { Case c{kS8, kU8}; c.sparse = true; c.dtype = "s32"; c.satfinite = true; c.sa = kmajor(32, true); c.sb = kmajor(64, false); check(c, 5); }
}

TEST_CASE("wgmma.mma_async.sp .f16: an sp-sel other than 0-1 and a metadata nibble naming one position twice are undefined") {
  // 9.7.15.6.1: "the sparsity selector must be either 0 (threads T0, T1) or 1 (threads T2, T3); any other value
  // results in an undefined behavior"; "Values 0b0000, 0b0101, 0b1010, 0b1111 are invalid values for metadata".
  auto problem = [](const Case& c) {
    std::mt19937 rng(1);
    const Inputs in = inputs(c, rng);
    return run(module_of(kernel(c), "wgmma_test.ptx"), launch_of(c, in, c.n / 2), {}).problem;
  };
  Case c{kF16, kF16};
  c.sparse = true, c.sa = kmajor(128, true, 64), c.sb = kmajor(128, false);
  c.sel = 2;
  const Problem sel = problem(c);
  CHECK(sel.kind == Problem::Kind::illegal);
  CHECK(sel.message.find("sp-sel 2") != std::string::npos);
  c.sel = 0, c.bad_meta = true;
  const Problem meta = problem(c);
  CHECK(meta.kind == Problem::Kind::illegal);
  CHECK(meta.message.find("names one position twice") != std::string::npos);
}

TEST_CASE("instruction_supported: the wgmma forms the interpreter runs, and those it refuses by name") {
  auto supported = [](const std::string& line, const std::string& regs) {
    const std::string text = ".version 8.4\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n" + regs + "\n" + line + "\nret;\n}\n";
    const auto loaded = ptx::ir::load_ptx(text, "forms.ptx");
    for (const auto& e : loaded.errors) FAIL(e.render());
    REQUIRE(loaded);
    return instruction_supported(loaded.module->functions[0].body[0]);
  };
  const std::string regs = ".reg .f32 %f<9>;\n.reg .b32 %r<9>;\n.reg .b64 %rd<3>;\n.reg .pred %p1;";
  CHECK(supported("wgmma.fence.sync.aligned;", regs));
  CHECK(supported("wgmma.commit_group.sync.aligned;", regs));
  CHECK(supported("wgmma.wait_group.sync.aligned 1;", regs));
  CHECK(supported("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd1, %rd2, %p1, 1, 1, 0, 0;", regs));
  CHECK(supported("wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.u8.satfinite {%r1, %r2, %r3, %r4}, %rd1, %rd2, %p1;", regs));
  // 9.7.15.6 sparse: the 8-bit m64nNk64 forms with A in registers or a descriptor and .f16/.bf16 with A from a
  // descriptor run; .f16/.bf16 A in registers and .tf32 (A's register fragments are images in the text, the .tf32
  // metadata figure is garbled) do not
  CHECK(supported("wgmma.mma_async.sp.sync.aligned.m64n8k64.f32.e4m3.e5m2 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, %rd2, %r5, 0, %p1, 1, 1;", regs));
  CHECK(supported("wgmma.mma_async.sp.sync.aligned.m64n8k64.s32.u8.s8 {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, %rd2, %r1, 0, %p1;", regs));
  CHECK(supported("wgmma.mma_async.sp.sync.aligned.m64n8k64.s32.u8.s8 {%r1, %r2, %r3, %r4}, %rd1, %rd2, %r1, 0, %p1;", regs));
  CHECK(supported("wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd1, %rd2, %r1, 0, %p1, 1, 1, 0, 0;", regs));
  CHECK(supported("wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.bf16.bf16 {%f1, %f2, %f3, %f4}, %rd1, %rd2, %r1, 1, %p1, 1, 1, 1, 1;", regs));
  CHECK_FALSE(supported("wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, %rd2, %r5, 0, %p1, 1, 1, 0;", regs));
  CHECK_FALSE(supported("wgmma.mma_async.sp.sync.aligned.m64n8k16.f32.tf32.tf32 {%f1, %f2, %f3, %f4}, %rd1, %rd2, %r1, 0, %p1, 1, 1;", regs));
  auto why = [&](const std::string& line) {
    const auto loaded = ptx::ir::load_ptx(".version 8.4\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n" + regs + "\n" + line + "\nret;\n}\n", "forms.ptx");
    REQUIRE(loaded);
    return instruction_unsupported_reason(loaded.module->functions[0].body[0]);
  };
  CHECK(why("wgmma.mma_async.sp.sync.aligned.m64n8k16.f32.tf32.tf32 {%f1, %f2, %f3, %f4}, %rd1, %rd2, %r1, 0, %p1, 1, 1;").find("Figure 178") != std::string::npos);
  CHECK(why("wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, %rd2, %r5, 0, %p1, 1, 1, 0;").find("Figure 175") != std::string::npos);
  CHECK(supported("wgmma.mma_async.sync.aligned.m64n8k256.s32.b1.b1.and.popc {%r1, %r2, %r3, %r4}, %rd1, %rd2, %p1;", regs));
  // .b1 with A in registers: Figure 154 is an image
  CHECK_FALSE(supported("wgmma.mma_async.sync.aligned.m64n8k256.s32.b1.b1.and.popc {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, %rd2, %p1;", regs));
  // a D vector of the wrong length for n8 (.f32: N/2 = 4 registers)
  CHECK_FALSE(supported("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4, %f5, %f6}, %rd1, %rd2, %p1, 1, 1, 0, 0;", regs));
}

// The dynamic race checker on the same kernel (docs/race/async-proxy.md): every thread stores its part of A and B,
// bar.sync, then fence.proxy.async.shared::cta in every thread; the wgmma reads them in the async proxy
// (9.7.15.5.2). Race free; without the proxy fence each store races with the warpgroup's read (8.9.5).
TEST_CASE("race checker: wgmma operands written by the threads need fence.proxy.async before the wgmma") {
  Case c{kF16, kF16};
  c.sa = kmajor(128, true, 64);
  c.sb = kmajor(128, false);
  std::mt19937 rng(1);
  const Inputs in = inputs(c, rng);
  const int regs = c.n / 2;
  std::string text = kernel(c);
  const auto fenced = ptxcheck::race::check_execution(module_of(text, "wgmma_test.ptx"), launch_of(c, in, regs), {});
  REQUIRE_MESSAGE(fenced.run.ok(), fenced.run.problem.message);
  CHECK(fenced.races.empty());
  CHECK(fenced.accesses > 128 * 32);
  const std::string fence = "  fence.proxy.async.shared::cta;\n";
  REQUIRE(text.find(fence) != std::string::npos);
  text.erase(text.find(fence), fence.size());
  const auto unfenced = ptxcheck::race::check_execution(module_of(text, "wgmma_test.ptx"), launch_of(c, in, regs), {});
  REQUIRE(unfenced.run.ok());
  REQUIRE(!unfenced.races.empty());
  const auto& race = unfenced.races[0];
  CHECK((race.first.opcode.rfind("st.shared", 0) == 0 || race.second.opcode.rfind("st.shared", 0) == 0));
  CHECK((race.first.opcode.rfind("wgmma.mma_async", 0) == 0 || race.second.opcode.rfind("wgmma.mma_async", 0) == 0));
  CHECK(race.note.find("fence.proxy.async") != std::string::npos);
}
