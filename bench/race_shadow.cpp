// bench_race_shadow: memory and speed of the dynamic race engine's access histories (checker/race/shadow.hpp) on a
// kernel that touches many bytes: c[i] = a[i] + b[i] over N floats, one element a thread (4-byte loads and stores)
// or four (16-byte vector ones). Each workload runs in a child process of its own: the interpreter alone first
// (the baseline, in the same run: `ptxcheck run`'s time, and the memory the launch needs without the checker),
// then the engine. Prints, per workload: the bytes the kernel touches, the engine's peak memory above the
// baseline's per byte touched, the seconds and memory operations checked per second of both, and whether the
// histories held every byte (not "truncated"). Builds against an engine without DynamicResult::shadow_bytes too
// (an older checkout: the figure is then left out), so that before and after run the same program.
// Usage: bench_race_shadow [N (default 262144)] [workloads: scalar,vector (default both)]
#include "bench/params.hpp"
#include "checker/race/dynamic.hpp"
#include "semantics/ir/build.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {
using ptxcheck::bench::buffer_param;

const char* kAdd = R"(
.version 7.0
.target sm_70
.address_size 64
.visible .entry add1(.param .u64 a, .param .u64 b, .param .u64 c)
{
  .reg .u32 %r<4>; .reg .f32 %f<4>; .reg .u64 %rd<8>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mad.lo.u32 %r3, %r2, 256, %r1;
  mul.wide.u32 %rd1, %r3, 4;
  ld.param.u64 %rd2, [a];
  ld.param.u64 %rd3, [b];
  ld.param.u64 %rd4, [c];
  add.u64 %rd5, %rd2, %rd1;
  add.u64 %rd6, %rd3, %rd1;
  add.u64 %rd7, %rd4, %rd1;
  ld.global.f32 %f1, [%rd5];
  ld.global.f32 %f2, [%rd6];
  add.f32 %f3, %f1, %f2;
  st.global.f32 [%rd7], %f3;
  ret;
}
.visible .entry add4(.param .u64 a, .param .u64 b, .param .u64 c)
{
  .reg .u32 %r<4>; .reg .f32 %f<12>; .reg .u64 %rd<8>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mad.lo.u32 %r3, %r2, 256, %r1;
  mul.wide.u32 %rd1, %r3, 16;
  ld.param.u64 %rd2, [a];
  ld.param.u64 %rd3, [b];
  ld.param.u64 %rd4, [c];
  add.u64 %rd5, %rd2, %rd1;
  add.u64 %rd6, %rd3, %rd1;
  add.u64 %rd7, %rd4, %rd1;
  ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd5];
  ld.global.v4.f32 {%f5, %f6, %f7, %f8}, [%rd6];
  add.f32 %f1, %f1, %f5;
  add.f32 %f2, %f2, %f6;
  add.f32 %f3, %f3, %f7;
  add.f32 %f4, %f4, %f8;
  st.global.v4.f32 [%rd7], {%f1, %f2, %f3, %f4};
  ret;
}
)";

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
double peak_mb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024.0;
}
template <class R> double shadow_mb(const R& r) {
  if constexpr (requires { r.shadow_bytes; }) return static_cast<double>(r.shadow_bytes) / (1 << 20);
  else return -1;
}

// One workload, in this (child) process: prints its line, returns whether the answers held (no race, the sums right).
bool measure(const std::string& kernel, std::uint64_t n) {
  using namespace ptx::interp;
  auto built = ptx::ir::load_ptx(kAdd, "bench.ptx");
  if (!built) return false;
  const std::uint32_t per_thread = kernel == "add4" ? 4 : 1;
  Launch l;
  l.kernel = kernel;
  l.block = {256, 1, 1};
  l.grid = {static_cast<std::uint32_t>(n / per_thread / 256), 1, 1};
  std::vector<std::uint8_t> a(n * 4), b(n * 4), c(n * 4, 0);
  for (std::uint64_t i = 0; i < n; ++i) {
    const float x = static_cast<float>(i), y = 2.0f;
    std::memcpy(&a[i * 4], &x, 4);
    std::memcpy(&b[i * 4], &y, 4);
  }
  l.buffers = {{"a", a}, {"b", b}, {"c", c}};
  l.params = {buffer_param("a"), buffer_param("b"), buffer_param("c")};
  double t0 = now();
  RunResult plain = run(*built.module, l, Options{});
  const double t_run = now() - t0;
  const double base_mb = peak_mb();
  t0 = now();
  ptxcheck::race::DynamicResult d = ptxcheck::race::check_execution(*built.module, l, {});
  const double t_race = now() - t0;
  const double extra_mb = peak_mb() - base_mb;
  const double touched = 3.0 * 4 * n;
  bool sums = plain.ok() && d.run.ok();
  const std::uint8_t* out = nullptr;
  for (const auto& [name, bytes] : d.run.buffers)
    if (name == "c") out = bytes.data();
  sums = sums && out;
  for (std::uint64_t i = 0; sums && i < n; i += 997) {
    float got;
    std::memcpy(&got, out + i * 4, 4);
    sums = got == static_cast<float>(i) + 2.0f;
  }
  std::printf("%s, %llu floats (%.1f MiB touched), %u threads\n", kernel == "add4" ? "16-byte vectors" : "4-byte scalars",
              static_cast<unsigned long long>(n), touched / (1 << 20), l.grid[0] * 256);
  std::printf("  interpreter alone (baseline)  %8.2f s  peak %7.0f MB\n", t_run, base_mb);
  std::printf("  dynamic race engine           %8.2f s  %5.2f M memory ops checked/s  +%7.0f MB peak = %6.1f B per byte touched%s\n",
              t_race, static_cast<double>(d.accesses) / t_race / 1e6, extra_mb, extra_mb * (1 << 20) / touched,
              d.truncated ? "  TRUNCATED (history limit: bytes left unchecked)" : "");
  if (shadow_mb(d) >= 0)
    std::printf("  access histories              %7.1f MiB = %6.1f B per byte touched\n", shadow_mb(d), shadow_mb(d) * (1 << 20) / touched);
  std::printf("  answers %s (%zu races)\n", sums && d.races.empty() ? "checked" : "WRONG", d.races.size());
  return sums && d.races.empty();
}

}  // namespace

int main(int argc, char** argv) {
  const std::uint64_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 262144;
  const std::string which = argc > 2 ? argv[2] : "scalar,vector";
  if (n % 1024) {
    std::fprintf(stderr, "N must be a multiple of 1024\n");
    return 2;
  }
  bool ok = true;
  for (const char* k : {"add1", "add4"}) {
    if (which.find(std::string(k) == "add1" ? "scalar" : "vector") == std::string::npos) continue;
    std::fflush(stdout);
    const pid_t child = fork();
    if (child == 0) {
      const bool held = measure(k, n);
      std::fflush(stdout);
      std::_Exit(held ? 0 : 1);
    }
    int status = 0;
    waitpid(child, &status, 0);
    ok = ok && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  }
  return ok ? 0 : 1;
}
