// The kernels of tests/unit/race/kernels and the expectation on each one's first line (`// expect: race|race-free|
// barrier-divergence|unknown  launch: --blockDim=.. --gridDim=..`, optionally `options: --O0 --assume-pure-externs
// --assume='EXPR'`), read by test_race.cpp and test_flag_model.cpp.
#pragma once

#include "checker/race/run.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

namespace race_kernels {
namespace fs = std::filesystem;
using namespace ptxcheck;

inline const fs::path kernels = fs::path(PTXCHECK_SOURCE_DIR) / "tests/unit/race/kernels";

struct Expectation {
  std::string verdict, block, grid;
  std::string reason;  // `reason='...'`: text an unknown answer's reasons must contain
  bool o0 = false, pure_externs = false;
  std::vector<std::string> assumptions;
};

inline Expectation expectation(const fs::path& p) {
  std::ifstream in(p);
  std::string line;
  std::getline(in, line);
  std::smatch m;
  Expectation e;
  if (std::regex_search(line, m, std::regex(R"(expect:\s*(\S+))"))) e.verdict = m[1];
  if (std::regex_search(line, m, std::regex(R"(--blockDim=(\S+))"))) e.block = m[1];
  if (std::regex_search(line, m, std::regex(R"(--gridDim=(\S+))"))) e.grid = m[1];
  e.o0 = line.find("options:") != std::string::npos && line.find("--O0") != std::string::npos;
  e.pure_externs = line.find("options:") != std::string::npos && line.find("--assume-pure-externs") != std::string::npos;
  if (std::regex_search(line, m, std::regex(R"(reason='([^']*)')"))) e.reason = m[1];
  const std::regex assume(R"(--assume='([^']*)')");
  for (auto it = std::sregex_iterator(line.begin(), line.end(), assume); it != std::sregex_iterator(); ++it) e.assumptions.push_back((*it)[1]);
  return e;
}

inline race::RunOptions options(const Expectation& e) {
  race::RunOptions o;
  o.cuda.cache_dir = (fs::temp_directory_path() / "ptxcheck-race-unit-ptx").string();
  if (!e.block.empty()) o.check.block = race::parse_dim(e.block);
  if (!e.grid.empty()) o.check.grid = race::parse_dim(e.grid);
  o.o0 = e.o0;
  o.check.assume_pure_externs = e.pure_externs;
  for (const auto& text : e.assumptions) {
    std::string why;
    auto a = race::parse_assumption(text, why);
    REQUIRE_MESSAGE(a, "--assume='" << text << "': " << why);
    o.check.assumptions.push_back(*a);
  }
  return o;
}

}  // namespace race_kernels
