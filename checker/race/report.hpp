// Renderings of race-check results: one JSON object per file (the data), plain text for people, and SARIF 2.1.0
// for CI code-scanning. All three are produced from the same KernelResult structs.
#pragma once

#include "checker/race/check.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace ptxcheck::race {

struct FileResult {
  std::string file;
  std::string mode;  // "nvcc default (-O3)", "-Xcicc -O0", or "ptx"
  std::vector<KernelResult> kernels;
  std::string error;  // bad input / no kernel
  int exit_code = 0;  // 0 race-free, 1 race or divergence, 2 bad input, 3 unknown
};

int exit_code_of(const std::vector<KernelResult>& ks);
// The kernel's verdict as reported (text header, JSON "verdict"): "race" (a definite race, with or without
// barrier divergence), "barrier-divergence" (divergence only; exit 1 as for a race), "race-free" or "unknown".
const char* verdict_name(const KernelResult& k);
nlohmann::json to_json(const FileResult& r);
std::string to_text(const FileResult& r);
nlohmann::json to_sarif(const std::vector<FileResult>& rs);

}  // namespace ptxcheck::race
