// How the race corpus driver and bench/race launch each MANIFEST row (issue 6): GPUVerify's `gpuverify_args`,
// Faial's `faial_args` (threads of one CTA unless --grid-level, launch shape from the file's `//--blockDim=`
// header otherwise),
// ScoR's "grid x block", Indigo's fixed --blockDim=256 --gridDim=4. One definition for both programs.
#pragma once

#include "checker/race/run.hpp"
#include "manifest.hpp"

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

namespace ptxcheck {

struct RaceLaunch {
  std::string block, grid;  // GPUVerify spellings, empty = symbolic
  std::string label;        // the arguments shown next to the row's path
  bool x_only = false;      // symbolic shapes one-dimensional
  bool block_level = false; // only pairs of threads of one CTA
  bool pure_externs = false; // bodiless functions are pure (race::Options::assume_pure_externs)
};

namespace race_launch_detail {
// The value of `--name=V` or `--name V` in an argument string.
inline std::string arg_value(const std::string& args, const std::string& name) {
  std::smatch m;
  std::regex re(name + "[= ](\\[[^\\]]*\\]|[^ ]+)");
  return std::regex_search(args, m, re) ? m[1].str() : "";
}
// GPUVerify-style `//--blockDim=.. --gridDim=..` header lines at the top of a source file.
inline std::string header_args(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::string all, line;
  for (int i = 0; i < 5 && std::getline(in, line); ++i) if (line.rfind("//", 0) == 0) all += line.substr(2) + " ";
  return all;
}
}  // namespace race_launch_detail

inline RaceLaunch race_launch(const std::string& set, const std::filesystem::path& dir, const corpus::Row& row) {
  using namespace race_launch_detail;
  RaceLaunch l;
  if (set == "gpuverify-cuda") {
    l.label = row.at("gpuverify_args");
    l.block = arg_value(l.label, "--blockDim");
    l.grid = arg_value(l.label, "--gridDim");
    // GPUVerify gives a function without a body a nondeterministic result and no effect on memory.
    l.pure_externs = true;
  } else if (set == "faial-drf") {
    l.label = row.at("faial_args");
    std::string h = header_args(dir / row.at("path"));
    l.block = arg_value(l.label, "--blockDim");
    if (l.block.empty()) l.block = arg_value(h, "--blockDim");
    l.grid = arg_value(l.label, "--gridDim");
    if (l.grid.empty()) l.grid = arg_value(h, "--gridDim");
    // Faial checks races between threads of one block unless told --grid-level (its README); gridDim still
    // takes the header's value, which index expressions may use (parse-gv.cu).
    l.block_level = l.label.find("--grid-level") == std::string::npos;
    // Faial considers the x dimension only unless given --all-dims.
    l.x_only = l.label.find("--all-dims") == std::string::npos;
    // Faial gives each call of an unknown function a fresh unknown result (racy-funcion-call-unknowns.cu's own
    // comment describes this, and its verdict depends on it) and models no effect of the call on memory.
    l.pure_externs = true;
  } else if (set == "scor") {
    std::smatch m;
    std::string gb = row.at("grid_x_block");
    if (std::regex_search(gb, m, std::regex("(\\d+) x (\\d+)"))) { l.grid = m[1]; l.block = m[2]; }
  } else {
    l.block = "256";
    l.grid = "4";
  }
  return l;
}

// Applies a launch to the checker options.
inline void apply(const RaceLaunch& l, race::Options& o) {
  if (!l.block.empty()) o.block = race::parse_dim(l.block);
  if (!l.grid.empty()) o.grid = race::parse_dim(l.grid);
  o.x_only = l.x_only;
  o.block_level = l.block_level;
  o.assume_pure_externs = l.pure_externs;
}

}  // namespace ptxcheck
