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

// "Liveness ok|hang|unknown" (with the hang's witness or the reason), for tests with loops or waiting barriers.
static std::string liveness_line(const Result& r) {
  if (r.liveness.empty()) return "";
  return "Liveness: " + r.liveness + (r.liveness_detail.empty() ? "" : " (" + r.liveness_detail + ")") + "\n";
}
std::string render_text(const Result& r) {
  std::string o;
  if (r.result == "error" || (r.result == "unknown" && r.states.empty() && !r.reason.empty() && r.positive + r.negative == 0)) {
    o += fmt::format("Test {} {}\n", r.name, r.result == "error" ? "Error" : "Unknown");
    if (!r.reason.empty()) o += "Reason: " + r.reason + "\n";
    for (auto& u : r.unsupported) o += u + "\n";
    o += liveness_line(r);
    return o;
  }
  o += fmt::format("Test {} {}\n", r.name, r.quantifier == Quantifier::forall ? "Required" : "Allowed");
  o += fmt::format("States {}{}\n", r.states.size(), r.states_complete ? "" : " (witnesses only; --states lists all)");
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
  o += liveness_line(r);
  o += fmt::format("Time {} {:.3f}\n", r.name, r.time_ms / 1000.0);
  return o;
}

nlohmann::json render_json(const Result& r) {
  nlohmann::json j;
  j["name"] = r.name;
  j["file"] = r.file;
  j["result"] = r.result;
  if (!r.reason.empty()) j["reason"] = r.reason;
  j["quantifier"] = quant_word(r.quantifier);
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
  j["states_complete"] = r.states_complete;
  j["positive"] = r.positive;
  j["observation"] = r.positive == 0 ? "Never" : r.negative == 0 ? "Always" : "Sometimes";
  j["negative"] = r.negative;
  j["candidates"] = r.candidates;
  j["bounded"] = r.bounded;
  j["unsupported"] = r.unsupported;
  if (!r.explanation.empty()) j["forbidden_by"] = r.explanation;
  if (!r.liveness.empty()) j["liveness"] = r.liveness;
  if (!r.liveness_detail.empty()) j["liveness_detail"] = r.liveness_detail;
  j["time_ms"] = r.time_ms;
  return j;
}

static std::string escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    o += c;
  }
  return o;
}

