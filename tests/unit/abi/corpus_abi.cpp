// Corpus driver for `ptxcheck abi`: every compiling race-corpus file that uses atomics, fences or volatile
// is compiled by nvcc and checked against chapter 4. A file passes when no operation is WRONG, MISSING or
// NO-ROW, no prototype or call breaks chapters 1-3, and nvcc/parse succeed (UNKNOWN and unmatched PTX are
// counted, not failures). Floors: abi_floors.txt.
#include "checker/abi/run.hpp"
#include "manifest.hpp"

#include <atomic>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

namespace fs = std::filesystem;
using namespace ptxcheck;
namespace pa = ptxcheck::abi;

int main(int argc, char** argv) {
  fs::path corpus = argc > 1 ? argv[1] : PTXCHECK_CORPUS_DIR;
  fs::path cache = argc > 2 ? argv[2] : fs::temp_directory_path() / "ptxcheck-corpus-ptx";
  unsigned jobs = argc > 3 ? static_cast<unsigned>(std::stoul(argv[3])) : 2;
  std::map<std::string, int> floors;
  {
    std::ifstream in(fs::path(PTXCHECK_SOURCE_DIR) / "tests/unit/abi/abi_floors.txt");
    for (std::string set; in >> set;) {
      if (set[0] == '#') { std::getline(in, set); continue; }
      in >> floors[set];
    }
  }
  struct Job { std::string set, name; pa::AbiRequest req; };
  std::vector<Job> work;
  for (std::string set : {"gpuverify-cuda", "faial-drf", "scor", "indigo-hirace"}) {
    std::set<std::pair<std::string, std::string>> seen;
    for (const auto& row : corpus::read_manifest(corpus / set / "MANIFEST.tsv")) {
      if (!corpus::compiles(row)) continue;
      auto flags = row.count("nvcc_extra_flags") ? row.at("nvcc_extra_flags") : "";
      if (!seen.insert({row.at("path"), flags}).second) continue;
      auto file = corpus / set / row.at("path");
      std::ifstream in(file);
      std::stringstream ss;
      ss << in.rdbuf();
      auto text = ss.str();
      if (text.find("atomic") == std::string::npos && text.find("threadfence") == std::string::npos &&
          text.find("volatile") == std::string::npos)
        continue;
      Job job{set, row.at("path") + (flags.empty() ? "" : " [" + flags + "]"), {}};
      job.req.input = file.string();
      job.req.cuda = corpus::compile_options(corpus / set, row);
      job.req.cuda.cache_dir = cache.string();
      work.push_back(std::move(job));
    }
  }
  std::map<std::string, std::pair<int, int>> score;
  std::map<std::string, std::size_t> verdicts;
  std::size_t unmatched = 0, prototypes = 0, calls = 0, calling_findings = 0;
  std::vector<std::string> failures;
  std::mutex mutex;
  std::atomic<std::size_t> next{0};
  auto worker = [&]() {
    for (std::size_t i; (i = next++) < work.size();) {
      const Job& job = work[i];
      auto run = pa::run_abi(job.req);
      std::lock_guard lock(mutex);
      auto& s = score[job.set];
      std::string problem;
      if (run.error) problem = run.error->render();
      for (const auto& r : run.reports) {
        unmatched += r.unmatched.size();
        prototypes += r.calling.functions;
        calls += r.calling.calls;
        calling_findings += r.calling.findings.size();
        for (const auto& f : r.calling.findings)
          problem += "\n    ptx " + std::to_string(f.line) + ":" + std::to_string(f.column) + " " + f.rule + " " + f.message;
        for (const auto& x : r.results) {
          ++verdicts[pa::verdict_name(x.verdict)];
          if (x.verdict == pa::Verdict::wrong || x.verdict == pa::Verdict::missing || x.verdict == pa::Verdict::no_row)
            problem += "\n    " + std::to_string(x.op.line) + ":" + std::to_string(x.op.column) + " " + pa::describe(x.op) +
                       " " + pa::verdict_name(x.verdict) + " " + x.why;
        }
      }
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
  std::cout << "operations:";
  for (const auto& [v, n] : verdicts) std::cout << " " << n << " " << v;
  std::cout << "; unmatched PTX ordering instructions: " << unmatched << "\n";
  std::cout << "chapters 1-3: " << prototypes << " .func prototypes, " << calls << " calls, " << calling_findings
            << " violations\n";
  std::cout << "total: " << passed << " passed, " << failed << " failed\n";
  return rc;
}
