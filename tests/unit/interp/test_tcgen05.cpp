// tcgen05 (PTX ISA 9.0 9.7.16) in the interpreter. One CTA of four warps: warp 0 allocates Tensor Memory, each warp
// writes its 32 lanes of D with tcgen05.st, thread 0 issues tcgen05.mma on shared-memory matrices placed by
// hand-built descriptors and commits it to an mbarrier, and after the wait each warp reads its lanes back with
// tcgen05.ld. Independent expectations: a host triple loop over the values placed (the canonical layouts of
// 9.7.16.3.3, evaluated by matrix_layouts.hpp and checked there against the spec's figures), the instruction
// descriptor built from Table 44's bit positions, D row m in Tensor Memory lane m (Layout A's text, 9.7.16.10.5.1).
#include "checker/race/dynamic.hpp"
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
using namespace matrix_test;

namespace {
// The shared-memory image: A from byte 0 (128 rows of a 128-byte swizzle take 16 KB), B from kRegionB.
constexpr long kImage = 32768, kRegionB = 20480;

// A K-major A of 128 rows: as kmajor(), with the no-swizzle LBO past the 16 row groups SBO apart.
Smem kmajor_a(int swizzle, long start = 0) { return swizzle ? kmajor(swizzle, true, start) : Smem{0, false, 2048, 128, start}; }

struct Case {
  Case(Type ta, Type tb) : a(ta), b(tb) {}
  Type a, b;
  const char* dtype = "f32";
  int n = 32, scale = -1;  // scale-input-d, -1: absent
  bool trans_a = false, trans_b = false, enable_d = true, neg_a = false, neg_b = false, saturate = false;
  bool pair = false;  // .cta_group::2: a cluster of 2 CTAs, M = 256, each CTA 128 rows of A and D, N/2 columns of B
  bool early = false;  // each warp also reads D with tcgen05.ld right after the MMA's issue, before the mbarrier wait
  bool a_tmem = false;  // A in Tensor Memory ([a-tmem], .kind::tf32): row m at lane m, element k at column n + k
  std::string mma;      // the MMA lines, when not the default one (check: D = D0 + repeat * A * B)
  int repeat = 1;
  std::uint32_t disabled = 0;  // disable-output-lane words 0 and 3 (lanes 0-31 and 96-127)
  Smem sa, sb;
  const char* kind() const {
    const std::string t = a.name;
    return t == "f16" || t == "bf16" ? "kind::f16" : t == "tf32" ? "kind::tf32" : t == "s8" || t == "u8" ? "kind::i8" : "kind::f8f6f4";
  }
  int k() const { return 32 / a.bytes; }
  int ctas() const { return pair ? 2 : 1; }
  int rows() const { return 128 * ctas(); }
  int columns() const { return std::max(32, 1 << static_cast<int>(std::ceil(std::log2(n + (a_tmem ? k() : 0))))); }
};

// Table 44's encoding of a type for a kind (atype/btype bits 7-9 / 10-12, dtype bits 4-5).
unsigned type_code(const Type& t) {
  const std::string s = t.name;
  if (s == "f16" || s == "e4m3" || s == "u8") return 0;
  if (s == "bf16" || s == "e5m2" || s == "s8") return 1;
  return 2;  // tf32
}
std::uint32_t instr_descriptor(const Case& c, int m) {
  const std::string d = c.dtype;
  const unsigned dtype = d == "f16" ? 0 : d == "f32" ? 1 : 2;
  return (c.saturate ? 1u << 3 : 0) | dtype << 4 | type_code(c.a) << 7 | type_code(c.b) << 10 | (c.neg_a ? 1u << 13 : 0) |
         (c.neg_b ? 1u << 14 : 0) | (c.trans_a ? 1u << 15 : 0) | (c.trans_b ? 1u << 16 : 0) | static_cast<unsigned>(c.n >> 3) << 17 |
         static_cast<unsigned>(m >> 4) << 24;
}

// tcgen05.st (or ld) of registers %d0..%d(n-1) to (from) columns 0..n-1 of the warp's lanes at %r11, in .32x32b
// accesses of a power of two each (Table 49's .num), the largest first.
std::string chunks(int n, bool store) {
  std::string s;
  for (int first = 0, size = 128; first < n; size /= 2) {
    if (first + size > n) continue;
    std::string regs = "{";
    for (int i = first; i < first + size; ++i) regs += (i > first ? ", %d" : "%d") + std::to_string(i);
    regs += "}";
    const std::string at = "[%r11+" + std::to_string(first) + "]", shape = ".32x32b.x" + std::to_string(size) + ".b32 ";
    s += store ? "  tcgen05.st.sync.aligned" + shape + at + ", " + regs + ";\n" : "  tcgen05.ld.sync.aligned" + shape + regs + ", " + at + ";\n";
    first += size;
  }
  return s;
}

// The kernel (see the file comment). `mma` replaces the tcgen05.mma line when given (error tests).
std::string kernel(const Case& c, const std::string& mma = "") {
  const int n = c.n, cols = c.columns();
  const std::string group = c.pair ? "cta_group::2" : "cta_group::1";
  // with a pair, CTA r's image, D and output start r blocks in: %rd15 = %ctaid.x * block bytes
  const std::string cta_block = "  mov.u32 %r18, %ctaid.x;\n  mul.wide.u32 %rd15, %r18, ";
  std::string s = ".version 8.7\n.target sm_100a\n.address_size 64\n"
                  ".visible .entry tc(.param .u64 out, .param .u64 img, .param .u64 dinit, .param .u64 adesc, .param .u64 bdesc, "
                  ".param .u32 idesc, .param .u32 enable, .param .u32 dis)\n{\n"
                  "  .reg .pred %p<4>;\n  .reg .b16 %rs<2>;\n  .reg .b32 %r<24>;\n  .reg .b64 %rd<16>;\n  .reg .b32 %d<130>;\n"
                  "  .shared .align 1024 .b8 smem[32768];\n  .shared .align 8 .b64 mbar;\n  .shared .align 4 .b32 slot;\n"
                  "  mov.u32 %r1, %tid.x;\n  ld.param.u64 %rd1, [img];\n  cvta.to.global.u64 %rd1, %rd1;\n" + cta_block + std::to_string(kImage) +
                  ";\n  add.u64 %rd1, %rd1, %rd15;\n  mov.u32 %r2, 0;\n"
                  "LOOP:\n  mad.lo.u32 %r3, %r2, 128, %r1;\n  shl.b32 %r4, %r3, 2;\n  cvt.u64.u32 %rd2, %r4;\n  add.u64 %rd3, %rd1, %rd2;\n"
                  "  ld.global.u32 %r5, [%rd3];\n  mov.u32 %r6, smem;\n  add.u32 %r6, %r6, %r4;\n  st.shared.u32 [%r6], %r5;\n"
                  "  add.u32 %r2, %r2, 1;\n  setp.lt.u32 %p1, %r2, 64;\n  @%p1 bra LOOP;\n"
                  "  shr.u32 %r13, %r1, 5;\n  setp.ne.u32 %p3, %r13, 0;\n  @%p3 bra ALLOCATED;\n"
                  "  tcgen05.alloc." + group + ".sync.aligned.shared::cta.b32 [slot], " + std::to_string(cols) + ";\n"
                  "  setp.ne.u32 %p3, %r1, 0;\n  @%p3 bra ALLOCATED;\n  mbarrier.init.shared.b64 [mbar], 1;\n"
                  "ALLOCATED:\n  bar.sync 0;\n  tcgen05.fence::after_thread_sync;\n  ld.shared.b32 %r10, [slot];\n"
                  "  shl.b32 %r14, %r13, 21;\n  add.u32 %r11, %r10, %r14;\n"  // lane 32 * warp: (32 w) << 16
                  "  ld.param.u64 %rd4, [dinit];\n  cvta.to.global.u64 %rd4, %rd4;\n  mul.wide.u32 %rd5, %r1, " + std::to_string(4 * n) + ";\n" +
                  cta_block + std::to_string(128 * 4 * n) + ";\n  add.u64 %rd5, %rd5, %rd15;\n  add.u64 %rd6, %rd4, %rd5;\n";
  for (int i = 0; i < n; ++i) s += "  ld.global.b32 %d" + std::to_string(i) + ", [%rd6+" + std::to_string(4 * i) + "];\n";
  if (c.a_tmem) {  // thread t of CTA r stores row 128r + t of A (its bits after every D word in dinit) at column n
    s += "  .reg .b32 %q<8>;\n  mov.u32 %r20, %ctaid.x;\n  mad.lo.u32 %r20, %r20, 128, %r1;\n  mul.wide.u32 %rd7, %r20, " +
         std::to_string(4 * c.k()) + ";\n  add.u64 %rd7, %rd7, " + std::to_string(4 * c.rows() * n) + ";\n  add.u64 %rd7, %rd4, %rd7;\n";
    std::string regs;
    for (int k = 0; k < c.k(); ++k) {
      s += "  ld.global.b32 %q" + std::to_string(k) + ", [%rd7+" + std::to_string(4 * k) + "];\n";
      regs += (k ? ", %q" : "%q") + std::to_string(k);
    }
    s += "  tcgen05.st.sync.aligned.32x32b.x" + std::to_string(c.k()) + ".b32 [%r11+" + std::to_string(n) + "], {" + regs + "};\n";
  }
  s += chunks(n, true) + "  tcgen05.wait::st.sync.aligned;\n"
       "  tcgen05.fence::before_thread_sync;\n  bar.sync 0;\n" +
       std::string(c.pair ? "  barrier.cluster.arrive.release.aligned;\n  barrier.cluster.wait.acquire.aligned;\n" : "") +
       "  tcgen05.fence::after_thread_sync;\n  mov.u32 %r19, %cluster_ctarank;\n  or.b32 %r19, %r19, %r1;\n"
       "  setp.ne.u32 %p3, %r19, 0;\n  @%p3 bra ISSUED;\n"
       "  ld.param.u64 %rd9, [adesc];\n  ld.param.u64 %rd10, [bdesc];\n  mov.u64 %rd11, smem;\n  shr.u64 %rd11, %rd11, 4;\n"
       "  add.u64 %rd9, %rd9, %rd11;\n  add.u64 %rd10, %rd10, %rd11;\n  ld.param.u32 %r12, [idesc];\n  ld.param.u32 %r7, [enable];\n"
       "  setp.ne.u32 %p2, %r7, 0;\n  ld.param.u32 %r15, [dis];\n  mov.u32 %r16, 0;\n";
  const std::string lanes = c.pair ? "{%r15, %r16, %r16, %r15, %r15, %r16, %r16, %r15}" : "{%r15, %r16, %r16, %r15}";
  if (c.a_tmem) s += "  add.u32 %r21, %r10, " + std::to_string(n) + ";\n";
  s += mma.empty() ? "  tcgen05.mma." + group + "." + c.kind() + " [%r10], " + (c.a_tmem ? "[%r21]" : "%rd9") + ", %rd10, %r12, " + lanes + ", %p2" +
                         (c.scale >= 0 ? ", " + std::to_string(c.scale) : "") + ";\n"
                   : mma + "\n";
  s += c.pair ? "  mov.b16 %rs1, 3;\n  tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [mbar], %rs1;\n"
              : "  tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [mbar];\n";
  s += "ISSUED:\n";
  if (c.early) {  // D before the wait, stored after the rows of the final D
    s += chunks(n, false) + "  tcgen05.wait::ld.sync.aligned;\n  ld.param.u64 %rd12, [out];\n  cvta.to.global.u64 %rd12, %rd12;\n"
         "  add.u64 %rd6, %rd12, %rd5;\n";
    for (int i = 0; i < n; ++i) s += "  st.global.b32 [%rd6+" + std::to_string(4 * (c.rows() * n + i)) + "], %d" + std::to_string(i) + ";\n";
  }
  s += std::string("WAIT:\n  mbarrier.try_wait.parity.shared.b64 %p1, [mbar], 0;\n  @!%p1 bra WAIT;\n  tcgen05.fence::after_thread_sync;\n") +
       chunks(n, false) + "  tcgen05.wait::ld.sync.aligned;\n"
       "  ld.param.u64 %rd12, [out];\n  cvta.to.global.u64 %rd12, %rd12;\n  add.u64 %rd6, %rd12, %rd5;\n";
  for (int i = 0; i < n; ++i) s += "  st.global.b32 [%rd6+" + std::to_string(4 * i) + "], %d" + std::to_string(i) + ";\n";
  s += "  tcgen05.fence::before_thread_sync;\n  bar.sync 0;\n" +
       std::string(c.pair ? "  barrier.cluster.arrive.release.aligned;\n  barrier.cluster.wait.acquire.aligned;\n" : "") +
       "  setp.ne.u32 %p3, %r13, 0;\n  @%p3 bra DONE;\n"
       "  tcgen05.dealloc." + group + ".sync.aligned.b32 %r10, " + std::to_string(cols) + ";\n"
       "  tcgen05.relinquish_alloc_permit." + group + ".sync.aligned;\nDONE:\n  ret;\n}\n";
  return s;
}

struct Inputs {
  std::vector<std::uint8_t> img;  // each CTA's kImage bytes
  std::vector<std::uint32_t> dinit;
  std::vector<double> A, B;  // rows x K, K x N, as values (negation applied on use)
  std::vector<std::uint32_t> abits;  // A's encodings, rows x K (for A in Tensor Memory)
};

// Small values of kValue (exact in every type, every partial sum exact too), or random bytes for the integer types.
Inputs inputs(const Case& c, std::mt19937& rng) {
  Inputs in;
  const int K = c.k(), half = c.n / c.ctas();  // with a pair, CTA r holds rows 128r.. of A and columns half*r.. of B
  in.img.assign(kImage * c.ctas(), 0);
  in.A.assign(c.rows() * K, 0);
  in.B.assign(K * c.n, 0);
  auto value = [&](const Type& t, std::uint32_t& bits) -> double {
    if (!t.enc[2]) {
      bits = rng() & 0xff;
      return std::string(t.name) == "s8" ? static_cast<double>(static_cast<std::int8_t>(bits)) : static_cast<double>(bits);
    }
    const int v = static_cast<int>(rng() % 9) - 4;
    bits = t.enc[std::abs(v)] | (v < 0 ? 1u << (8 * t.bytes - 1) : 0);
    if (t.bytes == 4) bits |= rng() & 0x1fff;  // tf32: the low 13 bits are not part of the value
    return v < 0 ? -kValue[-v] : kValue[v];
  };
  auto put = [&](int cta, long at, std::uint32_t bits, int eb) {
    REQUIRE(at + eb <= kImage);
    std::memcpy(in.img.data() + cta * kImage + at, &bits, eb);
  };
  for (int m = 0; m < c.rows(); ++m)
    for (int k = 0; k < K; ++k) {
      std::uint32_t bits;
      in.A[m * K + k] = value(c.a, bits);
      in.abits.push_back(bits);
      if (!c.a_tmem) put(m / 128, c.sa.place(c.a.bytes, 0, m % 128, k), bits, c.a.bytes);
    }
  for (int k = 0; k < K; ++k)
    for (int n = 0; n < c.n; ++n) {
      std::uint32_t bits;
      in.B[k * c.n + n] = value(c.b, bits);
      put(n / half, c.sb.place(c.b.bytes, kRegionB, n % half, k), bits, c.b.bytes);
    }
  in.dinit.resize(c.rows() * c.n);
  for (auto& w : in.dinit) {  // 0, +-1, +-2 in the D type; f16 in the low half of the cell (9.7.16.10.4.1)
    const int v = static_cast<int>(rng() % 5) - 2;
    if (std::string(c.dtype) == "s32") w = static_cast<std::uint32_t>(c.saturate ? 0x7fffff00 + v : v * 1000);
    else if (std::string(c.dtype) == "f32") { float f = static_cast<float>(v); std::memcpy(&w, &f, 4); }
    else w = kF16.enc[std::abs(v) + 1] | (v < 0 ? 0x8000u : 0);
  }
  return in;
}

// Runs the kernel on a case's inputs: the result, the inputs, and out (thread t's registers at t * n).
struct Ran {
  RunResult r;
  Inputs in;
};
// The launch of a case: one CTA (a cluster of two with a pair), its buffers and descriptor parameters.
Launch launch_of(const Case& c, const Inputs& in, int m) {
  Launch l;
  l.kernel = "tc";
  l.block = {128, 1, 1};
  if (c.pair) l.grid = {2, 1, 1}, l.cluster = std::array<std::uint32_t, 3>{2, 1, 1};
  std::vector<std::uint32_t> dinit = in.dinit;  // with A in Tensor Memory, A's rows follow D's
  if (c.a_tmem) dinit.insert(dinit.end(), in.abits.begin(), in.abits.end());
  l.buffers = {{"out", std::vector<std::uint8_t>(c.rows() * c.n * 4 * (c.early ? 2 : 1))}, {"img", in.img}, {"dinit", bytes_of(dinit)}};
  auto buf = [](const char* name) { return ParamValue{name, {}, 0, {}}; };
  using ptx::ir::ScalarType;
  l.params = {buf("out"), buf("img"), buf("dinit"), {"", ScalarType::u64, c.sa.tcgen05_desc(0), {}}, {"", ScalarType::u64, c.sb.tcgen05_desc(kRegionB), {}},
              {"", ScalarType::u32, instr_descriptor(c, m ? m : c.rows()), {}}, {"", ScalarType::u32, c.enable_d ? 1u : 0u, {}}, {"", ScalarType::u32, c.disabled, {}}};
  return l;
}

Ran run_case(const Case& c, const std::string& mma = "", int m = 0, unsigned seed = 1) {
  std::mt19937 rng(seed);
  Ran ran{{}, inputs(c, rng)};
  const ptx::ir::Module& module = module_of(kernel(c, mma), "tcgen05_test.ptx");
  ran.r = run(module, launch_of(c, ran.in, m), {});
  return ran;
}

// Runs one case and checks every D element thread t read back: row t of A * B (+ D * 2^scale), or D where the
// lane's output is disabled.
void check(const Case& c) {
  const Ran ran = run_case(c, c.mma);
  REQUIRE_MESSAGE(ran.r.ok(), ran.r.problem.message);
  const auto& out = ran.r.buffers[0].second;
  const int K = c.k();
  int wrong = 0;
  for (int m = 0; m < c.rows(); ++m)
    for (int n = 0; n < c.n; ++n) {
      std::uint32_t w;
      std::memcpy(&w, out.data() + 4 * (m * c.n + n), 4);
      const double d0 = d_value(c.dtype, ran.in.dinit[m * c.n + n], 0);
      double want = c.enable_d ? std::ldexp(d0, std::max(c.scale, 0)) : 0;
      for (int k = 0; k < K; ++k) want += c.repeat * (c.neg_a ? -1 : 1) * ran.in.A[m * K + k] * (c.neg_b ? -1 : 1) * ran.in.B[k * c.n + n];
      if (std::string(c.dtype) == "s32")
        want = c.saturate ? std::clamp(want, -2147483648.0, 2147483647.0) : static_cast<std::int32_t>(static_cast<std::int64_t>(want));
      if (((c.disabled >> (m % 32)) & 1) && (m % 128 < 32 || m % 128 >= 96)) want = d0;
      const double got = d_value(c.dtype, w, 0);
      if (got != want && wrong++ < 4) FAIL_CHECK("D[" << m << "][" << n << "] = " << got << ", expected " << want);
    }
  CHECK(wrong == 0);
}
}  // namespace

