// bench_race_dynamic: speed of the dynamic race engine (`ptxcheck race --launch`, checker/race/dynamic.hpp) on the
// shared-memory reduction of bench/kernels.hpp, 64 CTAs x 256 threads, against two baselines measured in the
// same run: the interpreter alone with its fast path (as `ptxcheck run`), and without it (the engine turns the
// fast path off to see every access). Prints memory operations checked per second and the slowdowns. Checks its
// answers: the kernel is race free, and the same kernel without its first bar.sync races.
// Usage: bench_race_dynamic [repetitions] (default 3; the best time is kept: the machine is shared).
#include "bench/kernels.hpp"
#include "checker/race/dynamic.hpp"
#include "semantics/ir/build.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

namespace {
double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

ptx::ir::Module load(const std::string& text) {
  auto r = ptx::ir::load_ptx(text, "reduce.ptx");
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
}  // namespace

int main(int argc, char** argv) {
  using namespace ptx::interp;
  const int reps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
  const std::uint32_t blocks = 64, threads = 256;
  Launch l;
  l.kernel = "reduce";
  l.grid = {blocks, 1, 1};
  l.block = {threads, 1, 1};
  std::vector<std::uint8_t> in(blocks * threads * 4);
  for (std::size_t i = 0; i < in.size(); i += 4) in[i] = static_cast<std::uint8_t>(i / 4);
  l.buffers = {{"in", in}, {"out", std::vector<std::uint8_t>(blocks * 4)}};
  l.params = {ParamValue{"in", {}, 0}, ParamValue{"out", {}, 0}};

  const std::string text = ptxcheck::bench::kReduce;
  auto m = load(text);
  Options fast, slow;
  slow.fast_path = false;
  const double t_fast = best_of(reps, [&] { run(m, l, fast); });
  const double t_slow = best_of(reps, [&] { run(m, l, slow); });
  ptxcheck::race::DynamicResult d;
  const double t_race = best_of(reps, [&] { d = ptxcheck::race::check_execution(m, l, {}); });

  // The racy variant: the first bar.sync (between the stores to buf and the reduction's loads) removed.
  std::string racy_text = text;
  racy_text.replace(racy_text.find("bar.sync 0;"), 11, "");
  auto racy = load(racy_text);
  auto dr = ptxcheck::race::check_execution(racy, l, {});
  const bool checked = d.run.ok() && d.races.empty() && dr.run.ok() && !dr.races.empty();

  std::printf("dynamic race engine, reduce 64 x 256 threads, best of %d\n", reps);
  std::printf("  interpreter, fast path (ptxcheck run)   %8.4f s\n", t_fast);
  std::printf("  interpreter, no fast path               %8.4f s\n", t_slow);
  std::printf("  dynamic race engine                     %8.4f s  %6.1f M memory ops checked/s  %5.1fx run  %5.1fx no-fast-path\n",
              t_race, static_cast<double>(d.accesses) / t_race / 1e6, t_race / t_fast, t_race / t_slow);
  std::printf("  answers %s (race free: %zu races; without the first bar.sync: %zu races)\n",
              checked ? "checked" : "WRONG", d.races.size(), dr.races.size());
  return checked ? 0 : 1;
}
