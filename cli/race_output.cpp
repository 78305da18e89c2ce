// Printing project results (race_output.hpp): the summary table, JSON, SARIF, JSON Lines.
#include "cli/race_output.hpp"
#include "cli/commands.hpp"

#include <algorithm>
#include <array>
#include <filesystem>
#include <map>
#include <ostream>
#include <regex>

namespace ptxcheck::cli {
namespace fs = std::filesystem;

std::optional<RaceFormat> parse_race_format(const std::string& name) {
  if (name == "text") return RaceFormat::text;
  if (name == "json") return RaceFormat::json;
  if (name == "sarif") return RaceFormat::sarif;
  if (name == "jsonl") return RaceFormat::jsonl;
  return std::nullopt;
}

namespace {
// A path as the table shows it: relative to the current folder when inside it.
std::string shown(const std::string& path) {
  std::error_code ec;
  auto rel = fs::path(path).lexically_relative(fs::current_path(ec));
  return ec || rel.empty() || *rel.begin() == ".." ? path : rel.string();
}

std::string at(const race::Where& w) {
  if (w.file.empty()) return "ptx line " + std::to_string(w.ptx_line);
  return fs::path(w.file).filename().string() + ":" + std::to_string(w.line);
}

// Why a file has no kernel rows: the compiler's first error ("nvcc: line 3: ..."), else the message itself.
std::string error_reason(const race::FileResult& r) {
  static const std::regex nvcc_error(R"(\((\d+)\): error: ([^\n]*))");
  std::smatch m;
  if (r.error.find("nvcc failed") != std::string::npos && std::regex_search(r.error, m, nvcc_error))
    return "nvcc: line " + m[1].str() + ": " + m[2].str();
  std::string e = r.error.substr(0, r.error.find('\n'));
  if (auto p = e.find(": error: "); p != std::string::npos) e = e.substr(p + 9);
  return e;
}

std::string kernel_reason(const race::KernelResult& k) {
  std::string why;
  if (!k.races.empty()) {
    const auto& x = k.races.front();
    why = x.first.kind + " at " + at(x.first.where) + " / " + x.second.kind + " at " + at(x.second.where);
    if (k.races.size() > 1) why += " (+" + std::to_string(k.races.size() - 1) + " more)";
  } else if (!k.divergences.empty()) {
    why = "barrier at " + at(k.divergences.front().where) + " reached by some threads only";
  } else if (!k.unknown_reasons.empty()) {
    why = k.unknown_reasons.front();
  }
  return why.size() > 120 ? why.substr(0, 117) + "..." : why;
}
}  // namespace

std::string race_table(const std::vector<ProjectResult>& rs) {
  std::vector<std::array<std::string, 4>> rows{{"FILE", "KERNEL", "VERDICT", "REASON"}};
  std::map<std::string, int> counts;
  for (const auto& p : rs) {
    const auto& r = p.result;
    if (!r.error.empty()) {
      rows.push_back({shown(r.file), "-", "error", error_reason(r)});
      counts["error"]++;
    }
    for (const auto& k : r.kernels) {
      rows.push_back({shown(r.file), ptx::ir::kernel_cxx_name(k.kernel), race::verdict_name(k), kernel_reason(k)});
      counts[race::verdict_name(k)]++;
    }
  }
  std::array<std::size_t, 3> width{};
  for (const auto& row : rows)
    for (std::size_t c = 0; c < 3; ++c) width[c] = std::max(width[c], row[c].size());
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t c = 0; c < 3; ++c) line += row[c] + std::string(width[c] - row[c].size() + 2, ' ');
    line += row[3];
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  out += std::to_string(rs.size()) + (rs.size() == 1 ? " file:" : " files:");
  bool first = true;
  for (const char* v : {"race", "barrier-divergence", "unknown", "race-free", "error"}) {
    if (!counts.count(v)) continue;
    out += std::string(first ? " " : ", ") + std::to_string(counts[v]) + " " + v;
    first = false;
  }
  return out + (first ? " nothing checked\n" : "\n");
}

void print_project_results(const std::vector<ProjectResult>& rs, RaceFormat format, std::ostream& out) {
  std::vector<race::FileResult> files;
  for (const auto& p : rs) files.push_back(p.result);
  switch (format) {
    case RaceFormat::text: out << race_table(rs); break;
    case RaceFormat::sarif: out << race::to_sarif(files).dump(2) << "\n"; break;
    case RaceFormat::json: {
      nlohmann::json j = nlohmann::json::array();
      for (const auto& f : files) j.push_back(race::to_json(f));
      out << j.dump(2) << "\n";
      break;
    }
    case RaceFormat::jsonl:
      for (const auto& p : rs) {
        nlohmann::json j = race::to_json(p.result);
        j["entry"] = p.entry;
        out << j.dump() << "\n";
      }
      break;
  }
}

int project_exit_code(const std::vector<ProjectResult>& rs) {
  int rc = 0;
  for (const auto& p : rs) rc = worst_exit(rc, p.result.exit_code);
  return rc;
}

}  // namespace ptxcheck::cli