TEST_CASE("tcgen05.mma .kind::f16: K-major and MN-major, each swizzle mode, against a host GEMM (M = 128)") {
  for (const Type& t : {kF16, kBF16})
    for (int sw : {0, 32, 64, 128})
      for (bool trans : {false, true}) {
        Case c{t, t};
        c.trans_a = c.trans_b = trans;
        c.sa = trans ? mnmajor(sw, 128, 2) : kmajor_a(sw, sw == 128 ? 64 : sw == 64 ? 32 : 0);
        c.sb = trans ? mnmajor(sw, c.n, 2) : kmajor(sw, false);
        CAPTURE(t.name);
        CAPTURE(sw);
        CAPTURE(trans);
        check(c);
      }
}

TEST_CASE("tcgen05.mma: enable-input-d, scale-input-d, negation, f16 D, disable-output-lane, N from 8 to 128") {
  Case c{kF16, kF16};
  c.sa = kmajor_a(128);
  c.sb = kmajor(128, false);
  SUBCASE("enable-input-d false: D = A * B") { c.enable_d = false; check(c); }
  SUBCASE("scale-input-d 3: D = A * B + D * 2^3") { c.scale = 3; check(c); }
  SUBCASE("negate A and B") { c.neg_a = c.neg_b = true; check(c); }
  SUBCASE("f16 D, one element per cell's low half") { c.dtype = "f16"; check(c); }
  SUBCASE("lanes 0, 5, 31 and 96, 101, 127 keep D") { c.disabled = 1u | 1u << 5 | 1u << 31; check(c); }
  SUBCASE("N = 8") { c.n = 8; check(c); }
  SUBCASE("N = 128, 128 columns read by .32x32b.x128") { c.n = 128; c.sb = kmajor(0, false); check(c); }
}

