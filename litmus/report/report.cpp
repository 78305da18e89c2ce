// herd7-style listing (Test/States/Ok|No/Witnesses/Condition/Observation/Time), JSON, and DOT pictures
// (threads as columns, po/rf/co/fr/sync edges labelled). All read the same Result struct.
#include "litmus/report/report.hpp"

#include <fmt/format.h>

namespace ptxcheck::litmus {

static std::string quant_word(Quantifier q) {
  return q == Quantifier::exists ? "exists" : q == Quantifier::not_exists ? "~exists" : "forall";
}
static std::string state_line(const FinalState& s) {
  std::string out;
  for (auto& [k, v] : s.values) out += fmt::format("{}={}; ", k, v);
  return out;
}

std::string render_text(const Result& r) {
  std::string o;
  if (r.result == "error" || (r.result == "unknown" && r.states.empty() && !r.reason.empty() && r.positive + r.negative == 0)) {
    o += fmt::format("Test {} {}\n", r.name, r.result == "error" ? "Error" : "Unknown");
    if (!r.reason.empty()) o += "Reason: " + r.reason + "\n";
    for (auto& u : r.unsupported) o += u + "\n";
    return o;
  }
  o += fmt::format("Test {} {}\n", r.name, r.quantifier == Quantifier::forall ? "Required" : "Allowed");
  o += fmt::format("States {}\n", r.states.size());
  for (auto& s : r.states) o += state_line(s) + "\n";
  o += r.result == "holds" ? "Ok\n" : r.result == "fails" ? "No\n" : "Unknown\n";
  if (!r.reason.empty()) o += "Reason: " + r.reason + "\n";
  o += fmt::format("Witnesses\nPositive: {} Negative: {}\n", r.positive, r.negative);
  o += fmt::format("Condition {} {}\n", quant_word(r.quantifier), r.condition);
  std::string obs = r.positive == 0 ? "Never" : r.negative == 0 ? "Always" : "Sometimes";
  o += fmt::format("Observation {} {} {} {}\n", r.name, obs, r.positive, r.negative);
  if (r.bounded) o += "Bound: some executions reached the loop bound and were not explored\n";
  if (!r.explanation.empty()) {
    o += "Forbidden by:";
    for (auto& a : r.explanation) o += " " + a;
    o += "\n";
  }
  o += fmt::format("Time {} {:.3f}\n", r.name, r.time_ms / 1000.0);
  return o;
}

nlohmann::json render_json(const Result& r) {
  nlohmann::json j;
  j["name"] = r.name;
  j["file"] = r.file;
  j["result"] = r.result;
  if (!r.reason.empty()) j["reason"] = r.reason;
  j["condition"] = quant_word(r.quantifier) + " " + r.condition;
  nlohmann::json states = nlohmann::json::array();
  for (auto& s : r.states) {
    nlohmann::json st;
    st["values"] = s.values;
    st["satisfies"] = s.satisfies;
    st["executions"] = s.executions;
    states.push_back(st);
  }
  j["states"] = states;
  j["positive"] = r.positive;
  j["negative"] = r.negative;
  j["candidates"] = r.candidates;
  j["bounded"] = r.bounded;
  j["unsupported"] = r.unsupported;
  if (!r.explanation.empty()) j["forbidden_by"] = r.explanation;
  j["time_ms"] = r.time_ms;
  return j;
}

std::string render_dot(const Result& r, const FinalState& s) {
  std::string o = "digraph \"" + r.name + "\" {\n  rankdir=TB; node [shape=box,fontname=monospace];\n";
  o += "  label=\"" + r.name + ": " + state_line(s) + "\";\n";
  if (!s.witness) return o + "}\n";
  auto& x = *s.witness;
  for (int i = 0; i < x.n; ++i) o += fmt::format("  e{} [label=\"{}\"];\n", i, x.labels[i]);
  auto edges = [&](const char* name, const char* color, bool immediate_po) {
    auto it = x.rels.find(name);
    if (it == x.rels.end()) return;
    for (int a = 0; a < x.n; ++a)
      for (int b = 0; b < x.n; ++b) {
        if (!it->second.has(a, b) || a == b) continue;
        if (immediate_po) {
          bool mid = false;
          for (int m = 0; m < x.n; ++m) if (it->second.has(a, m) && it->second.has(m, b)) mid = true;
          if (mid) continue;
        }
        o += fmt::format("  e{} -> e{} [label=\"{}\",color={},fontcolor={}];\n", a, b, name, color, color);
      }
  };
  edges("po", "black", true);
  edges("rf", "red", false);
  edges("co", "blue", true);
  edges("syncbar", "darkgreen", false);
  edges("sync_fence", "darkgreen", false);
  // fr = rf^-1; co
  auto& rf = x.rels.at("rf");
  auto& co = x.rels.at("co");
  for (int rd = 0; rd < x.n; ++rd)
    for (int w = 0; w < x.n; ++w)
      if (rf.has(w, rd))
        for (int w2 = 0; w2 < x.n; ++w2)
          if (co.has(w, w2)) o += fmt::format("  e{} -> e{} [label=\"fr\",color=orange,fontcolor=orange];\n", rd, w2);
  return o + "}\n";
}

}  // namespace ptxcheck::litmus
