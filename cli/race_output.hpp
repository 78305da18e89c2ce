// How `race -p` and `merge` print a list of file results: a summary table (file, kernel, verdict, reason) for
// people, or race's own JSON and SARIF renderings (checker/race/report.hpp), or JSON Lines (one file result a
// line, with its position "entry" in the sorted project) for shards that `ptxcheck merge` joins.
#pragma once

#include "checker/race/report.hpp"

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace ptxcheck::cli {

enum class RaceFormat { text, json, sarif, jsonl };
std::optional<RaceFormat> parse_race_format(const std::string& name);

// One result of a project run: the file's result and its position in the sorted list of entries.
struct ProjectResult {
  std::size_t entry = 0;
  race::FileResult result;
};

// The table: one row per kernel, one per file that did not compile or check (verdict "error"), then a count.
std::string race_table(const std::vector<ProjectResult>& rs);
void print_project_results(const std::vector<ProjectResult>& rs, RaceFormat format, std::ostream& out);
// The exit code of them all: the worst (commands.hpp's worst_exit).
int project_exit_code(const std::vector<ProjectResult>& rs);

}  // namespace ptxcheck::cli
