// See findings.hpp.
#include "semantics/runtime/findings.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <mutex>
#include <set>

namespace ptx::runtime {
namespace {
std::mutex mutex;
std::vector<Finding>& all() {
  static auto* findings = new std::vector<Finding>();  // never destroyed: written from an atexit handler
  return *findings;
}

nlohmann::json sarif(const std::vector<Finding>& findings) {
  using nlohmann::json;
  json results = json::array(), rules = json::array();
  std::set<std::string> rule_ids;
  for (const auto& f : findings) {
    json result{{"ruleId", f.rule}, {"level", f.level}, {"message", {{"text", (f.kernel.empty() ? "" : f.kernel + ": ") + f.message}}}};
    if (!f.file.empty())
      result["locations"] = json::array({json{{"physicalLocation", {{"artifactLocation", {{"uri", f.file}}}, {"region", {{"startLine", std::max<std::uint32_t>(1, f.line)}}}}}}});
    results.push_back(result);
    if (rule_ids.insert(f.rule).second) rules.push_back({{"id", f.rule}});
  }
  return {{"version", "2.1.0"}, {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
          {"runs", json::array({json{{"tool", {{"driver", {{"name", "ptxcheck exec"}, {"rules", rules}}}}}, {"results", results}}})}};
}
}  // namespace

void add_finding(Finding f) {
  std::lock_guard lock(mutex);
  all().push_back(std::move(f));
}

bool write_findings(const std::string& path, const std::vector<std::string>& summaries) {
  std::lock_guard lock(mutex);
  std::ofstream out(path);
  if (!out) return false;
  if (path.size() >= 6 && path.compare(path.size() - 6, 6, ".sarif") == 0) {
    out << sarif(all()).dump(2) << "\n";
    return bool(out);
  }
  nlohmann::json findings = nlohmann::json::array();
  for (const auto& f : all())
    findings.push_back({{"rule", f.rule}, {"level", f.level}, {"message", f.message}, {"kernel", f.kernel}, {"file", f.file}, {"line", f.line}});
  out << nlohmann::json{{"findings", findings}, {"summary", summaries}}.dump(2) << "\n";
  return bool(out);
}

}  // namespace ptx::runtime
