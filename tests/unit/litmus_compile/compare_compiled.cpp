// Compiled-litmus outcome inclusion: every test of examples/cu-litmus is compiled by nvcc, lifted, and run
// under a PTX model; where the source-level verdict (examples/cu-litmus/MANIFEST.tsv, scoped RC11, derived
// by hand) forbids the condition's outcome, the compiled test must not allow it. Known mismatches (with
// their reason, per model) are listed in known_mismatches.txt and inverted: one that disappears fails too.
// Usage: compare_compiled MODEL(path or `ptx`) [CACHE_DIR]. Prints one line per test and a summary.
#include "litmus/compile/lift.hpp"
#include "litmus/driver.hpp"
#include "litmus/parse/parse.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using namespace ptxcheck;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: compare_compiled MODEL [CACHE_DIR]\n";
    return 2;
  }
  const std::string model_name = argv[1];
  const std::string model_key = fs::path(model_name).stem().string();  // ptx-v7.5 / ptx
  const fs::path suite = fs::path(PTXCHECK_SOURCE_DIR) / "examples/cu-litmus";
  std::vector<std::string> errors;
  auto model = litmus::load_named_model(model_name, errors);
  if (!model) {
    for (const auto& e : errors) std::cerr << e << "\n";
    return 2;
  }
  std::map<std::string, std::string> verdicts;
  {
    std::ifstream in(suite / "MANIFEST.tsv");
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
      auto tab = line.find('\t');
      if (tab != std::string::npos) verdicts[line.substr(0, tab)] = line.substr(tab + 1);
    }
  }
  std::set<std::string> known;  // "MODEL TEST"
  {
    std::ifstream in(fs::path(PTXCHECK_SOURCE_DIR) / "tests/unit/litmus_compile/known_mismatches.txt");
    for (std::string line; std::getline(in, line);) {
      if (line.empty() || line[0] == '#') continue;
      std::istringstream ls(line);
      std::string m, t;
      ls >> m >> t;
      known.insert(m + " " + t);
    }
  }
  CudaOptions cuda;
  if (argc > 2) cuda.cache_dir = argv[2];
  int consistent = 0, mismatches = 0, known_seen = 0, fixed = 0, unknown = 0, errors_n = 0;
  for (const auto& [name, verdict] : verdicts) {
    const fs::path file = suite / (name + ".cu.litmus");
    std::ifstream in(file);
    std::stringstream ss;
    ss << in.rdbuf();
    auto parsed = litmus_compile::parse_cu_litmus(ss.str(), file.string());
    std::string status, detail;
    if (!parsed.test) {
      status = "ERROR", detail = parsed.error->render();
    } else if (auto c = litmus_compile::compile_litmus(*parsed.test, file.string(), cuda); c.error) {
      status = "ERROR", detail = c.error->render();
    } else {
      std::vector<Diagnostic> diags;
      auto t = litmus::parse_litmus(c.ptx_litmus, name + ".litmus", diags);
      if (!t) {
        status = "ERROR", detail = diags.empty() ? "lifted test does not parse" : diags[0].render();
      } else {
        auto r = litmus::run_test(*t, *model, litmus::Options{});
        detail = "compiled: " + r.result + (r.reason.empty() ? "" : " (" + r.reason + ")") + ", source: " + verdict;
        const bool is_known = known.count(model_key + " " + name) != 0;
        if (r.result == "unknown" || r.result == "error") status = "UNKNOWN";
        else if (verdict == "forbidden" && r.result == "holds") status = is_known ? "KNOWN-MISMATCH" : "MISMATCH";
        else status = is_known ? "FIXED" : "OK";
      }
    }
    std::cout << name << "  " << status << "  " << detail << "\n";
    if (status == "OK") ++consistent;
    else if (status == "MISMATCH") ++mismatches;
    else if (status == "KNOWN-MISMATCH") ++known_seen;
    else if (status == "FIXED") ++fixed;
    else if (status == "UNKNOWN") ++unknown;
    else ++errors_n;
  }
  std::cout << consistent << " consistent, " << mismatches << " mismatches, " << known_seen << " known mismatches, "
            << fixed << " known mismatches gone, " << unknown << " unknown, " << errors_n << " errors (model " << model_key
            << ")\n";
  return mismatches || fixed || errors_n ? 1 : 0;
}
