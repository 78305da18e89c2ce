// bench_litmus: `ptxcheck litmus` over the whole litmus-ptx corpus (every file, CADP included) with
// memmodel/models/ptx.cat and 2 jobs: total wall time, median and max per test, per engine. The explicit
// enumerator is the in-run baseline; tests run in worker processes under a budget per test (over it: unknown).
// Usage: bench_litmus [CORPUS_DIR] [JOBS] [BUDGET_MS]
#include "litmus/driver.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <map>

namespace fs = std::filesystem;
using namespace ptxcheck;

int main(int argc, char** argv) {
  fs::path dir = fs::path(argc > 1 ? argv[1] : PTXCHECK_CORPUS_DIR) / "litmus-ptx" / "tests";
  litmus::RunConfig cfg;
  cfg.jobs = argc > 2 ? std::stoi(argv[2]) : 2;
  cfg.budget_ms = argc > 3 ? std::stoll(argv[3]) : 10000;
  std::vector<std::string> files;
  for (auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".litmus") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  std::vector<std::string> errors;
  auto model = litmus::load_named_model("ptx", errors);
  if (!model || files.empty()) {
    for (auto& e : errors) fmt::print(stderr, "{}\n", e);
    fmt::print(stderr, "no model or no files under {}\n", dir.string());
    return 2;
  }
  // The engines measured: the explicit enumerator (the baseline) first, then the symbolic (Z3) engine.
  litmus::Options explicit_opt, symbolic_opt;
  explicit_opt.engine = litmus::Engine::explicit_;
  symbolic_opt.engine = litmus::Engine::symbolic;
  std::vector<std::pair<std::string, litmus::Options>> engines = {{"explicit", explicit_opt}, {"symbolic", symbolic_opt}};
  fmt::print("litmus-ptx: {} files, model ptx.cat, {} jobs, budget {} ms per test\n", files.size(), cfg.jobs,
             cfg.budget_ms);
  std::vector<std::vector<litmus::Result>> all;
  for (auto& [name, opt] : engines) {
    auto t0 = std::chrono::steady_clock::now();
    auto results = litmus::run_files(files, *model, opt, cfg);
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::vector<double> ms;
    std::map<std::string, int> by_result, unknown_why;
    std::size_t slowest = 0;
    for (std::size_t i = 0; i < results.size(); ++i) {
      ms.push_back(results[i].time_ms);
      by_result[results[i].result]++;
      if (results[i].result == "unknown") {
        // The reason without its numbers ("time budget exhausted (N ms)", "loop bound reached (--unroll N)").
        std::string why;
        for (char ch : results[i].reason.substr(0, results[i].reason.find('(')))
          if (!std::isdigit(static_cast<unsigned char>(ch))) why += ch;
        unknown_why[why]++;
      }
      if (results[i].time_ms > results[slowest].time_ms) slowest = i;
    }
    std::vector<double> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    int over_2s = static_cast<int>(std::count_if(ms.begin(), ms.end(), [](double x) { return x > 2000; }));
    fmt::print("{:>9}: total {:.1f} s wall, median {:.1f} ms, max {:.1f} ms ({}), {} tests over 2 s; "
               "holds {}, fails {}, unknown {}, error {}\n",
               name, wall, sorted[sorted.size() / 2], sorted.back(), fs::relative(files[slowest], dir).string(),
               over_2s, by_result["holds"], by_result["fails"], by_result["unknown"], by_result["error"]);
    for (auto& [why, n] : unknown_why) fmt::print("{:>9}  unknown: {} x {}\n", "", n, why);
    all.push_back(std::move(results));
  }
  for (std::size_t e = 1; e < all.size(); ++e) {
    int differ = 0;
    for (std::size_t i = 0; i < files.size(); ++i)
      if (all[e][i].result != all[0][i].result && all[e][i].result != "unknown" && all[0][i].result != "unknown") {
        ++differ;
        fmt::print("DIFFER {}: {} {} vs {} {}\n", files[i], engines[0].first, all[0][i].result, engines[e].first,
                   all[e][i].result);
      }
    fmt::print("{} vs {}: {} definite verdicts differ\n", engines[e].first, engines[0].first, differ);
  }
  return 0;
}
