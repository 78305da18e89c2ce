// Corpus driver for the PTX front end: every zluda-ptx file and the nvcc output of every compiling entry of
// the four race corpora must parse, check, and round-trip (parse -> print -> parse gives the same AST).
// Prints "N passed, N failed" per set; exits 1 when any set falls below its floor (tests/corpus/floors.txt).
#include "manifest.hpp"
#include "semantics/ir/build.hpp"
#include "semantics/ptx/parse.hpp"
#include "semantics/ptx/printer.hpp"
#include "semantics/support/allocator.hpp"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

namespace fs = std::filesystem;
using namespace ptxcheck;

namespace {
struct Job {
  std::string set, name;
  fs::path file;
  CudaOptions cuda;
  bool is_cuda = false;
};

// Empty when the text parses, checks and round-trips; else what went wrong.
std::string check_text(const std::string& text, const std::string& name) {
  auto parsed = ptx::parse_ptx(text, name);
  if (!parsed) return parsed.error->render();
  auto built = ptx::ir::build(*parsed.module);
  if (!built) return built.errors.front().render();
  std::string printed = ptx::print(parsed.module->module);
  auto again = ptx::parse_ptx(printed, name + " (printed)");
  if (!again) return "printed text does not parse: " + again.error->render();
  if (!(again.module->module == parsed.module->module)) return "round trip changed the AST";
  if (!ptx::ir::build(*again.module)) return "printed text does not check";
  return {};
}

std::map<std::string, int> read_floors(const fs::path& p) {
  std::map<std::string, int> floors;
  std::ifstream in(p);
  for (std::string set; in >> set;) {
    if (set[0] == '#') { std::getline(in, set); continue; }
    int n = 0;
    in >> n;
    floors[set] = n;
  }
  return floors;
}
}  // namespace

int main(int argc, char** argv) {
  ptxcheck::tune_allocator();
  fs::path corpus = argc > 1 ? argv[1] : PTXCHECK_CORPUS_DIR;
  fs::path cache = argc > 2 ? argv[2] : fs::temp_directory_path() / "ptxcheck-corpus-ptx";
  unsigned jobs = argc > 3 ? static_cast<unsigned>(std::stoul(argv[3])) : 2;
  auto floors = read_floors(fs::path(PTXCHECK_SOURCE_DIR) / "tests/corpus/floors.txt");

  std::vector<Job> work;
  for (const auto& e : fs::directory_iterator(corpus / "zluda-ptx"))
    if (e.path().extension() == ".ptx") work.push_back({"zluda-ptx", e.path().filename().string(), e.path(), {}, false});
  for (std::string set : {"gpuverify-cuda", "faial-drf", "scor", "indigo-hirace"}) {
    std::set<std::pair<std::string, std::string>> seen;  // (path, flags): some files appear with several verdicts
    for (const auto& row : corpus::read_manifest(corpus / set / "MANIFEST.tsv")) {
      if (!corpus::compiles(row)) continue;
      auto flags = row.count("nvcc_extra_flags") ? row.at("nvcc_extra_flags") : "";
      if (!seen.insert({row.at("path"), flags}).second) continue;
      Job job{set, row.at("path") + (flags.empty() ? "" : " [" + flags + "]"), corpus / set / row.at("path"),
              corpus::compile_options(corpus / set, row), true};
      job.cuda.cache_dir = cache.string();
      work.push_back(std::move(job));
    }
  }
  std::sort(work.begin(), work.end(), [](const Job& a, const Job& b) { return a.set + a.name < b.set + b.name; });

  std::map<std::string, std::pair<int, int>> score;  // set -> (passed, failed)
  std::vector<std::string> failures;
  std::mutex mutex;
  std::atomic<std::size_t> next{0};
  double parse_seconds = 0;
  std::size_t parsed_bytes = 0;
  auto worker = [&]() {
    for (std::size_t i; (i = next++) < work.size();) {
      const Job& job = work[i];
      auto loaded = load_ptx_or_cuda(job.file.string(), job.cuda);
      std::string problem;
      double seconds = 0;
      if (!loaded.text) problem = loaded.error->render();
      else {
        auto t0 = std::chrono::steady_clock::now();
        problem = check_text(*loaded.text, job.file.string());
        seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      }
      std::lock_guard lock(mutex);
      parse_seconds += seconds;
      if (loaded.text) parsed_bytes += loaded.text->size();
      auto& s = score[job.set];
      if (problem.empty()) ++s.first;
      else {
        ++s.second;
        failures.push_back(job.set + "/" + job.name + ": " + problem);
      }
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < std::max(1u, jobs); ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();

  for (const auto& f : failures) std::cout << "FAIL " << f << "\n";
  int rc = 0, passed = 0, failed = 0;
  for (const auto& [set, s] : score) {
    std::cout << set << ": " << s.first << " passed, " << s.second << " failed\n";
    passed += s.first;
    failed += s.second;
    if (floors.count(set) && s.first < floors[set]) {
      std::cout << "  below the recorded floor of " << floors[set] << " passed\n";
      rc = 1;
    }
  }
  for (const auto& [set, floor] : floors)
    if (!score.count(set)) { std::cout << set << ": missing (floor " << floor << ")\n"; rc = 1; }
  std::cout << "parse+check+round-trip: " << parsed_bytes / 1e6 << " MB in " << parse_seconds << " s\n";
  std::cout << "total: " << passed << " passed, " << failed << " failed\n";
  return rc != 0 || failed != 0 ? 1 : 0;
}
