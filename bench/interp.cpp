// bench_interp: interpreter speed in lane-instructions per second (issue 4) on (a) a compute-bound loop of
// integer and fp arithmetic, 64 blocks x 256 threads; (b) a shared-memory reduction with barriers, 64 x 256;
// (c) many 64-thread launches of a short zluda-shaped kernel. Each line also gives the slowdown against the
// same computation written in C++ and run natively in the same process (the baseline), and bytes per thread.
// Usage: bench_interp [a|b|c ...] (default: all three).
#include "bench/params.hpp"
#include "bench/kernels.hpp"
#include "semantics/interp/launch.hpp"
#include "semantics/ir/build.hpp"

#include <chrono>
#include <cmath>
#include <cstring>
#include <iostream>
#include <string>

namespace {
using ptxcheck::bench::buffer_param;
using ptxcheck::bench::scalar_param;
using ptxcheck::bench::kReduce;

const char* kCompute = R"(
.version 7.0
.target sm_70
.address_size 64
.visible .entry compute(.param .u64 out, .param .u32 iters)
{
  .reg .u32 %r<8>; .reg .f32 %f<4>; .reg .pred %p; .reg .u64 %rd<4>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mad.lo.u32 %r3, %r2, 256, %r1;
  ld.param.u32 %r4, [iters];
  mov.u32 %r5, 0;
  cvt.rn.f32.u32 %f1, %r3;
  mov.f32 %f2, 0f3F800000;
LOOP:
  mad.lo.u32 %r3, %r3, 1664525, 1013904223;
  xor.b32 %r6, %r3, %r5;
  shr.u32 %r6, %r6, 3;
  add.u32 %r5, %r5, %r6;
  fma.rn.f32 %f2, %f2, 0f3F7FFFFF, %f1;
  mul.f32 %f1, %f1, 0f3F000000;
  sub.u32 %r4, %r4, 1;
  setp.ne.u32 %p, %r4, 0;
  @%p bra LOOP;
  mov.u32 %r1, %tid.x;
  mad.lo.u32 %r7, %r2, 256, %r1;
  mul.wide.u32 %rd1, %r7, 4;
  ld.param.u64 %rd2, [out];
  add.u64 %rd3, %rd2, %rd1;
  cvt.rzi.u32.f32 %r6, %f2;
  add.u32 %r5, %r5, %r6;
  st.global.u32 [%rd3], %r5;
  ret;
}
)";

const char* kShort = R"(
.version 6.5
.target sm_30
.address_size 64
.visible .entry short_kernel(.param .u64 input, .param .u64 output)
{
  .reg .u64 %in; .reg .u64 %out; .reg .u64 %off; .reg .u32 %t; .reg .u32 %v; .reg .u32 %w;
  ld.param.u64 %in, [input];
  ld.param.u64 %out, [output];
  mov.u32 %t, %tid.x;
  mul.wide.u32 %off, %t, 4;
  add.u64 %in, %in, %off;
  add.u64 %out, %out, %off;
  ld.global.u32 %v, [%in];
  mul.lo.u32 %w, %v, %t;
  add.u32 %w, %w, 7;
  xor.b32 %w, %w, %v;
  st.global.u32 [%out], %w;
  ret;
}
)";

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

ptx::ir::Module load(const char* text, const char* name) {
  auto r = ptx::ir::load_ptx(text, name);
  if (!r) {
    for (const auto& e : r.errors) std::cerr << e.render() << "\n";
    std::exit(2);
  }
  return *r.module;
}

struct Figure {
  double lane_per_s = 0, native_s = 0, interp_s = 0;
  std::uint64_t lanes = 0, bytes_per_thread = 0;
  bool ok = false;
};

void print(const char* name, const Figure& f, double target) {
  std::printf("%-44s %8.1f M lane-instr/s  (target %5.0f M: %5.2fx)  %6.0fx native  %llu B/thread  %s\n", name,
              f.lane_per_s / 1e6, target / 1e6, f.lane_per_s / target, f.interp_s / f.native_s,
              static_cast<unsigned long long>(f.bytes_per_thread), f.ok ? "output checked" : "OUTPUT WRONG");
}
}  // namespace

