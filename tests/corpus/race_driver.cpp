// Corpus driver for `ptxcheck race`: every compiling row of the four race corpora with the MANIFEST's launch
// arguments, a confusion matrix per corpus against `expected`, unknowns and nvcc time apart; exits 1 below the
// floors in tests/corpus/race_floors.txt (correct verdicts, and a ceiling on false "race-free" verdicts), and on
// any disagreement with the corpus that checker/race/deviations.tsv does not list (issue 6: an undocumented
// disagreement is a failure).
#include "manifest.hpp"
#include "race_launch.hpp"
#include "checker/race/run.hpp"
#include "semantics/support/allocator.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <regex>
#include <set>
#include <thread>

namespace fs = std::filesystem;
using namespace ptxcheck;

namespace {
struct Job {
  std::string set, name, expected;
  fs::path file;
  CudaOptions cuda;
  RaceLaunch launch;
};

Job make_job(const std::string& set, const fs::path& dir, const corpus::Row& row) {
  RaceLaunch l = race_launch(set, dir, row);
  Job j{set, row.at("path") + (l.label.empty() ? "" : " " + l.label), row.at("expected"), dir / row.at("path"),
        corpus::compile_options(dir, row), l};
  if (row.count("nvcc_extra_flags") && !row.at("nvcc_extra_flags").empty()) j.name += " [" + row.at("nvcc_extra_flags") + "]";
  return j;
}

// A rated row's verdict matches the expected one; a racy kernel may also be reported by its barrier divergence.
bool matches(const std::string& expected, const std::string& got) {
  return got == expected || (expected == "race" && got == "barrier-divergence");
}

bool rated(const std::string& expected, const std::string& got) { return expected != "other-error" && got != "no-kernel"; }

// checker/race/deviations.tsv, keyed by the row name the driver prints: what the corpus expects, what the PTX
// model decides (DEVIATIONS.md section 1 where the two differ), what ptxcheck answers where that differs from
// the model (section 2), and the DEVIATIONS.md heading that explains it.
struct LedgerEntry {
  std::string corpus, model, ptxcheck, section;
};

std::map<std::string, LedgerEntry> read_ledger(const fs::path& dir) {
  std::ifstream md(dir / "DEVIATIONS.md");
  if (!md) throw std::runtime_error("cannot read " + (dir / "DEVIATIONS.md").string());
  std::vector<std::string> headings;
  for (std::string line; std::getline(md, line);)
    if (line.rfind("## ", 0) == 0 || line.rfind("### ", 0) == 0) headings.push_back(line.substr(line.find(' ') + 1));
  std::map<std::string, LedgerEntry> ledger;
  for (const auto& row : corpus::read_manifest(dir / "deviations.tsv")) {
    const std::string& section = row.at("section");
    bool known = std::any_of(headings.begin(), headings.end(), [&](const std::string& h) { return h.find(section) != std::string::npos; });
    if (!known || (row.at("model") == row.at("corpus") && row.at("ptxcheck").empty()))
      throw std::runtime_error("deviations.tsv: row " + row.at("row") + (known ? " records no disagreement" : ": no DEVIATIONS.md heading '" + section + "'"));
    ledger[row.at("row")] = {row.at("corpus"), row.at("model"), row.at("ptxcheck"), section};
  }
  return ledger;
}

std::map<std::string, int> read_floors(const fs::path& p) {
  std::map<std::string, int> floors;
  std::ifstream in(p);
  for (std::string key; in >> key;) {
    if (key[0] == '#') { std::getline(in, key); continue; }
    in >> floors[key];
  }
  return floors;
}
struct Verdict {
  std::string set, name, expected, got;
};

// What running every job gave: the confusion matrix (set -> expected -> got -> count), a line per row, and
// the times and budgets used.
struct Outcome {
  std::map<std::string, std::map<std::string, std::map<std::string, int>>> matrix;
  std::vector<std::string> lines;
  std::vector<Verdict> verdicts;
  std::vector<double> times;
  double nvcc = 0;
  double max_cpu = 0;  // per kernel: the checking thread's CPU seconds, Z3 and replay included
  std::string max_cpu_row;
};

// The verdict name of a file's result.
std::string verdict_of(const race::FileResult& r) {
  std::string got = r.exit_code == 0 ? "no-race" : r.exit_code == 3 ? "unknown" : r.exit_code == 2 ? (r.error == "no kernel" ? "no-kernel" : "error") : "race";
  if (r.exit_code == 1) {  // barrier divergence only when no kernel of the file has a race
    got = "barrier-divergence";
    for (const auto& k : r.kernels)
      if (std::string(race::verdict_name(k)) == "race") got = "race";
  }
  return got;
}

// Runs the jobs on `jobs` threads, each kernel under `budget`'s CPU seconds.
Outcome run_jobs(const std::vector<Job>& work, unsigned jobs, const race::Options& budget) {
  Outcome out;
  std::mutex mutex;
  // Rows of one file run one at a time: the first compiles it and fills the PTX cache, the others read the
  // cache instead of running nvcc again.
  std::map<std::string, std::mutex> per_file;
  for (const auto& j : work) per_file[j.file.string()];
  std::atomic<std::size_t> next{0};
  auto worker = [&]() {
    for (std::size_t i; (i = next++) < work.size();) {
      const Job& job = work[i];
      if (std::getenv("PTXCHECK_RACE_VERBOSE")) std::cerr << "start " << job.set << "/" << job.name << std::endl;
      race::RunOptions o;
      o.cuda = job.cuda;
      apply(job.launch, o.check);
      // The tool's default budget per query (budget.hpp): a resource count, so that the verdicts do not depend on
      // what CTest runs beside this test on the 2 cores.
      o.check.max_seconds = budget.max_seconds;  // per kernel: keeps corpus_race within its CI share (issue 6)
      auto t0 = std::chrono::steady_clock::now();
      std::unique_lock file_lock(per_file.at(job.file.string()));
      race::FileResult r = race::run_file(job.file.string(), o);
      file_lock.unlock();
      double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() - o.nvcc_seconds;
      const std::string got = verdict_of(r);
      std::lock_guard lock(mutex);
      out.matrix[job.set][job.expected][got]++;
      out.verdicts.push_back({job.set, job.name, job.expected, got});
      out.times.push_back(secs);
      out.nvcc += o.nvcc_seconds;
      for (const auto& k : r.kernels)
        if (k.cpu_seconds > out.max_cpu) { out.max_cpu = k.cpu_seconds; out.max_cpu_row = job.set + "/" + job.name + " " + k.kernel; }
      std::string why;
      for (const auto& k : r.kernels) if (!k.unknown_reasons.empty()) { why = k.unknown_reasons.back(); break; }
      if (!r.error.empty()) why = r.error.substr(0, 160);
      out.lines.push_back(job.set + "/" + job.name + ": expected " + job.expected + ", got " + got + " (" + std::to_string(secs) + " s)" + (why.empty() ? "" : " — " + why));
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < std::max(1u, jobs); ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  std::sort(out.lines.begin(), out.lines.end());
  return out;
}

// One corpus's confusion matrix and counts, checked against its floors; false when one is missed.
bool report_set(const std::string& set, const std::map<std::string, std::map<std::string, int>>& m, int not_compiling,
                std::map<std::string, int>& floors) {
  bool ok = true;
  const std::vector<std::string> cols{"race", "barrier-divergence", "no-race", "unknown", "no-kernel", "error"};
  int correct = 0, false_free = 0, total = 0, racy = 0, racy_found = 0;
  std::cout << "\n" << set << " (rows: expected; columns: got)\n  " << std::string(20, ' ');
  for (const auto& c : cols) std::cout << c.substr(0, 10) << std::string(12 - std::min<std::size_t>(10, c.size()), ' ');
  std::cout << "\n";
  for (const auto& [exp, row] : m) {
    std::cout << "  " << exp << std::string(20 - std::min<std::size_t>(19, exp.size()), ' ');
    for (const auto& c : cols) {
      int v = row.count(c) ? row.at(c) : 0;
      std::cout << v << std::string(12 - std::to_string(v).size(), ' ');
      total += v;
      if (!rated(exp, c)) continue;
      if (matches(exp, c)) correct += v;
      if ((exp == "race" || exp == "barrier-divergence") && c == "no-race") false_free += v;
      if (exp == "race") { racy += v; if (c == "race" || c == "barrier-divergence") racy_found += v; }
    }
    std::cout << "\n";
  }
  // Rated: rows with a verdict expected; "no kernel" files (exit 2) are counted apart.
  int rated_rows = 0, no_kernel = 0;
  for (const auto& [exp, row] : m)
    for (const auto& [c, v] : row) {
      if (c == "no-kernel") no_kernel += v;
      if (rated(exp, c)) rated_rows += v;
    }
  std::cout << "  " << set << ": " << correct << " correct of " << rated_rows << " rated rows (" << total << " run, "
            << not_compiling << " not compiling, " << no_kernel << " without a kernel), " << false_free << " false race-free\n";
  std::cout << "  " << set << ": racy kernels found " << racy_found << " of " << racy << "\n";
  if (floors.count(set + ".racy_found") && racy_found < floors[set + ".racy_found"]) {
    std::cout << "  below the floor of " << floors[set + ".racy_found"] << " racy kernels found\n";
    ok = false;
  }
  if (floors.count(set + ".correct") && correct < floors[set + ".correct"]) {
    std::cout << "  below the floor of " << floors[set + ".correct"] << " correct\n";
    ok = false;
  }
  if (floors.count(set + ".false_race_free") && false_free > floors[set + ".false_race_free"]) {
    std::cout << "  more false race-free verdicts than the ceiling " << floors[set + ".false_race_free"] << "\n";
    ok = false;
  }
  return ok;
}

// Against the PTX model: a row agrees when its verdict is the model's (the corpus's unless the ledger records a
// model deviation); every other rated row must be a documented engine shortfall. False when a floor is missed or
// a disagreement is undocumented.
bool check_against_model(const std::vector<Verdict>& verdicts, const std::map<std::string, LedgerEntry>& ledger,
                         const std::string& only, std::map<std::string, int>& floors) {
  bool ok = true;
  std::map<std::string, int> model_agree, model_rated, deviations, shortfalls;
  std::set<std::string> seen;
  std::vector<std::string> ledger_problems;
  for (const auto& v : verdicts) {
    const std::string row = v.set + "/" + v.name;
    auto it = ledger.find(row);
    if (it != ledger.end()) {
      seen.insert(row);
      if (it->second.corpus != v.expected) ledger_problems.push_back(row + ": deviations.tsv says the corpus expects " + it->second.corpus + ", the MANIFEST says " + v.expected);
    }
    if (!rated(v.expected, v.got)) continue;
    const std::string model = it != ledger.end() ? it->second.model : v.expected;
    ++model_rated[v.set];
    if (model != v.expected) ++deviations[v.set];
    if (matches(model, v.got)) {
      ++model_agree[v.set];
      if (it != ledger.end() && !it->second.ptxcheck.empty())
        std::cout << "note: " << row << " now agrees with the PTX model (" << v.got << "): update deviations.tsv and DEVIATIONS.md\n";
    } else if (it != ledger.end() && it->second.ptxcheck == v.got) {
      ++shortfalls[v.set];
    } else {
      ledger_problems.push_back(row + ": expected " + v.expected + (model != v.expected ? " (PTX model: " + model + ")" : "") + ", got " + v.got +
                                ", a disagreement checker/race/deviations.tsv does not list");
    }
  }
  for (const auto& [row, e] : ledger)
    if (!seen.count(row) && (only.empty() || row.rfind(only + "/", 0) == 0)) ledger_problems.push_back(row + ": in deviations.tsv but not a corpus row");
  std::cout << "\nagainst the PTX model's verdicts (checker/race/deviations.tsv):\n";
  for (const auto& [set, n] : model_rated) {
    std::cout << "  " << set << ": " << model_agree[set] << " of " << n << " rated rows agree (" << deviations[set]
              << " where the model decides differently from the corpus); " << shortfalls[set] << " documented engine shortfalls\n";
    if (floors.count(set + ".model_agree") && model_agree[set] < floors[set + ".model_agree"]) {
      std::cout << "  below the floor of " << floors[set + ".model_agree"] << " rows agreeing with the model\n";
      ok = false;
    }
  }
  for (const auto& p : ledger_problems) std::cout << "undocumented: " << p << "\n";
  return ok && ledger_problems.empty();
}

// Every budget holds (issue 37): no kernel past its CPU budget by more than the guard's reaction time (10%), and
// the process within its memory budget. Also prints the check times.
bool report_budgets(const Outcome& out, const race::Options& budget) {
  bool ok = true;
  const double peak_mb = static_cast<double>(ptxcheck::peak_resident_memory_bytes()) / (1024 * 1024);
  std::cout << "\nbudgets: max CPU per kernel " << out.max_cpu << " s (" << out.max_cpu_row << "; budget " << budget.max_seconds
            << " s), process peak memory " << peak_mb << " MB (budget " << budget.memory_mb << " MB)\n";
  if (out.max_cpu > 1.1 * budget.max_seconds) { std::cout << "  a kernel overran its CPU budget\n"; ok = false; }
  if (peak_mb > 1.1 * budget.memory_mb) { std::cout << "  the process overran its memory budget\n"; ok = false; }
  std::vector<double> times = out.times;
  std::sort(times.begin(), times.end());
  double total = 0;
  for (double t : times) total += t;
  if (!times.empty())
    std::cout << "\ncheck time: median " << times[times.size() / 2] << " s, max " << times.back() << " s, total " << total
              << " s over " << times.size() << " runs; nvcc " << out.nvcc << " s apart\n";
  return ok;
}
}  // namespace

int main(int argc, char** argv) {
  ptxcheck::tune_allocator();
  fs::path corpus = argc > 1 ? argv[1] : PTXCHECK_CORPUS_DIR;
  fs::path cache = argc > 2 ? argv[2] : fs::temp_directory_path() / "ptxcheck-corpus-ptx";
  unsigned jobs = argc > 3 ? static_cast<unsigned>(std::stoul(argv[3])) : 2;
  std::string only = argc > 4 ? argv[4] : "";
  auto floors = read_floors(fs::path(PTXCHECK_SOURCE_DIR) / "tests/corpus/race_floors.txt");
  std::map<std::string, LedgerEntry> ledger;
  try {
    ledger = read_ledger(fs::path(PTXCHECK_SOURCE_DIR) / "checker/race");
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  }

  std::vector<Job> work;
  std::map<std::string, int> not_compiling;
  for (std::string set : {"gpuverify-cuda", "faial-drf", "scor", "indigo-hirace"}) {
    if (!only.empty() && only != set) continue;
    for (const auto& row : corpus::read_manifest(corpus / set / "MANIFEST.tsv")) {
      if (!corpus::compiles(row)) { ++not_compiling[set]; continue; }
      Job j = make_job(set, corpus / set, row);
      j.cuda.cache_dir = cache.string();
      work.push_back(std::move(j));
    }
  }
  // 30 CPU-s per kernel: ScoR's racy mm_kernel.cu took from 9.8 to over 14 CPU-s before its race was found
  // (19.4 s wall with 2 jobs; issue 37); at 10 it became unknown in a CI run (2026-11-29), failing the scor floors.
  const race::Options budget = [] { race::Options b; b.max_seconds = 30; return b; }();
  const Outcome out = run_jobs(work, jobs, budget);
  for (const auto& l : out.lines) std::cout << l << "\n";

  bool ok = true;
  for (const auto& [set, m] : out.matrix) ok &= report_set(set, m, not_compiling[set], floors);
  ok &= check_against_model(out.verdicts, ledger, only, floors);
  ok &= report_budgets(out, budget);
  return ok ? 0 : 1;
}
