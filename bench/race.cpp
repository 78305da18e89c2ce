// bench_race: `ptxcheck race` over the four shared race corpora (launch shapes as in corpus_race); prints the
// median, max and total checking time per file, with nvcc time apart (baseline: nvcc -ptx on the same files).
#include "checker/race/run.hpp"
#include "../tests/corpus/manifest.hpp"
#include "../tests/corpus/race_launch.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <set>

namespace fs = std::filesystem;
using namespace ptxcheck;

int main(int argc, char** argv) {
  fs::path corpus_dir = argc > 1 ? argv[1] : PTXCHECK_CORPUS_DIR;
  fs::path cache = argc > 2 ? argv[2] : fs::temp_directory_path() / "ptxcheck-bench-race-ptx";
  std::vector<double> check, nvcc;
  std::string slowest;
  double slowest_t = 0;
  for (std::string set : {"gpuverify-cuda", "faial-drf", "scor", "indigo-hirace"}) {
    std::set<std::string> seen;
    for (const auto& row : corpus::read_manifest(corpus_dir / set / "MANIFEST.tsv")) {
      if (!corpus::compiles(row)) continue;
      race::RunOptions o;
      o.cuda = corpus::compile_options(corpus_dir / set, row);
      o.cuda.cache_dir = cache.string();
      RaceLaunch l = race_launch(set, corpus_dir / set, row);
      apply(l, o.check);
      o.check.max_seconds = 10;  // the limits of corpus_race
      if (!seen.insert(row.at("path") + row.at("nvcc_extra_flags") + l.label).second) continue;
      auto file = (corpus_dir / set / row.at("path")).string();
      auto t1 = std::chrono::steady_clock::now();
      race::run_file(file, o);
      auto t2 = std::chrono::steady_clock::now();
      double n = o.nvcc_seconds;  // nvcc (or the PTX cache) apart
      double c = std::max(0.0, std::chrono::duration<double>(t2 - t1).count() - o.nvcc_seconds);
      nvcc.push_back(n);
      check.push_back(c);
      if (c > slowest_t) { slowest_t = c; slowest = set + "/" + row.at("path"); }
    }
  }
  auto stats = [](std::vector<double> v, const char* what) {
    std::sort(v.begin(), v.end());
    double total = 0;
    for (double x : v) total += x;
    std::cout << what << ": " << v.size() << " files, median " << v[v.size() / 2] << " s, max " << v.back()
              << " s, total " << total << " s\n";
    return total;
  };
  if (check.empty()) return 1;
  double c = stats(check, "race check (nvcc excluded)");
  double n = stats(nvcc, "nvcc -ptx (cached when run before)");
  std::cout << "slowest: " << slowest << " (" << slowest_t << " s); check / nvcc = " << (n > 0 ? c / n : 0) << "\n";
  return 0;
}