TEST_CASE("tcgen05.mma .kind::tf32 (low 13 bits dropped), f8f6f4 with e4m3/e5m2, i8 exact, wrapping or saturating") {
  SUBCASE("tf32, 128B") { Case c{kTF32, kTF32}; c.sa = kmajor_a(128, 32); c.sb = kmajor(128, false); check(c); }
  SUBCASE("e4m3 x e5m2, f32 D") { Case c{kE4M3, kE5M2}; c.sa = kmajor_a(64); c.sb = kmajor(32, false); check(c); }
  SUBCASE("e5m2 x e4m3, f16 D, negated A") { Case c{kE5M2, kE4M3}; c.dtype = "f16"; c.neg_a = true; c.sa = kmajor_a(0); c.sb = kmajor(128, false); check(c); }
  SUBCASE("s8 x s8, wrapping") { Case c{kS8, kS8}; c.dtype = "s32"; c.sa = kmajor_a(128); c.sb = kmajor(128, false); check(c); }
  SUBCASE("u8 x s8, N = 48") { Case c{kU8, kS8}; c.dtype = "s32"; c.n = 48; c.sa = kmajor_a(0); c.sb = kmajor(64, false); check(c); }
  SUBCASE("u8 x u8, saturating (bit 3)") { Case c{kU8, kU8}; c.dtype = "s32"; c.saturate = true; c.sa = kmajor_a(32); c.sb = kmajor(32, false); check(c); }
  // A in Tensor Memory (9.7.16.10.9.1 [a-tmem]): each thread stores its row of A with tcgen05.st at column n
  SUBCASE("tf32, A in Tensor Memory, negated, N = 64") { Case c{kTF32, kTF32}; c.a_tmem = true; c.neg_a = true; c.n = 64; c.sb = kmajor(128, false); check(c); }
  // 9.7.16.10.1: tf32 transposes only with the 128B swizzle of 32B atomicity (mode 1; Table 55, ISA 5.5.7's table)
  SUBCASE("tf32, A and B MN-major, mode 1") { Case c{kTF32, kTF32}; c.trans_a = c.trans_b = true; c.sa = mnmajor_atom32(128, 4); c.sb = mnmajor_atom32(c.n, 4); check(c); }
  SUBCASE("tf32, B MN-major in mode 1, N = 64") { Case c{kTF32, kTF32}; c.n = 64; c.trans_b = true; c.sa = kmajor_a(128, 32); c.sb = mnmajor_atom32(64, 4); check(c); }
  SUBCASE("tf32, A in Tensor Memory, .cta_group::2 (M = 256)") { Case c{kTF32, kTF32}; c.a_tmem = true; c.pair = true; c.sb = kmajor(64, false); check(c); }
}

TEST_CASE("tcgen05.mma.ws (9.7.16.10.9.3): M = 128 as Layout D, collector buffers fill/use/lastuse/discard") {
  const std::string ws = "  tcgen05.mma.ws.cta_group::1.kind::f16";
  const std::string ops = " [%r10], %rd9, %rd10, %r12, %p2;\n";
  SUBCASE("default .collector::b0::discard, N = 64") {
    Case c{kF16, kF16}; c.n = 64; c.sa = kmajor_a(128); c.sb = kmajor(128, false); c.mma = ws + ops; check(c);
  }
  SUBCASE("fill b2, then use and lastuse: D = D0 + 3 A B (N = 128, bf16, i8 below)") {
    Case c{kBF16, kBF16}; c.n = 128; c.sa = kmajor_a(64); c.sb = kmajor(64, false); c.repeat = 3;
    c.mma = ws + ".collector::b2::fill" + ops + ws + ".collector::b2::use" + ops + ws + ".collector::b2::lastuse" + ops;
    check(c);
  }
  SUBCASE("tf32 with A in Tensor Memory, N = 64") {
    Case c{kTF32, kTF32}; c.a_tmem = true; c.n = 64; c.sb = kmajor(128, false);
    c.mma = "  tcgen05.mma.ws.cta_group::1.kind::tf32.collector::b0::fill [%r10], [%r21], %rd10, %r12, %p2;\n";
    check(c);
  }
  SUBCASE("i8, fill then use") {
    Case c{kS8, kU8}; c.dtype = "s32"; c.n = 64; c.sa = kmajor_a(128); c.sb = kmajor(128, false); c.repeat = 2;
    c.mma = "  tcgen05.mma.ws.cta_group::1.kind::i8.collector::b1::fill" + ops + "  tcgen05.mma.ws.cta_group::1.kind::i8.collector::b1::use" + ops;
    check(c);
  }
  Case c{kF16, kF16};
  c.n = 64;
  c.sa = kmajor_a(128);
  c.sb = kmajor(128, false);
  auto problem = [](const Ran& ran) { return ran.r.ok() ? std::string("ran") : ran.r.problem.message; };
  // ::use needs a valid fill: none, or one ended by ::lastuse / ::discard
  const Ran unfilled = run_case(c, ws + ".collector::b3::use" + ops);
  CHECK(unfilled.r.problem.kind == Problem::Kind::illegal);
  CHECK(problem(unfilled).find("fill") != std::string::npos);
  const Ran ended = run_case(c, ws + ".collector::b0::fill" + ops + ws + ".collector::b0::lastuse" + ops + ws + ".collector::b0::use" + ops);
  CHECK(ended.r.problem.kind == Problem::Kind::illegal);
  // a B other than the one filled (B "can be read from the collector buffer": either may be used): refused
  const Ran other = run_case(c, ws + ".collector::b1::fill" + ops + "  add.u64 %rd10, %rd10, 1;\n" + ws + ".collector::b1::use" + ops);
  CHECK(other.r.problem.kind == Problem::Kind::unsupported);
  CHECK(problem(other).find("changed") != std::string::npos);
  // N = 32 is no .ws shape; M = 64 (Layout E) is not modelled
  Case narrow = c;
  narrow.n = 32;
  CHECK(run_case(narrow, ws + ops).r.problem.kind == Problem::Kind::illegal);
  CHECK(run_case(c, ws + ops, 64).r.problem.kind == Problem::Kind::unsupported);
}

TEST_CASE("tcgen05.mma.cta_group::2: M = 256 over a CTA pair, each CTA 128 rows of A and D and half of B's columns") {
  // Layout A (9.7.16.10.5.1): rows 0-127 in the even CTA's lanes, 128-255 in the odd CTA's; the commit's arrive
  // multicast to both CTAs' mbarriers (9.7.16.12.1).
  Case c{kF16, kF16};
  c.pair = true;
  c.sa = kmajor_a(128);
  c.sb = kmajor(128, false);
  SUBCASE("f16, N = 32") { check(c); }
  SUBCASE("bf16, MN-major, N = 64, lanes disabled in both CTAs") {
    c = Case{kBF16, kBF16};
    c.pair = true;
    c.n = 64;
    c.trans_a = c.trans_b = true;
    c.sa = mnmajor(64, 128, 2);
    c.sb = mnmajor(64, 32, 2);
    c.disabled = 1u << 3 | 1u << 30;
    check(c);
  }
  SUBCASE("i8, N = 32") { c = Case{kS8, kU8}; c.pair = true; c.dtype = "s32"; c.sa = kmajor_a(0); c.sb = kmajor(0, false); check(c); }
  SUBCASE("N = 24 is no .cta_group::2 shape (Table 41: steps of 16)") {
    c.n = 24;
    const Ran ran = run_case(c);
    CHECK(ran.r.problem.kind == Problem::Kind::illegal);
    CHECK(ran.r.problem.message.find("N = 24") != std::string::npos);
  }
}

TEST_CASE("tcgen05.mma completes later than its issue: D read before the commit's mbarrier wait may be the old D") {
  // 9.7.16.6.4.4: a consumer must wait for the MMA's completion (commit + mbarrier) before tcgen05.ld. The issuing
  // warp reads D at once: under the deterministic scheduler it runs from the barrier on in one turn, so the MMA has
  // not completed and it reads the old D; any warp may read either. After the wait every warp reads the product.
  Case c{kF16, kF16};
  c.sa = kmajor_a(128);
  c.sb = kmajor(128, false);
  c.early = true;
  check(c);
  const Ran ran = run_case(c);
  REQUIRE(ran.r.ok());
  const auto& out = ran.r.buffers[0].second;
  int stale = 0, other = 0;
  for (int m = 0; m < 128; ++m)
    for (int n = 0; n < c.n; ++n) {
      std::uint32_t early, final_d;
      std::memcpy(&early, out.data() + 4 * (128 * c.n + m * c.n + n), 4);
      std::memcpy(&final_d, out.data() + 4 * (m * c.n + n), 4);
      const bool old_d = early == ran.in.dinit[m * c.n + n];
      if (m < 32) stale += old_d;
      else other += old_d || early == final_d;
    }
  CHECK(stale == 32 * c.n);      // the issuing warp: every element the old D
  CHECK(other == 96 * c.n);      // the other warps: each element the old D or the product
}

