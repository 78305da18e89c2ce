// engine_times MODEL(.cat) JOBS ENGINE(symbolic|explicit) FILE...: runs both litmus engines' entry point
// (run_test) on every file with JOBS threads and prints per-file time and result, then total wall time, median
// and max per test. A measuring tool for the engine (tests/unit/memmodel.cmake), not a test.
#include "litmus/enumerate/enumerate.hpp"
#include "litmus/parse/parse.hpp"
#include "memmodel/cat/parse.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

using namespace ptxcheck;

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: %s MODEL.cat JOBS symbolic|explicit FILE...\n", argv[0]);
    return 2;
  }
  std::vector<Diagnostic> d;
  auto model = cat::load_model(argv[1], cat::base_names(), d);
  if (!model) {
    for (auto& x : d) std::fprintf(stderr, "%s\n", x.render().c_str());
    return 2;
  }
  int jobs = std::max(1, std::atoi(argv[2]));
  litmus::Options opt;
  opt.engine = std::string(argv[3]) == "explicit" ? litmus::Engine::explicit_ : litmus::Engine::symbolic;
  std::vector<std::string> files(argv + 4, argv + argc);
  std::vector<litmus::Result> res(files.size());
  std::atomic<std::size_t> next{0};
  auto t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> pool;
  for (int j = 0; j < jobs; ++j)
    pool.emplace_back([&] {
      for (std::size_t i; (i = next++) < files.size();) {
        std::vector<Diagnostic> dg;
        auto t = litmus::load_litmus(files[i], dg);
        if (!t) { res[i].result = "error"; continue; }
        res[i] = litmus::run_test(*t, *model, opt);
      }
    });
  for (auto& t : pool) t.join();
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::vector<double> ms;
  for (std::size_t i = 0; i < files.size(); ++i) {
    std::printf("%10.2f ms  %-7s %s%s\n", res[i].time_ms, res[i].result.c_str(), files[i].c_str(),
                res[i].reason.empty() ? "" : ("  (" + res[i].reason + ")").c_str());
    ms.push_back(res[i].time_ms);
  }
  std::sort(ms.begin(), ms.end());
  if (!ms.empty())
    std::printf("%zu tests, %d jobs: total %.2f s, median %.2f ms, max %.2f ms\n", ms.size(), jobs, wall,
                ms[ms.size() / 2], ms.back());
  return 0;
}
