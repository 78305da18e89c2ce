// Corpus driver for litmus-ptx.
//   corpus_litmus CORPUS_DIR MODEL(ptx|file.cat) COLUMN FLOOR [JOBS] [BUDGET_MS]
//     runs every file with a verdict in MANIFEST.tsv's COLUMN under MODEL, in worker processes with a
//     wall-clock budget per test (a slow test is unknown, never a hang), prints "N passed, N failed, N unknown" and
//     lists the files without a verdict in that column; a file listed in tests/corpus/litmus_deviations.tsv
//     (check "verdict") whose result is the one listed there counts as "differ (documented)"; exit 1 when
//     passed < FLOOR or a disagreement is left.
//   corpus_litmus CORPUS_DIR MODEL liveness_ptx_v7_5|liveness_ptx_v6_0 FLOOR [JOBS] [BUDGET_MS]
//     the same for a liveness column (1 = every execution terminates: ok; 0 = some fair execution hangs),
//     compared with the liveness result (docs/litmus-liveness.md); prints "N agree, N disagree, N unknown"
//     with every disagreement and unknown listed; a file listed in tests/corpus/litmus_deviations.tsv (check
//     "liveness") whose result is the one listed there (a spec reading documented in memmodel/models/NOTES.md)
//     counts as "differ (documented)", printed with its reason; exit 1 when agree < FLOOR or a disagreement is
//     left.
//   corpus_litmus CORPUS_DIR parse - FLOOR
//     front-end coverage of every file under tests/: parsed, built into threads and run once over a value set
//     (every unsupported construct is named with its location); prints "N passed, N failed, N unknown" where
//     failed = syntax error, unknown = unsupported construct; exit 1 when passed < FLOOR.
#include "litmus/build/threads.hpp"
#include "litmus/driver.hpp"
#include "litmus/parse/parse.hpp"
#include "manifest.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>

using namespace ptxcheck;
using namespace ptxcheck::litmus;
namespace fs = std::filesystem;