TEST_CASE("tcgen05.mma: what the interpreter refuses, and the descriptors the spec does not define") {
  Case c{kF16, kF16};
  c.sa = kmajor_a(128);
  c.sb = kmajor(128, false);
  auto problem = [](const Ran& ran) { return ran.r.ok() ? std::string("ran") : ran.r.problem.message; };
  // M = 64 is a shape of Table 41, but its Tensor Memory layout (Layout F) is a figure missing from the text.
  const Ran m64 = run_case(c, "", 64);
  CHECK(m64.r.problem.kind == Problem::Kind::unsupported);
  CHECK(problem(m64).find("M = 64") != std::string::npos);
  // M = 96 is no shape at all (Table 41).
  const Ran m96 = run_case(c, "", 96);
  CHECK(m96.r.problem.kind == Problem::Kind::illegal);
  CHECK(problem(m96).find("Table 41") != std::string::npos);
  // .kind::tf32 with f16 types in the descriptor (Table 44: TF32 = 2).
  const Ran tf = run_case(c, "  tcgen05.mma.cta_group::1.kind::tf32 [%r10], %rd9, %rd10, %r12, %p2;");
  CHECK(tf.r.problem.kind == Problem::Kind::illegal);
  CHECK(problem(tf).find("Table 44") != std::string::npos);
  // a descriptor whose bits 46-48 are not 0b001 (Table 42): the kernel clears bit 46 of the A descriptor
  const Ran fixed = run_case(c, "  and.b64 %rd9, %rd9, 0xffffbfffffffffff;\n  tcgen05.mma.cta_group::1.kind::f16 [%r10], %rd9, %rd10, %r12, %p2;");
  CHECK(fixed.r.problem.kind == Problem::Kind::illegal);
  CHECK(problem(fixed).find("0b001") != std::string::npos);
  // D at lane 32: Layout D (M = 128) starts at lane 0
  const Ran lane = run_case(c, "  add.u32 %r17, %r10, 0x200000;\n  tcgen05.mma.cta_group::1.kind::f16 [%r17], %rd9, %rd10, %r12, %p2;");
  CHECK(lane.r.problem.kind == Problem::Kind::illegal);
  CHECK(problem(lane).find("lane 0") != std::string::npos);
  // 9.7.16.10.1: a tf32 transpose in another swizzle mode, and mode 1 for another kind's transpose or a K-major
  // matrix (Table 55 has no K-major atom for it)
  Case tf32{kTF32, kTF32};
  tf32.trans_a = true;
  tf32.sa = mnmajor(128, 128, 4);
  tf32.sb = kmajor(128, false);
  const Ran tf_mode2 = run_case(tf32);
  CHECK(tf_mode2.r.problem.kind == Problem::Kind::illegal);
  CHECK(problem(tf_mode2).find("needs the 128B swizzle with 32B atomicity") != std::string::npos);
  Case f16{kF16, kF16};
  f16.trans_b = true;
  f16.sa = kmajor_a(128);
  f16.sb = mnmajor_atom32(f16.n, 2);
  const Ran f16_mode1 = run_case(f16);
  CHECK(f16_mode1.r.problem.kind == Problem::Kind::illegal);
  CHECK(problem(f16_mode1).find("is .kind::tf32's only") != std::string::npos);
  tf32.trans_a = false;
  tf32.sa = mnmajor_atom32(128, 4);
  tf32.sa.mn_major = false;
  const Ran k_mode1 = run_case(tf32);
  CHECK(k_mode1.r.problem.kind == Problem::Kind::illegal);
  CHECK(problem(k_mode1).find("no K-major layout (Table 55)") != std::string::npos);
  // scale-input-d outside [0, 15]
  c.scale = 16;
  const Ran scale = run_case(c);
  CHECK(scale.r.problem.kind == Problem::Kind::illegal);
  CHECK(problem(scale).find("scale-input-d") != std::string::npos);
}

namespace {
// A kernel of one warp group around `body`; %r10 holds the allocation's address, %r13 the warp.
const char* const kSm100 = ".version 8.7\n.target sm_100a\n.address_size 64\n";
// tcgen05.ld.red needs PTX 8.8 and sm_101a or the sm_101f/sm_103f/sm_110f families (9.7.16.8.3 Target ISA Notes).
const char* const kSm103 = ".version 8.8\n.target sm_103a\n.address_size 64\n";

RunResult run_body(const std::string& body, const std::string& after = "", int columns = 32, int words = 4,
                   const char* header = kSm100) {
  const std::string text = std::string(header) + ".visible .entry tc(.param .u64 out)\n{\n"
                           "  .reg .pred %p<4>;\n  .reg .b32 %r<40>;\n  .reg .b32 %v<40>;\n  .reg .b64 %rd<8>;\n  .shared .align 4 .b32 slot;\n"
                           "  mov.u32 %r1, %tid.x;\n  shr.u32 %r13, %r1, 5;\n  setp.ne.u32 %p3, %r13, 0;\n  @%p3 bra A;\n"
                           "  tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], " + std::to_string(columns) + ";\n"
                           "A:\n  bar.sync 0;\n  ld.shared.b32 %r10, [slot];\n  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd1, %rd1;\n"
                           "  mul.wide.u32 %rd2, %r1, " + std::to_string(4 * words) + ";\n  add.u64 %rd3, %rd1, %rd2;\n" + body +
                           "  bar.sync 0;\n  @%p3 bra B;\n  tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r10, " + std::to_string(columns) + ";\n" +
                           after + "B:\n  ret;\n}\n";
  const ptx::ir::Module& module = module_of(text, "tcgen05_body.ptx");
  Launch l;
  l.kernel = "tc";
  l.block = {128, 1, 1};
  l.buffers = {{"out", std::vector<std::uint8_t>(128 * 4 * words)}};
  l.params = {ParamValue{"out", {}, 0, {}}};
  return run(module, l, {});
}
std::uint32_t word(const RunResult& r, int thread, int i, int words = 4) {
  std::uint32_t w;
  std::memcpy(&w, r.buffers[0].second.data() + 4 * (words * thread + i), 4);
  return w;
}
}  // namespace

TEST_CASE("tcgen05.st .unpack::16b and tcgen05.ld .pack::16b: two 16-bit elements of adjacent columns per register (9.7.16.8.2)") {
  // Each thread stores 0xBBBBAAAA-style words unpacked into 4 columns of its lane, reads the 4 cells back unpacked
  // (one 16-bit element in each cell's low half) and packed again.
  const std::string lanes = "  shl.b32 %r14, %r13, 21;\n  add.u32 %r11, %r10, %r14;\n";  // lane 32 * warp
  const RunResult r = run_body(lanes +
      "  mad.lo.u32 %r20, %r1, 0x10001, 0x00020001;\n  mad.lo.u32 %r21, %r1, 0x10001, 0x00040003;\n"
      "  tcgen05.st.sync.aligned.32x32b.x2.unpack::16b.b32 [%r11], {%r20, %r21};\n  tcgen05.wait::st.sync.aligned;\n"
      "  tcgen05.ld.sync.aligned.32x32b.x4.b32 {%r22, %r23, %r24, %r25}, [%r11];\n"
      "  tcgen05.ld.sync.aligned.32x32b.x1.pack::16b.b32 {%r26}, [%r11];\n  tcgen05.wait::ld.sync.aligned;\n"
      "  st.global.v4.b32 [%rd3], {%r22, %r23, %r24, %r26};\n");
  REQUIRE_MESSAGE(r.ok(), r.problem.message);
  for (int t : {0, 1, 37, 127}) {
    CAPTURE(t);
    const std::uint32_t lo = 0x0001u + static_cast<std::uint32_t>(t), hi = 0x0002u + static_cast<std::uint32_t>(t);
    CHECK(word(r, t, 0) == lo);
    CHECK(word(r, t, 1) == hi);
    CHECK(word(r, t, 2) == 0x0003u + static_cast<std::uint32_t>(t));
    CHECK(word(r, t, 3) == (lo | hi << 16));
  }
}

namespace {
// The 16-lane shapes' fragments (Figures 184-187 are images missing from the text) as CUTLASS states them in CuTe
// layouts (cute/atom/copy_traits_sm100.hpp, SM100_TMEM_LOAD_16dp*b{1,2}x): a (thread, register bit) -> bit index of
// the atom, whose bit i is column-bit i % W of lane i / W (ValID (W,16):(1,DP)). Evaluated by the test's own layout
// evaluator; the .x1 and .x2 forms, each register's bit 0.
struct FragmentLayout {
  const char* shape;
  int num, regs, width;  // .xN, registers per thread, W: bits per lane of the atom
  Mode thread, value;    // value: over (bit, register...) colexicographically, in bits
};
const FragmentLayout kFragments[] = {
    {"16x64b", 1, 1, 64, {{2, 512}, {2, 32}, {8, 64}}, {{32, 1}}},
    {"16x64b", 2, 2, 128, {{2, 1024}, {2, 32}, {8, 128}}, {{32, 1}, {2, 64}}},
    {"16x128b", 1, 2, 128, {{4, 32}, {8, 128}}, {{32, 1}, {2, 1024}}},
    {"16x128b", 2, 4, 256, {{4, 32}, {8, 256}}, {{32, 1}, {2, 2048}, {2, 128}}},
    {"16x256b", 1, 4, 256, {{4, 64}, {8, 256}}, {{64, 1}, {2, 2048}}},
    {"16x256b", 2, 8, 512, {{4, 64}, {8, 512}}, {{64, 1}, {2, 4096}, {2, 256}}},
};
}  // namespace

