// Corpus driver for litmus-ptx: runs every verdict-bearing file of MANIFEST.tsv under one model and compares
// with one expected column; prints "N passed, N failed, N unknown", lists files without a verdict.
// Usage: corpus_litmus CORPUS_DIR MODEL(ptx|file.cat) COLUMN FLOOR [JOBS]
#include "litmus/driver.hpp"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

using namespace ptxcheck::litmus;

int main(int argc, char** argv) {
  if (argc < 5) {
    fmt::print(stderr, "usage: {} CORPUS_DIR MODEL COLUMN FLOOR [JOBS]\n", argv[0]);
    return 2;
  }
  std::string dir = std::string(argv[1]) + "/litmus-ptx";
  std::string model_name = argv[2], column = argv[3];
  int floor = std::stoi(argv[4]);
  int jobs = argc > 5 ? std::stoi(argv[5]) : 2;
  std::vector<std::string> errors;
  auto model = load_named_model(model_name, errors);
  if (!model) {
    for (auto& e : errors) fmt::print(stderr, "{}\n", e);
    return 2;
  }
  std::ifstream in(dir + "/MANIFEST.tsv");
  if (!in) { fmt::print(stderr, "cannot read {}/MANIFEST.tsv\n", dir); return 2; }
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header;
  { std::stringstream ss(line); std::string c; while (std::getline(ss, c, '\t')) header.push_back(c); }
  int col = -1;
  for (std::size_t i = 0; i < header.size(); ++i) if (header[i] == column) col = static_cast<int>(i);
  if (col < 0) { fmt::print(stderr, "no column {}\n", column); return 2; }
  std::vector<std::string> files, no_verdict;
  std::vector<int> expected;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    std::string c;
    while (std::getline(ss, c, '\t')) cells.push_back(c);
    if (cells.empty()) continue;
    std::string v = col < static_cast<int>(cells.size()) ? cells[col] : "";
    if (v.empty()) { no_verdict.push_back(cells[0]); continue; }
    files.push_back(dir + "/" + cells[0]);
    expected.push_back(std::stoi(v));
  }
  Options opt;
  auto results = run_files(files, *model, opt, jobs);
  int passed = 0, failed = 0, unknown = 0;
  for (std::size_t i = 0; i < results.size(); ++i) {
    auto& r = results[i];
    std::string want = expected[i] ? "holds" : "fails";
    if (r.result == want) { ++passed; continue; }
    if (r.result == "unknown") { ++unknown; fmt::print("UNKNOWN {}: {}\n", files[i], r.reason); continue; }
    ++failed;
    fmt::print("FAILED  {}: expected {}, got {}{}\n", files[i], want, r.result, r.reason.empty() ? "" : " (" + r.reason + ")");
  }
  fmt::print("litmus-ptx [{} vs {}]: {} files without a verdict in this column (not run)\n", model_name, column,
             no_verdict.size());
  fmt::print("litmus-ptx [{} vs {}]: {} passed, {} failed, {} unknown (floor {})\n", model_name, column, passed, failed,
             unknown, floor);
  return passed >= floor ? 0 : 1;
}