int main(int argc, char** argv) {
  using namespace ptx::interp;
  auto wanted = [&](const char* which) {
    if (argc < 2) return true;
    for (int i = 1; i < argc; ++i)
      if (std::string(argv[i]) == which) return true;
    return false;
  };
  // (a) compute-bound
  if (wanted("a")) {
    auto m = load(kCompute, "compute.ptx");
    const std::uint32_t iters = 200, blocks = 64, threads = 256;
    Launch l;
    l.kernel = "compute";
    l.grid = {blocks, 1, 1};
    l.block = {threads, 1, 1};
    l.buffers = {{"out", std::vector<std::uint8_t>(blocks * threads * 4)}};
    l.params = {buffer_param("out"), scalar_param(ptx::ir::ScalarType::u32, iters)};
    RunResult r;
    double best = 1e9;
    for (int rep = 0; rep < 3; ++rep) {  // best of 3: the machine is shared
      double t0 = now();
      r = run(m, l);
      best = std::min(best, now() - t0);
    }
    // The same computation natively (float arithmetic in the same order: fma then mul, round-to-nearest).
    std::vector<std::uint32_t> want(blocks * threads);
    double n0 = now();
    for (std::uint32_t i = 0; i < blocks * threads; ++i) {
      volatile std::uint32_t x = i, s = 0;
      volatile float f1 = static_cast<float>(i), f2 = 1.0f;
      for (std::uint32_t k = 0; k < iters; ++k) {
        x = x * 1664525u + 1013904223u;
        s = s + ((x ^ s) >> 3);
        f2 = std::fma(f2, 0x1.fffffep-1f, f1);
        f1 = f1 * 0.5f;
      }
      float fv = f2;
      std::uint32_t c = fv <= 0 ? 0 : fv >= 4294967296.0f ? 0xffffffffu : static_cast<std::uint32_t>(fv);
      want[i] = s + c;
    }
    double n1 = now();
    Figure f;
    f.lanes = r.stats.lane_instructions;
    f.interp_s = best;
    f.native_s = n1 - n0;
    f.lane_per_s = static_cast<double>(f.lanes) / f.interp_s;
    f.bytes_per_thread = r.stats.bytes_per_thread;
    f.ok = r.ok() && std::memcmp(r.buffers[0].second.data(), want.data(), want.size() * 4) == 0;
    print("(a) compute loop, 64 x 256 threads", f, 500e6);
  }
  // (b) shared-memory reduction with barriers
  if (wanted("b")) {
    auto m = load(kReduce, "reduce.ptx");
    const std::uint32_t blocks = 64, threads = 256;
    std::vector<std::uint8_t> in(blocks * threads * 4);
    for (std::uint32_t i = 0; i < blocks * threads; ++i) {
      std::uint32_t v = i * 2654435761u;
      std::memcpy(&in[i * 4], &v, 4);
    }
    Launch l;
    l.kernel = "reduce";
    l.grid = {blocks, 1, 1};
    l.block = {threads, 1, 1};
    l.buffers = {{"in", in}, {"out", std::vector<std::uint8_t>(blocks * 4)}};
    l.params = {buffer_param("in"), buffer_param("out")};
    double best = 1e9;
    RunResult r;
    for (int rep = 0; rep < 3; ++rep) {
      double t0 = now();
      r = run(m, l);
      best = std::min(best, now() - t0);
    }
    double n0 = now();
    std::vector<std::uint32_t> want(blocks);
    for (int rep = 0; rep < 100; ++rep)
      for (std::uint32_t b = 0; b < blocks; ++b) {
        volatile std::uint32_t buf[256];
        for (std::uint32_t t = 0; t < threads; ++t) buf[t] = (b * 256 + t) * 2654435761u;
        for (std::uint32_t s = 128; s; s >>= 1)
          for (std::uint32_t t = 0; t < s; ++t) buf[t] = buf[t] + buf[t + s];
        want[b] = buf[0];
      }
    double n1 = now();
    Figure f;
    f.lanes = r.stats.lane_instructions;
    f.interp_s = best;
    f.native_s = (n1 - n0) / 100;
    f.lane_per_s = static_cast<double>(f.lanes) / best;
    f.bytes_per_thread = r.stats.bytes_per_thread;
    f.ok = r.ok() && std::memcmp(r.buffers[1].second.data(), want.data(), blocks * 4) == 0;
    print("(b) shared reduction + bar.sync, 64 x 256", f, 100e6);
  }
  // (c) 64-thread launches of a short kernel, setup included
  if (wanted("c")) {
    auto m = load(kShort, "short.ptx");
    std::vector<std::uint8_t> in(64 * 4);
    for (std::uint32_t i = 0; i < 64; ++i) std::memcpy(&in[i * 4], &i, 4);
    Launch l;
    l.kernel = "short_kernel";
    l.block = {64, 1, 1};
    l.dynamic_shared_bytes = 1024;
    l.buffers = {{"input", in}, {"output", std::vector<std::uint8_t>(64 * 4)}};
    l.params = {buffer_param("input"), buffer_param("output")};
    const int launches = 2000;
    std::uint64_t lanes = 0;
    RunResult r;
    double best = 1e9;
    for (int rep = 0; rep < 3; ++rep) {
      lanes = 0;
      double t0 = now();
      for (int k = 0; k < launches; ++k) {
        r = run(m, l);
        lanes += r.stats.lane_instructions;
      }
      best = std::min(best, now() - t0);
    }
    double n0 = now();
    volatile std::uint32_t sink = 0;
    for (int k = 0; k < launches; ++k)
      for (std::uint32_t i = 0; i < 64; ++i) sink = sink + (((i * i) + 7) ^ i);
    double n1 = now();
    bool ok = r.ok();
    for (std::uint32_t i = 0; i < 64 && ok; ++i) {
      std::uint32_t v;
      std::memcpy(&v, &r.buffers[1].second[i * 4], 4);
      ok = v == (((i * i) + 7) ^ i);
    }
    Figure f;
    f.lanes = lanes;
    f.interp_s = best;
    f.native_s = n1 - n0;
    f.lane_per_s = static_cast<double>(lanes) / f.interp_s;
    f.bytes_per_thread = r.stats.bytes_per_thread;
    f.ok = ok;
    print("(c) 2000 launches of 64 threads, short", f, 50e6);
  }
  return 0;
}