TEST_CASE("tcgen05.ld/st 16-lane shapes: each register at the cell of CUTLASS's fragment layout; .16x32bx2 halves") {
  // Every warp writes cell (lane, column) = 1000 * lane + column for its 32 lanes and 16 columns with .32x32b, then
  // reads them back in the shape under test at lane base `half` (0 or 16 within its quarter).
  std::string fill = "  shl.b32 %r14, %r13, 21;\n  add.u32 %r11, %r10, %r14;\n  and.b32 %r15, %r1, 31;\n"
                     "  mul.lo.u32 %r16, %r13, 32;\n  add.u32 %r15, %r15, %r16;\n  mul.lo.u32 %r15, %r15, 1000;\n";
  std::string regs = "{";
  for (int c = 0; c < 16; ++c) {
    fill += "  add.u32 %v" + std::to_string(c) + ", %r15, " + std::to_string(c) + ";\n";
    regs += (c ? ", %v" : "%v") + std::to_string(c);
  }
  fill += "  tcgen05.st.sync.aligned.32x32b.x16.b32 [%r11], " + regs + "};\n  tcgen05.wait::st.sync.aligned;\n";
  auto read_back = [&](const std::string& shape, int num, int count, int half, const std::string& split = "") {
    std::string out = "{";
    for (int r = 0; r < count; ++r) out += (r ? ", %v" : "%v") + std::to_string(16 + r);
    std::string body = fill + "  add.u32 %r12, %r11, " + std::to_string(half << 16) + ";\n  tcgen05.ld.sync.aligned." + shape + ".x" +
                       std::to_string(num) + ".b32 " + out + "}, [%r12]" + split + ";\n  tcgen05.wait::ld.sync.aligned;\n";
    for (int r = 0; r < count; ++r) body += "  st.global.u32 [%rd3+" + std::to_string(4 * r) + "], %v" + std::to_string(16 + r) + ";\n";
    return run_body(body, "", 32, count);
  };
  for (const FragmentLayout& f : kFragments)
    for (int half : {0, 16}) {
      CAPTURE(f.shape);
      CAPTURE(f.num);
      CAPTURE(half);
      const RunResult r = read_back(f.shape, f.num, f.regs, half);
      REQUIRE_MESSAGE(r.ok(), r.problem.message);
      for (int t = 0; t < 128; ++t)
        for (int reg = 0; reg < f.regs; ++reg) {
          const long bit = eval(f.thread, t % 32) + eval(f.value, 32 * reg);
          const long lane = 32 * (t / 32) + half + bit / f.width, column = bit % f.width / 32;
          CHECK(word(r, t, reg, f.regs) == static_cast<std::uint32_t>(1000 * lane + column));
        }
    }
  // .16x32bx2 (9.7.16.8.3): two .16x32b accesses, at taddr and at taddr + immHalfSplitoff: threads 0-15 the first
  // (lanes 0-15 of the base, one column per register), threads 16-31 the second.
  const RunResult r = read_back("16x32bx2", 2, 2, 0, ", 5");
  REQUIRE_MESSAGE(r.ok(), r.problem.message);
  for (int t = 0; t < 128; ++t)
    for (int reg = 0; reg < 2; ++reg) {
      const int lane = 32 * (t / 32) + t % 16, column = reg + (t % 32 >= 16 ? 5 : 0);
      CHECK(word(r, t, reg, 2) == static_cast<std::uint32_t>(1000 * lane + column));
    }
}

TEST_CASE("tcgen05.shift.down (9.7.16.9.3): rows L..L+30 of 256 bits move down one lane; lane L and the rest stay") {
  // Every thread writes cells (lane, c) = 1000 * lane + c + 1, c = 0..9, of its own lane (.32x32b); thread 0 shifts
  // the matrix at lane `base` (aligned to 32) and column 1, commits to an mbarrier, and after the wait every thread
  // reads its 10 cells back. Expected from the text: the 32-byte (8-cell) elements of lanes base..base+30 go to
  // base+1..base+31 ("all the rows, except the last, by one row"; shape .31x256b, 9.7.16.2.3), columns 0 and 9 and
  // every other lane unchanged.
  for (int base : {0, 64}) {
    CAPTURE(base);
    const std::string body =
        "  shl.b32 %r14, %r13, 21;\n  add.u32 %r11, %r10, %r14;\n"
        "  mad.lo.u32 %r20, %r1, 1000, 1;\n  add.u32 %r21, %r20, 1;\n  add.u32 %r22, %r20, 2;\n  add.u32 %r23, %r20, 3;\n"
        "  add.u32 %r24, %r20, 4;\n  add.u32 %r25, %r20, 5;\n  add.u32 %r26, %r20, 6;\n  add.u32 %r27, %r20, 7;\n"
        "  add.u32 %r28, %r20, 8;\n  add.u32 %r29, %r20, 9;\n"
        "  tcgen05.st.sync.aligned.32x32b.x16.b32 [%r11], {%r20, %r21, %r22, %r23, %r24, %r25, %r26, %r27, %r28, %r29, %r20, %r20, %r20, %r20, %r20, %r20};\n"
        "  tcgen05.wait::st.sync.aligned;\n  tcgen05.fence::before_thread_sync;\n  bar.sync 0;\n  tcgen05.fence::after_thread_sync;\n"
        "  setp.ne.u32 %p1, %r1, 0;\n  @%p1 bra SHIFTED;\n  mbarrier.init.shared.b64 [mbar], 1;\n"
        "  add.u32 %r15, %r10, " + std::to_string((base << 16) + 1) + ";\n  tcgen05.shift.cta_group::1.down [%r15];\n"
        "  tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [mbar];\n"
        "SHIFTED:\n  bar.sync 0;\nWAIT:\n  mbarrier.try_wait.parity.shared.b64 %p2, [mbar], 0;\n  @!%p2 bra WAIT;\n"
        "  tcgen05.fence::after_thread_sync;\n"
        "  tcgen05.ld.sync.aligned.32x32b.x16.b32 {%v0, %v1, %v2, %v3, %v4, %v5, %v6, %v7, %v8, %v9, %v10, %v11, %v12, %v13, %v14, %v15}, [%r11];\n"
        "  tcgen05.wait::ld.sync.aligned;\n  st.global.v4.b32 [%rd3], {%v0, %v1, %v2, %v3};\n  st.global.v4.b32 [%rd3+16], {%v4, %v5, %v6, %v7};\n"
        "  st.global.v2.b32 [%rd3+32], {%v8, %v9};\n";
    // (12 words a thread, so that each thread's v4 stores are 16-byte aligned: ISA 6.4.1)
    const RunResult r = run_body(".shared .align 8 .b64 mbar;\n" + body, "", 32, 12);
    REQUIRE_MESSAGE(r.ok(), r.problem.message);
    int wrong = 0;
    for (int lane = 0; lane < 128; ++lane)
      for (int c = 0; c < 10; ++c) {
        const bool moved = lane > base && lane <= base + 31 && c >= 1 && c <= 8;
        const std::uint32_t want = 1000u * static_cast<std::uint32_t>(moved ? lane - 1 : lane) + static_cast<std::uint32_t>(c) + 1;
        if (word(r, lane, c, 12) != want && wrong++ < 4) FAIL_CHECK("lane " << lane << " column " << c << ": " << word(r, lane, c, 12) << ", expected " << want);
      }
    CHECK(wrong == 0);
  }
  // the lane of taddr must be aligned to 32
  const RunResult bad = run_body("  setp.ne.u32 %p1, %r1, 0;\n  @%p1 bra S;\n  add.u32 %r15, %r10, 0x100000;\n"
                                 "  tcgen05.shift.cta_group::1.down [%r15];\nS:\n");
  CHECK(bad.problem.kind == Problem::Kind::illegal);
  CHECK(bad.problem.message.find("aligned to 32") != std::string::npos);
}

namespace {
// The test's own min/max of two f32 bit patterns (9.7.3.11-12): a NaN operand yields the other (both: canonical
// NaN 0x7fffffff), with .NaN any NaN gives it; -0.0 < +0.0; .abs compares (and returns) magnitudes.
std::uint32_t fpick(std::uint32_t a, std::uint32_t b, bool is_max, bool abs, bool nan) {
  if (abs) a &= 0x7fffffffu, b &= 0x7fffffffu;
  auto f = [](std::uint32_t x) { float v; std::memcpy(&v, &x, 4); return v; };
  const bool na = std::isnan(f(a)), nb = std::isnan(f(b));
  if (na && nb) return 0x7fffffffu;
  if (na || nb) return nan ? 0x7fffffffu : na ? b : a;
  if (f(a) == f(b)) return is_max ? ((a >> 31) ? b : a) : ((a >> 31) ? a : b);  // +-0: max +0, min -0
  return (f(a) < f(b)) == is_max ? b : a;
}
// Cell (lane, c) of the ld.red test: a hashed bit pattern; column 2 of every fourth lane a NaN.
std::uint32_t red_cell(std::uint32_t lane, std::uint32_t c) {
  const std::uint32_t h = lane * 0x9E3779B9u + 0x01234567u + c * 0x85EBCA6Bu;
  return c == 2 && lane % 4 == 0 ? h | 0x7f800001u : h;
}
}  // namespace

