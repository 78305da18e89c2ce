// Reading a corpus MANIFEST.tsv (header row + tab-separated rows) and the compile recipe of a race-corpus
// entry (the MANIFEST's nvcc flags plus what the corpus README says every file needs).
#pragma once

#include "semantics/support/cuda.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <sstream>
#include <string>
#include <vector>

namespace ptxcheck::corpus {

using Row = std::map<std::string, std::string>;

// A manifest that cannot be read is an error (the driver stops), never an empty corpus that passes.
inline std::vector<Row> read_manifest(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read corpus manifest " + path.string());
  std::vector<Row> rows;
  std::vector<std::string> header;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::vector<std::string> cells;
    std::string cell;
    std::istringstream ls(line);
    while (std::getline(ls, cell, '\t')) cells.push_back(cell);
    if (!line.empty() && line.back() == '\t') cells.push_back("");
    if (header.empty()) {
      header = cells;
      continue;
    }
    Row row;
    for (std::size_t i = 0; i < header.size(); ++i) row[header[i]] = i < cells.size() ? cells[i] : "";
    rows.push_back(std::move(row));
  }
  return rows;
}

// nvcc options for one race-corpus row: its MANIFEST flags (`<benchmark dir>` is the file's folder), the
// corpus folder on the include path (for the shim header), and indigo's include folder (its README).
inline CudaOptions compile_options(const std::filesystem::path& corpus_dir, const Row& row) {
  const auto file = corpus_dir / row.at("path");
  std::string flags = row.count("nvcc_extra_flags") ? row.at("nvcc_extra_flags") : "";
  for (std::size_t p; (p = flags.find("<benchmark dir>")) != std::string::npos;)
    flags.replace(p, 15, file.parent_path().string());
  CudaOptions o;
  o.include_dirs.push_back(corpus_dir.string());
  if (std::filesystem::exists(corpus_dir / "indigo_include")) o.include_dirs.push_back((corpus_dir / "indigo_include").string());
  return parse_nvcc_flags(flags, o);
}

inline bool compiles(const Row& row) {
  auto it = row.find("compiles_with_nvcc");
  return it != row.end() && it->second.rfind("yes", 0) == 0;
}

}  // namespace ptxcheck::corpus
