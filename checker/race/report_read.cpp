// Reading a race result back from its JSON (report.hpp's to_json): `ptxcheck merge` joins shards written as JSON
// Lines and renders them with the same to_text / to_sarif as a run that was never split.
#include "checker/race/report_read.hpp"

namespace ptxcheck::race {
using nlohmann::json;

namespace {
template <typename T>
T get_or(const json& j, const char* key, T fallback = {}) {
  auto it = j.find(key);
  return it == j.end() || it->is_null() ? fallback : it->get<T>();
}

Where where_from(const json& j) {
  Where w;
  w.file = get_or<std::string>(j, "file");
  w.ptx_file = get_or<std::string>(j, "ptx_file");
  w.line = get_or<std::uint32_t>(j, "line");
  w.column = get_or<std::uint32_t>(j, "column");
  w.ptx_line = get_or<std::uint32_t>(j, "ptx_line");
  return w;
}

ThreadIds ids_from(const json& j) {
  ThreadIds t;
  t.ctaid = get_or<std::array<std::uint64_t, 3>>(j, "ctaid");
  t.tid = get_or<std::array<std::uint64_t, 3>>(j, "tid");
  return t;
}

AccessReport access_from(const json& j) {
  AccessReport a;
  a.kind = get_or<std::string>(j, "kind");
  a.strength = get_or<std::string>(j, "strength");
  a.space = get_or<std::string>(j, "space");
  a.object = get_or<std::string>(j, "object");
  a.cuda_name = get_or<std::string>(j, "cuda_name");
  a.argument = get_or<std::string>(j, "argument");
  a.offset = get_or<std::int64_t>(j, "offset");
  a.size = get_or<unsigned>(j, "size");
  a.opcode = get_or<std::string>(j, "instruction");
  a.where = where_from(j.value("location", json::object()));
  return a;
}

// The witness's "args" are keyed "PARAM+OFFSET" (to_json); the width of each is not written, and stays 0.
Witness witness_from(const json& j) {
  Witness w;
  w.block = get_or<std::array<std::uint32_t, 3>>(j, "block", {1, 1, 1});
  w.grid = get_or<std::array<std::uint32_t, 3>>(j, "grid", {1, 1, 1});
  const json args = j.value("args", json::object());  // items() of a temporary would dangle
  for (const auto& [key, value] : args.items()) {
    auto plus = key.rfind('+');
    if (plus == std::string::npos) continue;
    w.args[key.substr(0, plus)][static_cast<std::uint32_t>(std::stoul(key.substr(plus + 1)))] = {value.get<std::uint64_t>(), 0};
  }
  w.pointers = get_or<std::set<std::string>>(j, "pointers");
  for (const auto& word : j.value("loaded", json::array()))
    w.loaded.push_back({get_or<std::string>(word, "param"), get_or<std::uint64_t>(word, "offset"), get_or<std::uint64_t>(word, "value"),
                        get_or<unsigned>(word, "bytes")});
  return w;
}

KernelResult kernel_from(const json& j) {
  KernelResult k;
  k.kernel = get_or<std::string>(j, "kernel");
  const auto verdict = get_or<std::string>(j, "verdict");
  k.verdict = verdict == "race" || verdict == "barrier-divergence" ? KernelResult::Verdict::race
              : verdict == "unknown"                                ? KernelResult::Verdict::unknown
                                                                    : KernelResult::Verdict::race_free;
  for (const auto& x : j.value("races", json::array())) {
    RaceReport r;
    r.first = access_from(x.at("first"));
    r.second = access_from(x.at("second"));
    r.t1 = ids_from(x.value("thread1", json::object()));
    r.t2 = ids_from(x.value("thread2", json::object()));
    r.possible = get_or<bool>(x, "possible");
    r.confirmed = get_or<bool>(x, "confirmed");
    r.note = get_or<std::string>(x, "note");
    if (x.contains("witness")) r.witness = witness_from(x.at("witness"));
    k.races.push_back(std::move(r));
  }
  for (const auto& x : j.value("barrier_divergence", json::array())) {
    DivergenceReport d;
    d.where = where_from(x.value("barrier", json::object()));
    d.condition = get_or<std::string>(x, "condition");
    d.t1 = ids_from(x.value("thread1", json::object()));
    d.t2 = ids_from(x.value("thread2", json::object()));
    d.t1_reaches = get_or<bool>(x, "thread1_reaches");
    d.note = get_or<std::string>(x, "note");
    k.divergences.push_back(std::move(d));
  }
  k.unknown_reasons = get_or<std::vector<std::string>>(j, "unknown_reasons");
  k.unsupported = get_or<std::vector<std::string>>(j, "unsupported");
  k.notes = get_or<std::vector<std::string>>(j, "notes");
  k.queries = get_or<unsigned>(j, "solver_calls");
  k.seconds = get_or<double>(j, "seconds");
  return k;
}
}  // namespace

FileResult from_json(const json& j) {
  FileResult r;
  r.file = j.at("file").get<std::string>();
  r.mode = get_or<std::string>(j, "mode");
  r.error = get_or<std::string>(j, "error");
  r.exit_code = j.at("exit_code").get<int>();
  for (const auto& k : j.value("kernels", json::array())) r.kernels.push_back(kernel_from(k));
  return r;
}

}  // namespace ptxcheck::race