TEST_CASE("tcgen05.ld.red (9.7.16.8.3): min/max of each thread's loaded values into redval; .abs, .NaN, u32/s32") {
  // Each thread writes cells c = 0..15 of its lane with red_cell (.32x32b.x16), then: .32x32b.x8 loads of columns
  // 0..7 with five reductions, and a .16x32bx2.x4 load (immHalfSplitoff 8): thread l reads lane 32w + l % 16, columns
  // 0..3 for l < 16, 8..11 for l >= 16 (the shape's two accesses at taddr and taddr + 8).
  std::string b = "  shl.b32 %r14, %r13, 21;\n  add.u32 %r11, %r10, %r14;\n";
  for (int c = 0; c < 16; ++c)
    b += "  mad.lo.u32 %v" + std::to_string(c) + ", %r1, 0x9E3779B9, " + std::to_string(0x01234567u + static_cast<std::uint32_t>(c) * 0x85EBCA6Bu) + ";\n";
  b += "  and.b32 %r30, %r1, 3;\n  setp.eq.u32 %p1, %r30, 0;\n  or.b32 %r31, %v2, 0x7f800001;\n  selp.b32 %v2, %r31, %v2, %p1;\n";
  b += "  tcgen05.st.sync.aligned.32x32b.x16.b32 [%r11], {%v0, %v1, %v2, %v3, %v4, %v5, %v6, %v7, %v8, %v9, %v10, %v11, %v12, %v13, %v14, %v15};\n"
       "  tcgen05.wait::st.sync.aligned;\n";
  const char* forms[] = {"max.f32", "min.abs.f32", "max.NaN.f32", "min.s32", "max.u32"};
  for (int i = 0; i < 5; ++i)
    b += std::string("  tcgen05.ld.red.sync.aligned.32x32b.x8.") + forms[i] + " {%v16, %v17, %v18, %v19, %v20, %v21, %v22, %v23}, %r" +
         std::to_string(20 + i) + ", [%r11];\n";
  b += "  tcgen05.ld.red.sync.aligned.16x32bx2.x4.min.f32 {%v24, %v25, %v26, %v27}, %r25, [%r11], 8;\n"
       "  tcgen05.wait::ld.sync.aligned;\n"
       "  st.global.v4.b32 [%rd3], {%v16, %v17, %v18, %v19};\n  st.global.v4.b32 [%rd3+16], {%v20, %v21, %v22, %v23};\n"
       "  st.global.v4.b32 [%rd3+32], {%r20, %r21, %r22, %r23};\n  st.global.v4.b32 [%rd3+48], {%r24, %r25, %v24, %v27};\n";
  const RunResult r = run_body(b, "", 32, 16, kSm103);
  REQUIRE_MESSAGE(r.ok(), r.problem.message);
  int wrong = 0;
  auto expect = [&](int t, int i, std::uint32_t want) {
    if (word(r, t, i, 16) != want && wrong++ < 6) FAIL_CHECK("thread " << t << " word " << i << ": " << std::hex << word(r, t, i, 16) << ", expected " << want);
  };
  for (int t = 0; t < 128; ++t) {
    const auto lane = static_cast<std::uint32_t>(t);
    std::vector<std::uint32_t> v;
    for (std::uint32_t c = 0; c < 8; ++c) v.push_back(red_cell(lane, c));
    for (int c = 0; c < 8; ++c) expect(t, c, v[c]);  // r: the loaded values themselves
    auto fold = [&](const std::vector<std::uint32_t>& x, auto op) {
      std::uint32_t acc = x[0];
      for (std::size_t i = 1; i < x.size(); ++i) acc = op(acc, x[i]);
      return acc;
    };
    expect(t, 8, fold(v, [](std::uint32_t a, std::uint32_t b2) { return fpick(a, b2, true, false, false); }));
    expect(t, 9, fold(v, [](std::uint32_t a, std::uint32_t b2) { return fpick(a, b2, false, true, false); }) & 0x7fffffffu);
    expect(t, 10, fold(v, [](std::uint32_t a, std::uint32_t b2) { return fpick(a, b2, true, false, true); }));
    expect(t, 11, fold(v, [](std::uint32_t a, std::uint32_t b2) {
             return static_cast<std::int32_t>(b2) < static_cast<std::int32_t>(a) ? b2 : a; }));
    expect(t, 12, fold(v, [](std::uint32_t a, std::uint32_t b2) { return b2 > a ? b2 : a; }));
    // .16x32bx2.x4 (data_cell: lane l % 16 of the warp's quarter; columns r, + 8 for the upper 16 threads)
    const std::uint32_t lane2 = 32 * (lane / 32) + lane % 16, col0 = (lane % 32) >= 16 ? 8 : 0;
    std::vector<std::uint32_t> h;
    for (std::uint32_t c = 0; c < 4; ++c) h.push_back(red_cell(lane2, col0 + c));
    expect(t, 13, fold(h, [](std::uint32_t a, std::uint32_t b2) { return fpick(a, b2, false, false, false); }));
    expect(t, 14, h[0]);
    expect(t, 15, h[3]);
  }
  CHECK(wrong == 0);
}

TEST_CASE("tcgen05 allocation and access rules (9.7.16.7.1, 9.7.16.8.1)") {
  auto message = [](const RunResult& r) { return r.ok() ? std::string("ran") : r.problem.message; };
  SUBCASE("a warp reaches only its quarter of the lanes: warp 1 at lane 0") {
    const RunResult r = run_body("  tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r22}, [%r10];\n");
    CHECK(r.problem.kind == Problem::Kind::illegal);
    CHECK(message(r).find("9.7.16.8.1") != std::string::npos);
  }
  SUBCASE("columns beyond the allocation") {
    const RunResult r = run_body("  shl.b32 %r14, %r13, 21;\n  add.u32 %r11, %r10, %r14;\n  add.u32 %r11, %r11, 31;\n"
                                 "  tcgen05.ld.sync.aligned.32x32b.x2.b32 {%r22, %r23}, [%r11];\n");
    CHECK(r.problem.kind == Problem::Kind::illegal);
    CHECK(message(r).find("not allocated") != std::string::npos);
  }
  SUBCASE("an allocation after tcgen05.relinquish_alloc_permit") {
    const RunResult r = run_body("", "  tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\n"
                                     "  tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 32;\n");
    CHECK(r.problem.kind == Problem::Kind::illegal);
    CHECK(message(r).find("relinquish") != std::string::npos);
  }
  SUBCASE("a kernel that exits with Tensor Memory allocated") {
    const RunResult r = run_body("", "  tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 64;\n");
    CHECK(r.problem.kind == Problem::Kind::illegal);
    CHECK(message(r).find("still allocated") != std::string::npos);
  }
  SUBCASE("nCols not a power of 2") {
    const RunResult r = run_body("", "", 96);
    CHECK(r.problem.kind == Problem::Kind::illegal);
    CHECK(message(r).find("power of 2") != std::string::npos);
  }
  SUBCASE("two allocations of 256 columns fit; a third would block: refused as unsupported") {
    const RunResult r = run_body("", "  tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 256;\n"
                                     "  tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 256;\n"
                                     "  tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 256;\n", 256);
    CHECK(r.problem.kind == Problem::Kind::unsupported);
    CHECK(message(r).find("block") != std::string::npos);
  }
}

TEST_CASE("instruction_supported: the tcgen05 forms the interpreter runs, and those it refuses by name") {
  auto supported = [](const std::string& line) {
    // sm_103a: every tcgen05 form below, tcgen05.ld.red included (9.7.16.8.3), is defined there.
    const std::string text = std::string(kSm103) + ".visible .entry k()\n{\n"
                             ".reg .b32 %r<12>;\n.reg .b64 %rd<3>;\n.reg .pred %p1;\n.shared .b32 smem;\n" + line + "\nret;\n}\n";
    const auto loaded = ptx::ir::load_ptx(text, "forms.ptx");
    for (const auto& e : loaded.errors) FAIL(e.render());
    REQUIRE(loaded);
    return instruction_supported(loaded.module->functions[0].body[0]);
  };
  CHECK(supported("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [smem], 32;"));
  CHECK(supported("tcgen05.ld.sync.aligned.32x32b.x2.b32 {%r1, %r2}, [%r3];"));
  CHECK(supported("tcgen05.mma.cta_group::1.kind::f16 [%r1], %rd1, %rd2, %r2, %p1;"));
  CHECK(supported("tcgen05.commit.cta_group::1.mbarrier::arrive::one.b64 [%rd1];"));
  CHECK(supported("tcgen05.fence::before_thread_sync;"));
  CHECK(supported("tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [smem], 32;"));
  CHECK(supported("tcgen05.mma.cta_group::2.kind::f16 [%r1], %rd1, %rd2, %r2, {%r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10}, %p1;"));
  // cp, shift, .ws, .sp, block scaling: not run
  CHECK(supported("tcgen05.st.sync.aligned.16x64b.x4.b32 [%r1], {%r2, %r3, %r4, %r5};"));
  CHECK(supported("tcgen05.ld.sync.aligned.16x32bx2.x1.b32 {%r1}, [%r2], 8;"));
  CHECK(supported("tcgen05.ld.red.sync.aligned.32x32b.x2.max.abs.f32 {%r1, %r2}, %r3, [%r4];"));  // sm_103 .red
  CHECK(supported("tcgen05.ld.red.sync.aligned.16x32bx2.x2.min.u32 {%r1, %r2}, %r3, [%r4], 8;"));
  // .red: .num at least .x2; no .abs on integers; only .32x32b and .16x32bx2
  CHECK_FALSE(supported("tcgen05.ld.red.sync.aligned.32x32b.x1.max.f32 {%r1}, %r3, [%r4];"));
  CHECK_FALSE(supported("tcgen05.ld.red.sync.aligned.32x32b.x2.max.abs.s32 {%r1, %r2}, %r3, [%r4];"));
  CHECK_FALSE(supported("tcgen05.ld.red.sync.aligned.16x64b.x2.max.f32 {%r1, %r2}, %r3, [%r4];"));
  CHECK_FALSE(supported("tcgen05.cp.cta_group::1.128x256b [%r1], %rd1;"));
  CHECK(supported("tcgen05.shift.cta_group::1.down [%r1];"));
  CHECK(supported("tcgen05.mma.cta_group::1.kind::tf32 [%r1], [%r3], %rd2, %r2, %p1;"));  // A in Tensor Memory: tf32 only
  CHECK_FALSE(supported("tcgen05.mma.cta_group::1.kind::f16 [%r1], [%r3], %rd2, %r2, %p1;"));
  CHECK(supported("tcgen05.mma.ws.cta_group::1.kind::f16 [%r1], %rd1, %rd2, %r2, %p1;"));
  CHECK(supported("tcgen05.mma.ws.cta_group::1.kind::f16.collector::b1::fill [%r1], %rd1, %rd2, %r2, %p1;"));
  CHECK_FALSE(supported("tcgen05.mma.ws.cta_group::1.kind::f16 [%r1], %rd1, %rd2, %r2, %p1, %rd1;"));  // zero-column mask
  CHECK_FALSE(supported("tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale [%r1], %rd1, %rd2, %r2, [%r3], [%r4], %p1;"));
}

