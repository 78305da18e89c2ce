// Compiled-litmus outcome inclusion over examples/cu-litmus with litmus_compile::check_compiled (the one
// definition `ptxcheck litmus --compile` uses). Two independent expectations per test:
//  1. the engine's source-level verdict under scoped-c11.cat (racy / condition allowed / forbidden) equals
//     the verdict derived by hand in examples/cu-litmus/MANIFEST.tsv;
//  2. the compiled test (PTX model given on the command line) has no outcome the source forbids, except the
//     known mismatches of known_mismatches.txt (per model, with their reason), which are inverted: one that
//     disappears fails too.
// Usage: compare_compiled MODEL(path or `ptx`) [CACHE_DIR] [TEST...]. One line per test and a summary.
#include "litmus/compile/check.hpp"

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
    std::cerr << "usage: compare_compiled MODEL [CACHE_DIR] [TEST...]\n";
    return 2;
  }
  litmus_compile::CheckOptions options;
  options.ptx_model = argv[1];
  if (argc > 2) options.cuda.cache_dir = argv[2];
  std::set<std::string> only(argv + std::min(argc, 3), argv + argc);
  const std::string model_key = fs::path(options.ptx_model).stem().string();  // ptx-v7.5 / ptx
  const fs::path suite = fs::path(PTXCHECK_SOURCE_DIR) / "examples/cu-litmus";
  std::vector<std::string> errors;
  auto models = litmus_compile::load_check_models(options, errors);
  if (!models) {
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
  int consistent = 0, mismatches = 0, known_seen = 0, fixed = 0, unknown = 0, errors_n = 0, source_wrong = 0;
  for (const auto& [name, verdict] : verdicts) {
    if (!only.empty() && !only.count(name)) continue;
    auto r = litmus_compile::check_compiled((suite / (name + ".cu.litmus")).string(), *models, options);
    std::string status, detail;
    if (r.verdict == "error") {
      status = "ERROR", detail = r.reason;
    } else if (r.verdict == "unknown") {
      status = "UNKNOWN", detail = r.reason;
    } else {
      const std::string engine_verdict = r.source_racy ? "racy" : r.source.result == "holds" ? "allowed" : "forbidden";
      const bool is_known = known.count(model_key + " " + name) != 0;
      detail = "source " + engine_verdict + " (hand: " + verdict + "), compiled condition " + r.compiled.result + ", " +
               std::to_string(r.extra.size()) + " extra outcome(s)";
      for (const auto& o : r.extra) {
        detail += " [";
        for (const auto& [k, v] : o.values) detail += k + "=" + std::to_string(v) + " ";
        detail += "]";
      }
      if (engine_verdict != verdict) status = "SOURCE-VERDICT-DIFFERS";
      else if (r.verdict == "extra-outcomes") status = is_known ? "KNOWN-MISMATCH" : "MISMATCH";
      else status = is_known ? "FIXED" : "OK";
    }
    std::cout << name << "  " << status << "  " << detail << "  (" << static_cast<long>(r.time_ms) << " ms)\n";
    if (status == "OK") ++consistent;
    else if (status == "MISMATCH") ++mismatches;
    else if (status == "KNOWN-MISMATCH") ++known_seen;
    else if (status == "FIXED") ++fixed;
    else if (status == "UNKNOWN") ++unknown;
    else if (status == "SOURCE-VERDICT-DIFFERS") ++source_wrong;
    else ++errors_n;
  }
  std::cout << consistent << " consistent, " << mismatches << " mismatches, " << known_seen << " known mismatches, "
            << fixed << " known mismatches gone, " << source_wrong << " source verdicts differing from MANIFEST, " << unknown
            << " unknown, " << errors_n << " errors (model " << model_key << ")\n";
  return mismatches || fixed || errors_n || source_wrong || unknown ? 1 : 0;
}