std::string render_dot(const Result& r, const FinalState& s) {
  std::string o = "digraph \"" + escape(r.name) + "\" {\n  rankdir=TB; newrank=true; node [shape=box,fontname=monospace];\n";
  o += "  label=\"" + escape(r.name + ": " + state_line(s)) + "\"; labelloc=t;\n";
  if (!s.witness) return o + "}\n";
  auto& x = *s.witness;
  auto rel = [&](const char* name) -> const mm::Rel* {
    auto it = x.rels.find(name);
    return it == x.rels.end() ? nullptr : &it->second;
  };
  auto set = [&](const char* name) -> const mm::Set* {
    auto it = x.sets.find(name);
    return it == x.sets.end() ? nullptr : &it->second;
  };
  // Columns: initial writes, then the classes of `int` (same thread) in event order.
  const mm::Set* iw = set("IW");
  const mm::Rel* same_thread = rel("int");
  std::vector<int> column(x.n, -1);
  int columns = 0;
  for (int i = 0; i < x.n; ++i) {
    if (iw && iw->has(i)) continue;
    if (column[i] >= 0) continue;
    column[i] = columns;
    for (int j = i + 1; j < x.n; ++j)
      if (same_thread && same_thread->has(i, j) && !(iw && iw->has(j))) column[j] = columns;
    ++columns;
  }
  auto node = [&](int i) { return fmt::format("    e{} [label=\"{}\"];\n", i, escape(x.labels[i])); };
  if (iw && !iw->empty()) {
    o += "  subgraph cluster_init {\n    label=\"init\"; style=dashed;\n";
    for (int i = 0; i < x.n; ++i) if (iw->has(i)) o += node(i);
    o += "  }\n";
  }
  for (int c = 0; c < columns; ++c) {
    std::string title;
    for (int i = 0; i < x.n && title.empty(); ++i)
      if (column[i] == c) {
        auto& l = x.labels[i];
        auto a = l.find(": ");
        auto b = a == std::string::npos ? a : l.find(' ', a + 2);
        title = a == std::string::npos ? "thread" : l.substr(a + 2, b - a - 2);
      }
    o += fmt::format("  subgraph cluster_t{} {{\n    label=\"{}\";\n", c, escape(title));
    for (int i = 0; i < x.n; ++i) if (column[i] == c) o += node(i);
    o += "  }\n";
  }
  // Layout: initial writes above the threads, thread columns left to right in order (invisible edges).
  std::vector<int> first(columns, -1);
  for (int i = 0; i < x.n; ++i) if (column[i] >= 0 && first[column[i]] < 0) first[column[i]] = i;
  if (columns > 1) {
    o += "  { rank=same;";
    for (int c = 0; c < columns; ++c) o += fmt::format(" e{};", first[c]);
    o += " }\n";
    for (int c = 0; c + 1 < columns; ++c) o += fmt::format("  e{} -> e{} [style=invis];\n", first[c], first[c + 1]);
  }
  for (int i = 0; i < x.n; ++i)
    if (iw && iw->has(i))
      for (int c = 0; c < columns; ++c) o += fmt::format("  e{} -> e{} [style=invis];\n", i, first[c]);
  auto edges = [&](const char* name, const char* color, bool immediate, const char* extra) {
    const mm::Rel* r = rel(name);
    if (!r) return;
    for (int a = 0; a < x.n; ++a)
      for (int b = 0; b < x.n; ++b) {
        if (!r->has(a, b) || a == b) continue;
        if (immediate) {
          bool mid = false;
          for (int m = 0; m < x.n && !mid; ++m) mid = m != a && m != b && r->has(a, m) && r->has(m, b);
          if (mid) continue;
        }
        o += fmt::format("  e{} -> e{} [label=\"{}\",color={},fontcolor={}{}];\n", a, b, name, color, color, extra);
      }
  };
  edges("po", "black", true, "");
  edges("rf", "red", false, ",constraint=false");
  edges("co", "blue", true, ",constraint=false");
  edges("syncbar", "darkgreen", false, ",constraint=false,style=dashed");
  edges("sync_fence", "darkgreen", true, ",constraint=false,style=dashed");
  // fr = rf^-1; co (8.9.6 Communication order uses it too), only to immediate co-successors.
  const mm::Rel* rf = rel("rf");
  const mm::Rel* co = rel("co");
  if (rf && co)
    for (int rd = 0; rd < x.n; ++rd)
      for (int w = 0; w < x.n; ++w)
        if (rf->has(w, rd))
          for (int w2 = 0; w2 < x.n; ++w2) {
            if (!co->has(w, w2)) continue;
            bool mid = false;
            for (int m = 0; m < x.n && !mid; ++m) mid = m != w && m != w2 && co->has(w, m) && co->has(m, w2);
            if (!mid) o += fmt::format("  e{} -> e{} [label=\"fr\",color=orange,fontcolor=orange,constraint=false];\n", rd, w2);
          }
  return o + "}\n";
}

Result result_from_json(const nlohmann::json& j) {
  Result r;
  r.name = j.at("name").get<std::string>();
  r.file = j.value("file", std::string());
  r.result = j.at("result").get<std::string>();
  r.reason = j.value("reason", std::string());
  std::string q = j.value("quantifier", std::string("exists"));
  r.quantifier = q == "forall" ? Quantifier::forall : q == "~exists" ? Quantifier::not_exists : Quantifier::exists;
  std::string c = j.value("condition", std::string());
  r.condition = c.size() > q.size() && c.compare(0, q.size() + 1, q + " ") == 0 ? c.substr(q.size() + 1) : c;
  for (auto& st : j.at("states")) {
    FinalState s;
    s.values = st.at("values").get<std::map<std::string, std::int64_t>>();
    s.satisfies = st.at("satisfies").get<bool>();
    s.executions = st.at("executions").get<long long>();
    r.states.push_back(std::move(s));
  }
  r.positive = j.at("positive").get<long long>();
  r.negative = j.at("negative").get<long long>();
  r.candidates = j.value("candidates", 0LL);
  r.states_complete = j.value("states_complete", true);
  r.bounded = j.value("bounded", false);
  r.unsupported = j.value("unsupported", std::vector<std::string>());
  r.explanation = j.value("forbidden_by", std::vector<std::string>());
  r.liveness = j.value("liveness", std::string());
  r.liveness_detail = j.value("liveness_detail", std::string());
  r.time_ms = j.value("time_ms", 0.0);
  return r;
}

}  // namespace ptxcheck::litmus