// tcgen05.cp (9.7.16.9.2) in every shape and block-scaled MMAs are refused with the reason the text gives (it does not
// define the copy's shared-memory layout per shape, nor the scale-factor layouts, in words): `coverage --why` prints it.
TEST_CASE("tcgen05.cp, .block_scale, .sp and .ashift: refused, with the reason") {
  auto refusal = [](const std::string& line) {
    const std::string text = ".version 8.7\n.target sm_100a\n.address_size 64\n.visible .entry k()\n{\n"
                             ".reg .b32 %r<12>;\n.reg .b64 %rd<3>;\n.reg .pred %p1;\n" + line + "\nret;\n}\n";
    const auto loaded = ptx::ir::load_ptx(text, "forms.ptx");
    for (const auto& e : loaded.errors) FAIL(e.render());
    REQUIRE(loaded);
    const auto& ins = loaded.module->functions[0].body[0];
    return instruction_supported(ins) ? std::string("runs") : instruction_unsupported_reason(ins);
  };
  for (const char* form : {"tcgen05.cp.cta_group::1.128x256b [%r1], %rd1;", "tcgen05.cp.cta_group::2.4x256b [%r1], %rd1;",
                           "tcgen05.cp.cta_group::1.128x128b [%r1], %rd1;", "tcgen05.cp.cta_group::1.64x128b.warpx2::02_13 [%r1], %rd1;",
                           "tcgen05.cp.cta_group::1.64x128b.warpx2::01_23 [%r1], %rd1;", "tcgen05.cp.cta_group::1.32x128b.warpx4 [%r1], %rd1;",
                           "tcgen05.cp.cta_group::2.128x128b.b8x16.b6x16_p32 [%r1], %rd1;", "tcgen05.cp.cta_group::1.128x256b.b8x16.b4x16_p64 [%r1], %rd1;"}) {
    CAPTURE(form);
    CHECK(refusal(form).find("tcgen05.cp: ISA 9.7.16.9.2 does not say") == 0);
  }
  CHECK(refusal("tcgen05.mma.cta_group::1.kind::mxf4.block_scale [%r1], %rd1, %rd2, %r2, [%r3], [%r4], %p1;").find("Figures 231-242") != std::string::npos);
  // 9.7.16.10.8.4-10: the sparsity metadata's Tensor Memory layout is shown only in Figures 262-267; 9.7.16.10.9 gives
  // .ashift one sentence that leaves the first row open.
  CHECK(refusal("tcgen05.mma.sp.cta_group::1.kind::f16 [%r1], %rd1, %rd2, [%r3], %r2, %p1;").find("Figures 262-267 only") != std::string::npos);
  CHECK(refusal("tcgen05.mma.cta_group::1.kind::tf32.ashift [%r1], [%r3], %rd2, %r2, %p1;").find("not what the first row then holds") != std::string::npos);
}

// The dynamic race checker on the same kernel (docs/race/async-proxy.md): the MMA reads shared memory in the async
// proxy (9.7.16.6.5), so the threads' st.shared of the matrices need fence.proxy.async before it. Tensor Memory
// accesses are ordered by the standard mechanisms (9.7.16.6.3: they "also apply to the tcgen05 family": bar.sync,
// an acquire mbarrier wait), by a relaxed wait only with tcgen05.fence::after_thread_sync after it (the pattern of
// 9.7.16.6.4.2 Example 2), and a thread's tcgen05.st only once its tcgen05.wait::st completed it (9.7.16.6.2.3).
namespace {
ptxcheck::race::DynamicResult race_case(const Case& c, const std::vector<std::pair<std::string, std::string>>& edits) {
  std::mt19937 rng(1);
  const Inputs in = inputs(c, rng);
  std::string text = kernel(c);
  for (const auto& [from, to] : edits) {
    const auto at = text.find(from);
    REQUIRE_MESSAGE(at != std::string::npos, from);
    text.replace(at, from.size(), to);
  }
  return ptxcheck::race::check_execution(module_of(text, "tcgen05_test.ptx"), launch_of(c, in, c.rows()), {});
}
using Edit = std::pair<std::string, std::string>;
const Edit kProxyFence{"  shr.u32 %r13, %r1, 5;\n", "  fence.proxy.async.shared::cta;\n  shr.u32 %r13, %r1, 5;\n"};
const Edit kNoFenceBeforeLd{"@!%p1 bra WAIT;\n  tcgen05.fence::after_thread_sync;\n", "@!%p1 bra WAIT;\n"};
const Edit kRelaxedWait{"mbarrier.try_wait.parity.shared.b64", "mbarrier.try_wait.parity.relaxed.cta.shared::cta.b64"};
const Edit kNoWaitSt{"  tcgen05.wait::st.sync.aligned;\n", ""};

// The races of a result as "opcode/space <-> opcode/space", each side's opcode cut at its second dot.
std::vector<std::string> pairs_of(const ptxcheck::race::DynamicResult& r) {
  std::vector<std::string> out;
  auto side = [](const ptxcheck::race::AccessReport& a) { return a.opcode.substr(0, a.opcode.find('.', a.opcode.find('.') + 1)) + "/" + a.space; };
  for (const auto& x : r.races) out.push_back(std::min(side(x.first), side(x.second)) + " <-> " + std::max(side(x.first), side(x.second)));
  return out;
}
bool race_free(const ptxcheck::race::DynamicResult& r) {
  CHECK_MESSAGE(r.run.ok(), r.run.problem.message);
  return r.run.ok() && r.races.empty();
}
}  // namespace

TEST_CASE("race checker: tcgen05 ordered as 9.7.16.6 says is race free; each missing link is found") {
  Case c{kF16, kF16};
  c.sa = kmajor_a(128);
  c.sb = kmajor(128, false);
  const auto fenced = race_case(c, {kProxyFence});
  CHECK(race_free(fenced));
  CHECK(fenced.accesses > 128 * 32);
  CHECK(race_free(race_case(c, {kProxyFence, kNoFenceBeforeLd})));  // the acquire wait orders tcgen05.ld
  CHECK(race_free(race_case(c, {kProxyFence, kRelaxedWait})));      // a relaxed wait, then the fence
  // The threads' st.shared of A and B, then bar.sync, then the MMA's async-proxy reads: no proxy fence.
  const auto unfenced = race_case(c, {});
  REQUIRE(unfenced.run.ok());
  REQUIRE(!unfenced.races.empty());
  CHECK(pairs_of(unfenced)[0] == "st.shared/shared <-> tcgen05.mma/shared");
  CHECK(unfenced.races[0].note.find("fence.proxy.async") != std::string::npos);
  // A relaxed mbarrier wait and no tcgen05.fence::after_thread_sync before tcgen05.ld (9.7.16.6.4.2 Example 2).
  const auto relaxed = race_case(c, {kProxyFence, kRelaxedWait, kNoFenceBeforeLd});
  REQUIRE(relaxed.run.ok());
  REQUIRE(relaxed.races.size() == 1);
  CHECK(pairs_of(relaxed)[0] == "tcgen05.ld/tensor memory <-> tcgen05.mma/tensor memory");
  CHECK(relaxed.races[0].note.find("tcgen05.fence::after_thread_sync") != std::string::npos);
  // The warps' tcgen05.st of D never completed by tcgen05.wait::st before the barrier: the MMA's read of D races.
  const auto no_wait = race_case(c, {kProxyFence, kNoWaitSt});
  REQUIRE(no_wait.run.ok());
  REQUIRE(!no_wait.races.empty());
  CHECK(pairs_of(no_wait)[0] == "tcgen05.mma/tensor memory <-> tcgen05.st/tensor memory");
  // tcgen05.ld of D right after the MMA's issue, before the commit's mbarrier wait (9.7.16.6.4.4).
  c.early = true;
  const auto early = race_case(c, {kProxyFence});
  REQUIRE(early.run.ok());
  REQUIRE(!early.races.empty());
  CHECK(pairs_of(early)[0] == "tcgen05.ld/tensor memory <-> tcgen05.mma/tensor memory");
  CHECK(early.races[0].note.find("after_thread_sync") == std::string::npos);  // not ordered at all: no fence would do
}

namespace {
// Two warps on the same Tensor Memory lanes (warps 0 and 4 of a CTA of 256 threads: 9.7.16.8.1, a warp reaches the
// lanes of its rank in its warpgroup) handing column 0 over as in 9.7.16.6.4.4 Example 1: warp 0 reads it with
// tcgen05.ld, waits (wait::ld), tcgen05.fence::before_thread_sync, mbarrier.arrive.relaxed; warp 4 waits on the
// mbarrier with try_wait.relaxed, tcgen05.fence::after_thread_sync, then overwrites the column with tcgen05.st.
ptxcheck::race::DynamicResult handover(const std::vector<Edit>& edits) {
  std::string text =
      ".version 8.7\n.target sm_100a\n.address_size 64\n.visible .entry tc(.param .u64 out)\n{\n"
      "  .reg .pred %p<8>;\n  .reg .b32 %r<20>;\n  .reg .b64 %rd<8>;\n  .shared .align 4 .b32 slot;\n  .shared .align 8 .b64 mbar;\n"
      "  mov.u32 %r1, %tid.x;\n  shr.u32 %r2, %r1, 5;\n  setp.ne.u32 %p1, %r2, 0;\n  @%p1 bra ALLOCATED;\n"
      "  tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [slot], 32;\n"
      "  tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\n"
      "ALLOCATED:\n  setp.ne.u32 %p2, %r1, 0;\n  @%p2 bra INITIALISED;\n  mbarrier.init.shared::cta.b64 [mbar], 32;\n"
      "INITIALISED:\n  tcgen05.fence::before_thread_sync;\n  bar.sync 0;\n  tcgen05.fence::after_thread_sync;\n"
      "  ld.shared.b32 %r3, [slot];\n  setp.eq.u32 %p3, %r2, 0;\n  @%p3 bra READER;\n  setp.ne.u32 %p4, %r2, 4;\n  @%p4 bra DONE;\n"
      "WAIT:\n  mbarrier.try_wait.parity.relaxed.cta.shared::cta.b64 %p5, [mbar], 0;\n  @!%p5 bra WAIT;\n"
      "  tcgen05.fence::after_thread_sync;\n"
      "  tcgen05.st.sync.aligned.32x32b.x1.b32 [%r3], {%r1};\n  tcgen05.wait::st.sync.aligned;\n  bra DONE;\n"
      "READER:\n  tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r4}, [%r3];\n  tcgen05.wait::ld.sync.aligned;\n"
      "  tcgen05.fence::before_thread_sync;\n"
      "  mbarrier.arrive.relaxed.cta.shared::cta.b64 %rd1, [mbar];\n"
      "  ld.param.u64 %rd2, [out];\n  cvta.to.global.u64 %rd2, %rd2;\n  mul.wide.u32 %rd3, %r1, 4;\n  add.u64 %rd4, %rd2, %rd3;\n"
      "  st.global.u32 [%rd4], %r4;\n"
      "DONE:\n  tcgen05.fence::before_thread_sync;\n  bar.sync 0;\n  tcgen05.fence::after_thread_sync;\n  @%p1 bra END;\n"
      "  tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r3, 32;\nEND:\n  ret;\n}\n";
  for (const auto& [from, to] : edits) {
    const auto at = text.find(from);
    REQUIRE_MESSAGE(at != std::string::npos, from);
    text.replace(at, from.size(), to);
  }
  Launch l;
  l.kernel = "tc";
  l.block = {256, 1, 1};
  l.buffers = {{"out", std::vector<std::uint8_t>(256 * 4)}};
  l.params = {ParamValue{"out", {}, 0, {}}};
  return ptxcheck::race::check_execution(module_of(text, "tcgen05_handover.ptx"), l, {});
}
const Edit kNoBeforeThreadSync{"  tcgen05.fence::before_thread_sync;\n  mbarrier.arrive", "  mbarrier.arrive"};
const Edit kNoAfterThreadSync{"@!%p5 bra WAIT;\n  tcgen05.fence::after_thread_sync;\n", "@!%p5 bra WAIT;\n"};
const Edit kNoWaitLd{"{%r4}, [%r3];\n  tcgen05.wait::ld.sync.aligned;\n", "{%r4}, [%r3];\n"};
}  // namespace

