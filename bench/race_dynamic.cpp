// bench_race_dynamic: speed of the dynamic race engine (`ptxcheck race --launch`, checker/race/dynamic.hpp) on two
// kernels of bench/kernels.hpp, 64 CTAs x 256 threads each: the shared-memory reduction (barriers) and the
// last-block reduction (__threadfence() in every thread, an atomic counter). Baselines measured in the same run: the
// interpreter alone with its fast path (as `ptxcheck run`), and without it (the engine turns the fast path off to
// see every access). Prints memory operations checked per second, the slowdowns and the peak memory of the process.
// Checks its answers: both kernels are race free, and each racy variant (the reduction without its first bar.sync,
// the last block storing every sum to out[0]) races.
// Usage: bench_race_dynamic [repetitions] (default 3; the best time is kept: the machine is shared).
#include "bench/params.hpp"
#include "bench/kernels.hpp"
#include "checker/race/dynamic.hpp"
#include "semantics/ir/build.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <sys/resource.h>

namespace {
using ptxcheck::bench::buffer_param;
double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

ptx::ir::Module load(const std::string& text) {
  auto r = ptx::ir::load_ptx(text, "bench.ptx");
  if (!r) {
    for (const auto& e : r.errors) std::cerr << e.render() << "\n";
    std::exit(2);
  }
  return *r.module;
}

template <class F> double best_of(int reps, F&& f) {
  double best = 1e30;
  for (int i = 0; i < reps; ++i) {
    double t0 = now();
    f();
    best = std::min(best, now() - t0);
  }
  return best;
}

// Times one workload and checks its answers: `text` race free, `racy_text` racing. Returns whether both held.
bool measure(const char* title, const std::string& text, const std::string& racy_text, const ptx::interp::Launch& l, int reps) {
  using namespace ptx::interp;
  auto m = load(text);
  Options fast, slow;
  slow.fast_path = false;
  const double t_fast = best_of(reps, [&] { run(m, l, fast); });
  const double t_slow = best_of(reps, [&] { run(m, l, slow); });
  ptxcheck::race::DynamicResult d;
  const double t_race = best_of(reps, [&] { d = ptxcheck::race::check_execution(m, l, {}); });
  auto dr = ptxcheck::race::check_execution(load(racy_text), l, {});
  const bool checked = d.run.ok() && d.races.empty() && dr.run.ok() && !dr.races.empty();

  std::printf("%s, %u x %u threads, best of %d\n", title, l.grid[0], l.block[0], reps);
  std::printf("  interpreter, fast path (ptxcheck run)   %8.4f s\n", t_fast);
  std::printf("  interpreter, no fast path               %8.4f s\n", t_slow);
  std::printf("  dynamic race engine                     %8.4f s  %6.1f M memory ops checked/s  %5.1fx run  %5.1fx no-fast-path\n",
              t_race, static_cast<double>(d.accesses) / t_race / 1e6, t_race / t_fast, t_race / t_slow);
  std::printf("  answers %s (race free: %zu races; racy variant: %zu races)\n", checked ? "checked" : "WRONG", d.races.size(),
              dr.races.size());
  return checked;
}

std::string without(std::string text, const std::string& what, const std::string& with = "") {
  text.replace(text.find(what), what.size(), with);
  return text;
}
}  // namespace

int main(int argc, char** argv) {
  using namespace ptx::interp;
  const int reps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
  const std::uint32_t blocks = 64, threads = 256;
  auto zeros = [](std::size_t n) { return std::vector<std::uint8_t>(n, 0); };

  Launch reduce;
  reduce.kernel = "reduce";
  reduce.grid = {blocks, 1, 1};
  reduce.block = {threads, 1, 1};
  std::vector<std::uint8_t> in(blocks * threads * 4);
  for (std::size_t i = 0; i < in.size(); i += 4) in[i] = static_cast<std::uint8_t>(i / 4);
  reduce.buffers = {{"in", in}, {"out", zeros(blocks * 4)}};
  reduce.params = {buffer_param("in"), buffer_param("out")};
  const std::string kReduce = ptxcheck::bench::kReduce;
  bool ok = measure("shared-memory reduction", kReduce, without(kReduce, "bar.sync 0;"), reduce, reps);

  Launch last = reduce;
  last.kernel = "last_block";
  last.buffers = {{"partial", zeros(blocks * threads * 4)}, {"count", zeros(4)}, {"out", zeros(threads * 4)}};
  last.params = {buffer_param("partial"), buffer_param("count"), buffer_param("out")};
  const std::string kLast = ptxcheck::bench::kLastBlock;
  ok = measure("last-block reduction, __threadfence() in every thread", kLast, without(kLast, "st.global.u32 [%rd9]", "st.global.u32 [%rd3]"),
               last, reps) && ok;

  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf("peak memory of this process: %.0f MB\n", usage.ru_maxrss / 1024.0);
  return ok ? 0 : 1;
}
