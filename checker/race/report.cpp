// JSON, text and SARIF renderings of race-check results (see report.hpp).
#include "checker/race/report.hpp"

#include "semantics/support/names.hpp"

#include <sstream>

namespace ptxcheck::race {
using nlohmann::json;

int exit_code_of(const std::vector<KernelResult>& ks) {
  int rc = 0;
  for (const auto& k : ks) {
    if (k.verdict == KernelResult::Verdict::race) return 1;
    if (k.verdict == KernelResult::Verdict::unknown) rc = 3;
  }
  return rc;
}

const char* verdict_name(const KernelResult& k) {
  switch (k.verdict) {
    case KernelResult::Verdict::race:
      for (const auto& x : k.races)
        if (!x.possible) return "race";
      return k.divergences.empty() ? "race" : "barrier-divergence";
    case KernelResult::Verdict::unknown: return "unknown";
    default: return "race-free";
  }
}

namespace {
json where_json(const Where& w) { return {{"file", w.file}, {"line", w.line}, {"column", w.column}, {"ptx_file", w.ptx_file}, {"ptx_line", w.ptx_line}}; }
json ids_json(const ThreadIds& t) { return {{"ctaid", t.ctaid}, {"tid", t.tid}}; }
json access_json(const AccessReport& a) {
  return {{"kind", a.kind}, {"strength", a.strength}, {"space", a.space}, {"object", a.object}, {"cuda_name", a.cuda_name}, {"argument", a.argument}, {"offset", a.offset},
          {"size", a.size}, {"instruction", a.opcode}, {"location", where_json(a.where)}};
}
json witness_json(const Witness& w) {
  json args = json::object();
  for (const auto& [param, values] : w.args)
    for (const auto& [offset, arg] : values) args[param + "+" + std::to_string(offset)] = arg.value;
  json loaded = json::array();
  for (const auto& word : w.loaded) loaded.push_back({{"param", word.param}, {"offset", word.offset}, {"bytes", word.bytes}, {"value", word.value}});
  return {{"block", w.block}, {"grid", w.grid}, {"args", args}, {"pointers", w.pointers}, {"loaded", loaded}};
}
// What an access reaches, as the CUDA source names it with the PTX name beside it:
// `block_sum::s[16] (_ZZ9block_sumPKiPiE1s+64)`, `argument 2 (out)[7] (_Z1kPKiPi_param_1+28, int*)`.
std::string object_text(const AccessReport& a) {
  const std::string ptx = ptxcheck::names::ptx_address(a.object, a.offset);
  const auto comma = a.argument.rfind(", ");
  const std::string type = comma == std::string::npos ? "" : ", " + a.argument.substr(comma + 2);
  if (a.cuda_name.empty()) return ptx + (a.argument.empty() ? "" : " (" + a.argument + ")");
  return a.cuda_name + " (" + ptx + type + ")";
}
std::string access_text(const AccessReport& a) {
  std::ostringstream s;
  s << a.kind << " (" << a.strength << ", " << a.space << ") of " << object_text(a) << " [" << a.size << (a.size == 1 ? " byte] by " : " bytes] by ")
    << a.opcode << " at " << a.where.text();
  return s.str();
}
}  // namespace

json to_json(const FileResult& r) {
  json out{{"file", r.file}, {"mode", r.mode}, {"exit_code", r.exit_code}};
  if (!r.error.empty()) out["error"] = r.error;
  json ks = json::array();
  for (const auto& k : r.kernels) {
    json races = json::array(), divs = json::array();
    for (const auto& x : k.races) {
      races.push_back({{"first", access_json(x.first)}, {"second", access_json(x.second)}, {"thread1", ids_json(x.t1)},
                       {"thread2", ids_json(x.t2)}, {"possible", x.possible}, {"confirmed", x.confirmed}, {"note", x.note}});
      if (x.witness) races.back()["witness"] = witness_json(*x.witness);
    }
    for (const auto& d : k.divergences)
      divs.push_back({{"barrier", where_json(d.where)}, {"condition", d.condition}, {"thread1", ids_json(d.t1)}, {"thread2", ids_json(d.t2)},
                      {"thread1_reaches", d.t1_reaches}, {"note", d.note}});
    ks.push_back({{"kernel", k.kernel}, {"cxx_name", ptx::ir::kernel_cxx_name(k.kernel)}, {"verdict", verdict_name(k)}, {"races", races}, {"barrier_divergence", divs},
                  {"unknown_reasons", k.unknown_reasons}, {"unsupported", k.unsupported}, {"notes", k.notes},
                  {"solver_calls", k.queries}, {"seconds", k.seconds}});
  }
  out["kernels"] = ks;
  return out;
}

std::string to_text(const FileResult& r) {
  std::ostringstream s;
  if (!r.error.empty()) {
    // A rendered diagnostic already starts with its location (file:line:col: error: ...), and so does an error
    // about another input file (a launch file: LAUNCH.json: error: ...).
    if (r.error.rfind(r.file, 0) == 0 || r.error.find(": error: ") != std::string::npos) s << r.error << "\n";
    else s << r.file << ": error: " << r.error << "\n";
    return s.str();
  }
  for (const auto& k : r.kernels) {
    s << r.file << ": kernel " << ptx::ir::kernel_title(k.kernel) << ": " << verdict_name(k) << " [" << r.mode << "]\n";
    for (const auto& x : k.races) {
      s << "  " << (x.possible ? "possible race" : "race") << (x.confirmed ? " (confirmed on the interpreter)" : "") << ":\n";
      s << "    thread 1 " << x.t1.text() << ": " << access_text(x.first) << "\n";
      s << "    thread 2 " << x.t2.text() << ": " << access_text(x.second) << "\n";
      if (x.witness && !x.witness->text.empty()) s << "    witness: " << x.witness->text << "\n";
      if (!x.note.empty()) s << "    note: " << x.note << "\n";
    }
    for (const auto& d : k.divergences)
      s << "  barrier divergence at " << d.where.text() << ": thread " << d.t1.text() << (d.t1_reaches ? " reaches it, " : " does not reach it, ")
        << "thread " << d.t2.text() << (d.t1_reaches ? " does not" : " does")
        << (d.condition.empty() ? "" : "; diverging condition: " + d.condition) << (d.note.empty() ? "" : "; " + d.note) << "\n";
    for (const auto& u : k.unknown_reasons) s << "  unknown: " << u << "\n";
    for (const auto& u : k.unsupported) s << "  unsupported: " << u << "\n";
    for (const auto& n : k.notes) s << "  note: " << n << "\n";
  }
  return s.str();
}

json to_sarif(const std::vector<FileResult>& rs) {
  json results = json::array();
  auto location = [](const Where& w, const std::string& file) {
    json region = w.line ? json{{"startLine", w.line}, {"startColumn", std::max<std::uint32_t>(1, w.column)}} : json{{"startLine", std::max<std::uint32_t>(1, w.ptx_line)}};
    return json{{"physicalLocation", {{"artifactLocation", {{"uri", w.file.empty() ? file : w.file}}}, {"region", region}}}};
  };
  for (const auto& r : rs) {
    if (!r.error.empty()) {
      results.push_back({{"ruleId", "ptxcheck.race.input"}, {"level", "error"}, {"message", {{"text", r.error}}},
                         {"locations", json::array({json{{"physicalLocation", {{"artifactLocation", {{"uri", r.file}}}}}}})}});
      continue;
    }
    for (const auto& k : r.kernels) {
      const std::string kernel = ptx::ir::kernel_cxx_name(k.kernel);
      for (const auto& x : k.races)
        results.push_back({{"ruleId", "ptxcheck.race.data-race"}, {"level", x.possible ? "warning" : "error"},
                           {"message", {{"text", std::string(x.possible ? "possible " : "") + "data race in " + kernel + ": " +
                                                     access_text(x.first) + " / " + access_text(x.second)}}},
                           {"locations", json::array({location(x.first.where, r.file)})},
                           {"relatedLocations", json::array({location(x.second.where, r.file)})}});
      for (const auto& d : k.divergences)
        results.push_back({{"ruleId", "ptxcheck.race.barrier-divergence"}, {"level", "error"},
                           {"message", {{"text", "barrier divergence in " + kernel + (d.condition.empty() ? "" : " under " + d.condition)}}}, {"locations", json::array({location(d.where, r.file)})}});
      for (const auto& u : k.unknown_reasons)
        results.push_back({{"ruleId", "ptxcheck.race.unknown"}, {"level", "note"}, {"message", {{"text", kernel + ": " + u}}},
                           {"locations", json::array({json{{"physicalLocation", {{"artifactLocation", {{"uri", r.file}}}}}}})}});
    }
  }
  json rules = json::array({json{{"id", "ptxcheck.race.data-race"}, {"shortDescription", {{"text", "data race (PTX ISA 8.7.1)"}}}},
                            json{{"id", "ptxcheck.race.barrier-divergence"}, {"shortDescription", {{"text", "barrier divergence"}}}},
                            json{{"id", "ptxcheck.race.unknown"}, {"shortDescription", {{"text", "no verdict"}}}},
                            json{{"id", "ptxcheck.race.input"}, {"shortDescription", {{"text", "bad input or no kernel"}}}}});
  return {{"version", "2.1.0"}, {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
          {"runs", json::array({json{{"tool", {{"driver", {{"name", "ptxcheck race"}, {"rules", rules}}}}}, {"results", results}}})}};
}

}  // namespace ptxcheck::race