TEST_CASE("race checker: tcgen05.fence::before_thread_sync, a relaxed arrive and wait, after_thread_sync order two warps (9.7.16.6.4.4)") {
  const auto ordered = handover({});
  CHECK(race_free(ordered));
  CHECK(ordered.accesses >= 64);
  // Each link of the pattern missing: the reader's tcgen05.ld and the writer's tcgen05.st race.
  for (const Edit& e : {kNoBeforeThreadSync, kNoAfterThreadSync, kNoWaitLd}) {
    CAPTURE(e.first);
    const auto r = handover({e});
    REQUIRE(r.run.ok());
    REQUIRE(r.races.size() == 1);
    CHECK(pairs_of(r)[0] == "tcgen05.ld/tensor memory <-> tcgen05.st/tensor memory");
  }
  // Without after_thread_sync, the report names the missing fence (the relaxed wait did observe the reader's load).
  CHECK(handover({kNoAfterThreadSync}).races[0].note.find("tcgen05.fence::after_thread_sync") != std::string::npos);
}

namespace {
// 9.7.16.6.4.3 (pipelined instructions, different threads) with a flag in shared memory in place of the mbarrier:
// thread 0 issues the kernel's tcgen05.mma, then tcgen05.fence::before_thread_sync, sets the flag and commits the
// MMA; thread 32 spins on the flag, tcgen05.fence::after_thread_sync, issues the same MMA on the same accumulator
// (pair 1 of 9.7.16.6.2: "tcgen05.mma.cta_group::N -> tcgen05.mma.cta_group::N (same N and accumulator and
// shape)") and commits it; every thread waits for both commits (an mbarrier of count 2) and reads D. The first MMA
// is in flight when the flag is set: only the pipeline orders the two MMAs' accesses of D, and 9.7.16.6.3 has the
// fences compose with "morally strong ld/st/atom instructions" as with mbarriers to order them across threads.
// Thread 0 commits after the flag, unless `commit_first`: tcgen05.commit implicitly performs a before_thread_sync
// (9.7.16.6.4.2: "No explicit tcgen05.fence::before_thread_sync is needed as this is implicitly performed by
// tcgen05.commit"). `set` and `wait`: the flag's store and load; `before`, `after`: whether the fences are there.
ptxcheck::race::DynamicResult mma_through_flag(const std::string& set, const std::string& wait, bool before, bool after,
                                               bool commit_first = false) {
  Case c{kF16, kF16};
  c.sa = kmajor_a(128);
  c.sb = kmajor(128, false);
  std::mt19937 rng(1);
  const Inputs in = inputs(c, rng);
  std::string text = kernel(c);
  auto replace = [&](const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    REQUIRE_MESSAGE(at != std::string::npos, from);
    text.replace(at, from.size(), to);
  };
  const std::string issue_from = "  @%p3 bra ISSUED;\n", issue_to = "ISSUED:\n";
  const auto from = text.find(issue_from) + issue_from.size();
  const std::string issue = text.substr(from, text.find(issue_to) - from);  // the descriptors, the MMA, the commit
  const std::string commit = issue.substr(issue.find("  tcgen05.commit")), mma = issue.substr(0, issue.size() - commit.size());
  replace("  .shared .align 4 .b32 slot;\n", "  .shared .align 4 .b32 slot;\n  .shared .align 4 .b32 flag;\n");
  replace("mbarrier.init.shared.b64 [mbar], 1;\n", "mbarrier.init.shared.b64 [mbar], 2;\n  st.shared.u32 [flag], 0;\n");
  replace(issue + issue_to, mma + (commit_first ? commit : "") + (before ? "  tcgen05.fence::before_thread_sync;\n" : "") + "  " + set +
                                " [flag], 1;\n" + (commit_first ? "" : commit) + issue_to +
                                "  setp.ne.u32 %p3, %r1, 32;\n  @%p3 bra SECOND;\nFLAG:\n  " + wait + " %r22, [flag];\n"
                                "  setp.ne.u32 %p3, %r22, 1;\n  @%p3 bra FLAG;\n" +
                                (after ? "  tcgen05.fence::after_thread_sync;\n" : "") + issue + "SECOND:\n");
  replace(kProxyFence.first, kProxyFence.second);  // the threads' st.shared of A and B before the MMAs (as above)
  return ptxcheck::race::check_execution(module_of(text, "tcgen05_flag.ptx"), launch_of(c, in, c.rows()), {});
}
}  // namespace

TEST_CASE("race checker: tcgen05.mma handed to another thread's MMA through a flag, with the tcgen05 fences (9.7.16.6.3)") {
  const std::string relaxed_set = "st.relaxed.cta.shared.u32", relaxed_wait = "ld.relaxed.cta.shared.u32";
  const std::string release_set = "st.release.cta.shared.u32", acquire_wait = "ld.acquire.cta.shared.u32";
  const auto ordered = mma_through_flag(relaxed_set, relaxed_wait, true, true);
  CHECK(race_free(ordered));
  CHECK(ordered.accesses > 128 * 32);
  CHECK(race_free(mma_through_flag(release_set, acquire_wait, true, true)));
  CHECK(race_free(mma_through_flag(relaxed_set, relaxed_wait, false, true, true)));  // the commit's implicit fence
  // Each fence left out: the second MMA's accesses of D race with the first's. Even with st.release / ld.acquire:
  // the first MMA has not completed when the flag is set, and a release orders only what precedes it (8.8), which
  // for an asynchronous tcgen05 operation takes tcgen05.fence::before_thread_sync (9.7.16.6.3).
  struct Variant {
    std::string set, wait;
    bool before, after;
  };
  for (const Variant& v : {Variant{relaxed_set, relaxed_wait, false, true}, Variant{relaxed_set, relaxed_wait, true, false},
                           Variant{release_set, acquire_wait, false, true}, Variant{release_set, acquire_wait, true, false},
                           Variant{"st.shared.u32", relaxed_wait, true, true}}) {  // a weak st: not morally strong (8.7)
    CAPTURE(v.set);
    CAPTURE(v.before);
    CAPTURE(v.after);
    const auto r = mma_through_flag(v.set, v.wait, v.before, v.after);
    REQUIRE(r.run.ok());
    const auto pairs = pairs_of(r);
    const auto mmas = std::find(pairs.begin(), pairs.end(), "tcgen05.mma/tensor memory <-> tcgen05.mma/tensor memory");
    REQUIRE(mmas != pairs.end());
    // Only the after_thread_sync missing: the flag had brought the first MMA, and the report says what is missing.
    const bool fence_missing = r.races[mmas - pairs.begin()].note.find("tcgen05.fence::after_thread_sync") != std::string::npos;
    CHECK(fence_missing == (v.before && !v.after));
  }
}

// 9.7.16.6.4.4's last example, "The synchronization mechanisms can also be composed with each other": thread 0
// issues the MMA and commits it to mbar, waits for it with try_wait.relaxed, tcgen05.fence::after_thread_sync ("//
// completion is guaranteed"), tcgen05.fence::before_thread_sync and mbarrier.arrive.relaxed on mbar2; every thread
// waits on mbar2 with try_wait.relaxed, tcgen05.fence::after_thread_sync and reads D with tcgen05.ld. The MMA's
// completion, known to thread 0 only through the relaxed wait and its fence, must reach the other threads.
TEST_CASE("race checker: the composed pattern of 9.7.16.6.4.4 (commit, relaxed wait, fences, relaxed arrive) orders D") {
  Case c{kF16, kF16};
  c.sa = kmajor_a(128);
  c.sb = kmajor(128, false);
  const std::string wait =
      "WAIT:\n  mbarrier.try_wait.parity.shared.b64 %p1, [mbar], 0;\n  @!%p1 bra WAIT;\n  tcgen05.fence::after_thread_sync;\n";
  auto composed = [&](bool before) {
    return race_case(c, {kProxyFence, {"  .shared .align 8 .b64 mbar;\n", "  .shared .align 8 .b64 mbar;\n  .shared .align 8 .b64 mbar2;\n"},
                         {"mbarrier.init.shared.b64 [mbar], 1;\n", "mbarrier.init.shared.b64 [mbar], 1;\n  mbarrier.init.shared.b64 [mbar2], 1;\n"},
                         {wait, "  setp.ne.u32 %p3, %r1, 0;\n  @%p3 bra WAIT2;\n"
                                "WAIT:\n  mbarrier.try_wait.parity.relaxed.cta.shared::cta.b64 %p1, [mbar], 0;\n  @!%p1 bra WAIT;\n"
                                "  tcgen05.fence::after_thread_sync;\n" +
                                    std::string(before ? "  tcgen05.fence::before_thread_sync;\n" : "") +
                                    "  mbarrier.arrive.relaxed.cta.shared::cta.b64 %rd13, [mbar2];\n"
                                    "WAIT2:\n  mbarrier.try_wait.parity.relaxed.cta.shared::cta.b64 %p1, [mbar2], 0;\n  @!%p1 bra WAIT2;\n"
                                    "  tcgen05.fence::after_thread_sync;\n"}});
  };
  CHECK(race_free(composed(true)));
  // Without thread 0's before_thread_sync its relaxed arrive carries nothing of the MMA: the loads of D race with it.
  const auto r = composed(false);
  REQUIRE(r.run.ok());
  const auto pairs = pairs_of(r);
  CHECK(std::find(pairs.begin(), pairs.end(), "tcgen05.ld/tensor memory <-> tcgen05.mma/tensor memory") != pairs.end());
}
