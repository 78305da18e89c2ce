// `ptxcheck merge FILES...`: joins the JSON Lines of `race -p --shard I/N --format jsonl` runs into one report (the
// table, json or sarif), in the order of a run that was never split; the exit code is the worst over them all.
#include "cli/commands.hpp"
#include "checker/race/report_read.hpp"
#include "cli/race_output.hpp"
#include "semantics/support/diagnostic.hpp"
#include "semantics/support/files.hpp"

#include <algorithm>
#include <iostream>
#include <sstream>

namespace ptxcheck::cli {
namespace {
struct MergeArgs {
  std::vector<std::string> files;
  std::string format = "text";
};

// The results of one shard file, appended to `out`; false after printing a located error.
bool read_shard(const std::string& file, std::vector<ProjectResult>& out) {
  auto text = read_text_file(file);
  if (!text) { std::cerr << file << ": error: cannot read file\n"; return false; }
  std::istringstream lines(*text);
  std::uint32_t number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    try {
      auto j = nlohmann::json::parse(line);
      if (!j.is_object()) throw std::runtime_error("expected one JSON object a line (race -p --format jsonl)");
      out.push_back({j.value("entry", std::size_t(0)), race::from_json(j)});
    } catch (const nlohmann::json::parse_error& e) {
      std::string why = e.what();
      std::uint32_t column = static_cast<std::uint32_t>(std::max<std::size_t>(1, e.byte));
      std::cerr << Diagnostic{{file, number, column}, why.substr(why.rfind(": ") + 2), "", "error"}.render() << "\n";
      return false;
    } catch (const std::exception& e) {
      std::cerr << Diagnostic{{file, number, 1}, std::string("not a race result: ") + e.what(), "", "error"}.render() << "\n";
      return false;
    }
  }
  return true;
}

int run_merge(const MergeArgs& a) {
  auto format = parse_race_format(a.format);
  if (!format) { std::cerr << "error: --format " << a.format << ": expected text, json, sarif or jsonl\n"; return 2; }
  std::vector<ProjectResult> all;
  for (const auto& f : a.files)
    if (!read_shard(f, all)) return 2;
  std::stable_sort(all.begin(), all.end(), [](const ProjectResult& x, const ProjectResult& y) { return x.entry < y.entry; });
  print_project_results(all, *format, std::cout);
  return project_exit_code(all);
}
}  // namespace

void register_merge(CLI::App& app) {
  auto args = std::make_shared<MergeArgs>();
  auto* cmd = app.add_subcommand("merge", "Join the JSON Lines shards of `race -p --shard I/N --format jsonl` into one report; exit as race");
  cmd->add_option("files", args->files, "JSON Lines files, one per shard")->required();
  cmd->add_option("--format", args->format, "text (the table), json, sarif or jsonl")->capture_default_str();
  cmd->callback([args]() { exit_code = run_merge(*args); });
}

}  // namespace ptxcheck::cli