namespace {
// Prints names several to a line.
void print_list(const std::string& title, const std::vector<std::string>& names) {
  fmt::print("{} ({}):\n", title, names.size());
  std::size_t width = 0;
  for (auto& n : names) {
    if (width > 0 && width + n.size() > 116) {
      fmt::print("\n");
      width = 0;
    }
    fmt::print("  {}", n);
    width += n.size() + 2;
  }
  if (width > 0) fmt::print("\n");
}

// Front end only: parse, build, and run every thread over the test's constants (no enumeration).
int parse_mode(const fs::path& dir, int floor) {
  std::vector<std::string> files;
  for (auto& e : fs::recursive_directory_iterator(dir / "tests"))
    if (e.is_regular_file() && e.path().extension() == ".litmus") files.push_back(fs::relative(e.path(), dir).string());
  std::sort(files.begin(), files.end());
  int passed = 0, failed = 0, unknown = 0;
  std::map<std::string, int> unsupported_kinds;
  for (auto& f : files) {
    std::vector<Diagnostic> diags;
    auto t = load_litmus((dir / f).string(), diags);
    if (!t) {
      ++failed;
      fmt::print("FAILED  {}\n", diags.empty() ? f : diags[0].render());
      continue;
    }
    Program p;
    bool ok = build_program(*t, p, diags);
    // Every read may return the initial value or any constant of the test (branches both ways, mostly).
    std::vector<std::set<std::int64_t>> values(p.pnames.size());
    for (std::size_t l = 0; l < values.size(); ++l) values[l] = {p.init[l], 0, 1, 2};
    for (std::size_t ti = 0; ok && ti < p.threads.size(); ++ti) {
      std::vector<Trace> traces;
      ok = thread_traces(*t, p, static_cast<int>(ti), values, 1, traces, diags);
    }
    if (ok) { ++passed; continue; }
    ++unknown;
    std::string msg = diags.empty() ? "unsupported" : diags[0].message;
    unsupported_kinds[msg.substr(0, msg.find('\''))]++;
    fmt::print("UNKNOWN {}\n", diags.empty() ? f : diags[0].render());
  }
  for (auto& [k, n] : unsupported_kinds) fmt::print("  {} x {}\n", n, k);
  fmt::print("litmus-ptx front end: {} files: {} passed, {} failed, {} unknown (floor {})\n", files.size(), passed,
             failed, unknown, floor);
  return passed >= floor ? 0 : 1;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) {
    fmt::print(stderr, "usage: {} CORPUS_DIR MODEL|parse COLUMN FLOOR [JOBS] [BUDGET_MS]\n", argv[0]);
    return 2;
  }
  fs::path dir = fs::path(argv[1]) / "litmus-ptx";
  std::string model_name = argv[2], column = argv[3];
  int floor = std::stoi(argv[4]);
  if (model_name == "parse") return parse_mode(dir, floor);
  RunConfig cfg;
  cfg.jobs = argc > 5 ? std::stoi(argv[5]) : 2;
  cfg.budget_ms = argc > 6 ? std::stoll(argv[6]) : 10000;
  std::vector<std::string> errors;
  auto model = load_named_model(model_name, errors);
  if (!model) {
    for (auto& e : errors) fmt::print(stderr, "{}\n", e);
    return 2;
  }
  auto rows = corpus::read_manifest(dir / "MANIFEST.tsv");
  if (rows.empty() || !rows[0].count(column)) {
    fmt::print(stderr, "{}: no column {}\n", (dir / "MANIFEST.tsv").string(), column);
    return 2;
  }
  std::vector<std::string> files, names, no_verdict;
  std::vector<std::string> expected;
  const bool liveness = column.rfind("liveness_", 0) == 0;
  for (auto& row : rows) {
    const std::string& v = row.at(column);
    if (v.empty()) { no_verdict.push_back(row.at("path")); continue; }
    files.push_back((dir / row.at("path")).string());
    names.push_back(row.at("path"));
    expected.push_back(liveness ? (v == "1" ? "ok" : "hang") : (v == "1" ? "holds" : "fails"));
  }
  // Every file of the corpus is either run here or listed as having no verdict (never silently skipped).
  std::size_t on_disk = 0;
  for (auto& e : fs::recursive_directory_iterator(dir / "tests"))
    if (e.is_regular_file() && e.path().extension() == ".litmus") ++on_disk;
  Options opt;
  auto results = run_files(files, *model, opt, cfg);
  if (liveness) {
    for (auto& r : results) {
      // No liveness line: no loop and no waiting barrier, so every execution terminates.
      if (r.liveness.empty() && r.result != "error" && r.unsupported.empty() && r.reason.find("budget") == std::string::npos)
        r.liveness = "ok";
      r.result = r.liveness.empty() ? "unknown" : r.liveness;
      r.reason = r.liveness.empty() ? (r.reason.empty() ? "not checked" : r.reason) : r.liveness_detail;
      if (r.liveness == "unknown") r.result = "unknown";
    }
  }
  std::map<std::string, corpus::Row> deviations;
  for (auto& row : corpus::read_manifest(fs::path(PTXCHECK_SOURCE_DIR) / "tests/corpus/litmus_deviations.tsv"))
    if (row.at("check") == (liveness ? "liveness" : "verdict")) deviations[row.at("path")] = row;
  int passed = 0, failed = 0, unknown = 0, documented = 0;
  for (std::size_t i = 0; i < results.size(); ++i) {
    auto& r = results[i];
    if (r.result == expected[i]) { ++passed; continue; }
    if (auto d = deviations.find(names[i]); d != deviations.end() && d->second.at("ours") == r.result) {
      ++documented;
      fmt::print("DIFFERS {}: reference {}, ours {} (documented: {})\n", names[i], expected[i], r.result, d->second.at("reason"));
      continue;
    }
    std::string why = r.reason;
    std::replace(why.begin(), why.end(), '\n', ' ');
    if (r.result == "unknown") { ++unknown; fmt::print("UNKNOWN {}: {}\n", names[i], why); continue; }
    ++failed;
    if (why.empty()) fmt::print("FAILED  {}: expected {}, got {}\n", names[i], expected[i], r.result);
    else fmt::print("FAILED  {}: expected {}, got {} ({})\n", names[i], expected[i], r.result, why);
  }
  print_list(fmt::format("litmus-ptx [{} vs {}]: files without a verdict in this column, not run", model_name, column),
             no_verdict);
  fmt::print("litmus-ptx [{} vs {}]: {} files on disk, {} in MANIFEST.tsv, {} with a verdict, {} without\n", model_name,
             column, on_disk, rows.size(), files.size(), no_verdict.size());
  if (liveness) {
    fmt::print("litmus-ptx [{} vs {}]: {} agree, {} differ (documented), {} disagree, {} unknown (floor {}, budget {} ms per test)\n",
               model_name, column, passed, documented, failed, unknown, floor, cfg.budget_ms);
    return passed >= floor && failed == 0 ? 0 : 1;
  }
  fmt::print("litmus-ptx [{} vs {}]: {} passed, {} differ (documented), {} failed, {} unknown (floor {}, budget {} ms per test)\n",
             model_name, column, passed, documented, failed, unknown, floor, cfg.budget_ms);
  return passed >= floor && failed == 0 ? 0 : 1;
}
