// See flag_model.hpp.
#include "checker/race/flag_model.hpp"

#include "checker/race/model_rules.hpp"
#include "checker/race/strength.hpp"
#include "litmus/compile/check.hpp"
#include "litmus/driver.hpp"
#include "litmus/parse/parse.hpp"
#include "semantics/ops/memory_access.hpp"
#include "semantics/support/install_layout.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <map>
#include <mutex>

namespace ptxcheck::race {
namespace {

// The instruction's opcode and qualifier words as a litmus cell's opcode, less the words a cell cannot carry and
// that do not change what the access means to the model: a vector width (the test has one value per location) and
// the `::` words (cache policies, ISA 9.7.9.2; the state space's sub-window). nullopt for a `::` word of a fence.
std::optional<std::string> cell_opcode(const ptx::ir::Instruction& in) {
  std::string s = ptx::ir::opcode_name(in.op);
  for (const auto& w : in.q.words) {
    if (w == "v2" || w == "v4" || w == "v8") continue;
    if (w.find(':') != std::string::npos) {
      if (in.op == ptx::ir::Opcode::fence_ || in.op == ptx::ir::Opcode::membar_) return std::nullopt;
      continue;
    }
    s += "." + w;
  }
  return s;
}

// A memory access as a cell on `location`: its destination `dest`, its data operands `value`.
std::optional<std::string> access_cell(const ptx::ir::Instruction& in, const ptx::ops::MemoryAccessForm& m, const std::string& location,
                                       const std::string& dest, const std::string& value = "1") {
  const auto op = cell_opcode(in);
  if (!op || m.operands == 0) return std::nullopt;
  std::vector<std::string> ops(m.operands, value);
  ops[m.address] = "[" + location + "]";
  if (m.destination >= 0) ops[static_cast<std::size_t>(m.destination)] = dest;
  std::string text = *op;
  for (std::size_t k = 0; k < ops.size(); ++k) text += (k ? ", " : " ") + ops[k];
  return text;
}

bool subsequence(const PathShape& small, const PathShape& big) {
  std::size_t k = 0;
  for (const auto& x : big)
    if (k < small.size() && x == small[k]) ++k;
  return k == small.size();
}

// Adds `s` to the antichain `minimal` unless a member is a subsequence of it; drops the members it is a
// subsequence of. Whether it was added.
bool add_minimal(std::vector<PathShape>& minimal, const PathShape& s) {
  for (const auto& t : minimal)
    if (subsequence(t, s)) return false;
  std::erase_if(minimal, [&](const PathShape& t) { return subsequence(s, t); });
  minimal.push_back(s);
  return true;
}

}  // namespace

std::optional<std::string> path_cell(const ptx::ir::Instruction& in) {
  if (memory_fence(in)) return cell_opcode(in);
  const auto m = ptx::ops::memory_access(in);
  if (!m || !m->order.strong || m->asynchronous) return std::nullopt;
  return access_cell(in, *m, "other", "{d}");
}

std::optional<std::string> memory_cell(const ptx::ir::Instruction& in, const std::string& location, const std::string& dest,
                                       const std::string& value) {
  const auto m = ptx::ops::memory_access(in);
  if (!m || m->count != 1 || m->asynchronous) return std::nullopt;
  return access_cell(in, *m, location, dest, value);
}

std::optional<std::string> flag_cell(const ptx::ir::Instruction& in, bool write) {
  const auto m = ptx::ops::memory_access(in);
  if (!m || m->count != 1 || m->asynchronous) return std::nullopt;
  auto cell = access_cell(in, *m, "flag", write ? "{d}" : "r0");
  // W writes 1 over the initial 0: a compare-and-swap's compare operand (the one after the address, 9.7.13.5) is 0.
  const bool cas = std::find(in.q.words.begin(), in.q.words.end(), "cas") != in.q.words.end();
  if (cell && write && cas && m->operands > m->address + 2) {
    const std::string compare = "], 1, 1";
    if (auto at = cell->rfind(compare); at != std::string::npos) cell->replace(at, compare.size(), "], 0, 1");
  }
  return cell;
}

std::optional<std::vector<PathShape>> path_shapes(const ptx::ir::Function& f, const Cfg& g, std::uint32_t from, std::uint32_t to,
                                              std::size_t limit, const PathBounds& bounds) {
  // Per instruction, the minimal shapes of the path prefixes that reach it (before it runs).
  std::vector<std::vector<PathShape>> at(g.block_of.size());
  std::vector<PathShape> out;
  std::deque<std::pair<std::uint32_t, PathShape>> todo;
  for (auto n : next_instructions(g, from)) todo.emplace_back(n, PathShape{});
  while (!todo.empty()) {
    auto [i, s] = std::move(todo.front());
    todo.pop_front();
    if (i == from) continue;  // a path that comes back to `from` is one from there
    if (std::find(bounds.stops.begin(), bounds.stops.end(), i) != bounds.stops.end()) continue;
    if (i == to) {
      add_minimal(out, s);
      if (out.size() > limit) return std::nullopt;
      continue;
    }
    if (!add_minimal(at[i], s)) continue;
    if (at[i].size() > limit) return std::nullopt;
    if (auto cell = path_cell(f.body[i]); cell && (s.empty() || s.back() != *cell)) {
      s.push_back(*cell);  // (a cell repeated at once adds no ordering: it is left at one)
      if (s.size() > limit) return std::nullopt;
    }
    for (auto n : next_instructions(g, i))
      if (!bounds.edge || bounds.edge->first != i || bounds.edge->second == n) todo.emplace_back(n, s);
  }
  return out;
}

std::string litmus_rows(const std::vector<std::vector<std::string>>& columns) {
  std::size_t rows = 0;
  for (const auto& c : columns) rows = std::max(rows, c.size());
  std::string text;
  for (std::size_t row = 0; row < rows; ++row) {
    std::string line;
    for (const auto& c : columns) line += (line.empty() ? " " : " | ") + (row < c.size() ? c[row] : std::string());
    text += line + " ;\n";
  }
  return text;
}

std::string message_litmus(const MessageQuestion& q) {
  std::vector<std::string> producer, middle, consumer;
  int next_register = 2;  // r0: R's value; r1: a's
  auto with_register = [&](std::string cell) {
    if (auto at = cell.find("{d}"); at != std::string::npos) cell.replace(at, 3, fmt::format("r{}", next_register++));
    return cell;
  };
  if (!q.b_is_write) producer.push_back(q.b_writes ? "st.weak.global.b32 [data], 1" : "ld.weak.global.b32 r1, [data]");
  for (const auto& c : q.release) producer.push_back(with_register(c));
  producer.push_back(with_register(q.write));
  if (q.middle) {
    middle.push_back(q.read);
    for (const auto& c : q.middle->path) middle.push_back(with_register(c));
    middle.push_back(with_register(q.middle->write));
  }
  consumer.push_back(q.read);
  for (const auto& c : q.acquire) consumer.push_back(with_register(c));
  const char* a_at = q.b_is_write ? "flag" : "data";
  consumer.push_back(q.a_writes ? fmt::format("st.weak.global.b32 [{}], 2", a_at) : fmt::format("ld.weak.global.b32 r1, [{}]", a_at));
  // The consumer's place seen from the producer's (CTA 0 of cluster 0): ISA 2.2.2 clusters, mm::nearness. A middle
  // holder is in a CTA (cluster) of its own: farther apart, threads share fewer scopes, never more orderings.
  using N = ptx::ir::Nearness;
  auto place = [](N n, int own) {
    return n == N::same_cta ? std::string("cta 0,cluster 0") : n == N::same_cluster ? fmt::format("cta {},cluster 0", own) : fmt::format("cta 0,cluster {}", own);
  };
  std::vector<std::vector<std::string>> columns = {producer};
  std::string header = " P0@cta 0,cluster 0,gpu 0";
  if (q.middle) columns.push_back(middle), header += " | P1@" + place(q.middle->nearness, 2) + ",gpu 0";
  columns.push_back(consumer);
  const std::size_t reader = columns.size() - 1;
  header += fmt::format(" | P{}@{},gpu 0 ;\n", reader, place(q.nearness, 1));
  const std::string text = "PTX message-pair\n{\ndata = 0; flag = 0; other = 0;\n}\n" + header + litmus_rows(columns);
  return text + (q.middle ? "exists (P1:r0 == 1 /\\ P2:r0 == 1)\n" : "exists (P1:r0 == 1)\n");
}

namespace {
struct Models {
  std::mutex mutex;
  bool loaded = false;
  std::optional<cat::Model> all;  // ptx-race.cat
  std::map<std::string, cat::Model> racy;  // the same with the named relation non-empty
  std::string problem;
  std::map<std::pair<std::string, std::string>, std::pair<std::optional<bool>, std::string>> answers;  // by relation, test text
};

Models& models() {
  static Models m;
  return m;
}

std::pair<std::optional<bool>, std::string> answer(Models& m, const std::string& text, const std::string& relation, litmus::Engine engine,
                                                   const std::string& none) {
  if (!m.loaded) {
    m.loaded = true;
    std::vector<std::string> errors;
    m.all = litmus::load_named_model((proofs_models_dir() / "ptx-race.cat").string(), errors);
    if (!m.all) m.problem = "proofs/models/ptx-race.cat could not be loaded" + (errors.empty() ? std::string() : ": " + errors.front());
  }
  if (!m.all) return {std::nullopt, m.problem};
  auto racy = m.racy.find(relation);
  if (racy == m.racy.end()) racy = m.racy.emplace(relation, litmus_compile::with_nonempty_axiom(*m.all, relation)).first;
  const litmus::Result all = run_model_question(text, "race-question.litmus", *m.all, engine);
  if (all.result != "holds" && all.result != "fails") return {std::nullopt, all.result + ": " + all.reason};
  if (all.positive == 0) return {std::nullopt, none};
  const litmus::Result r = run_model_question(text, "race-question.litmus", racy->second, engine);
  if (r.result != "holds" && r.result != "fails") return {std::nullopt, r.result + ": " + r.reason};
  return {r.positive > 0, ""};
}
}  // namespace

std::optional<bool> race_question(const std::string& text, const std::string& relation, litmus::Engine engine, const std::string& none,
                                  std::string& why) {
  Models& m = models();
  std::lock_guard<std::mutex> lock(m.mutex);
  const auto key = std::make_pair(relation, text);
  auto it = m.answers.find(key);
  if (it == m.answers.end()) it = m.answers.emplace(key, answer(m, text, relation, engine, none)).first;
  why = it->second.second;
  return it->second.first;
}

std::optional<bool> message_races(const MessageQuestion& q, std::string& why) {
  // The explicit engine builds every candidate graph: quick on two threads, minutes on a lock's three (their RMWs'
  // coherence orders); the symbolic engine answers those in milliseconds (both engines agree on the litmus suites).
  const auto engine = q.middle ? litmus::Engine::symbolic : litmus::Engine::explicit_;
  return race_question(message_litmus(q), "message-race", engine, "no execution in which R reads W", why);
}

std::optional<bool> ordered_in_place(MessageQuestion q, const std::vector<ReleaseSide>& releases, const std::vector<PathShape>& acquires,
                                     const std::vector<MessageQuestion::Middle>& middles, std::string& why) {
  std::optional<bool> ordered = true;
  for (const ReleaseSide& side : releases)
    for (const PathShape& r : side.shapes)
      for (const PathShape& a : acquires)
        for (std::size_t k = 0; k <= middles.size() && ordered != false; ++k) {
          q.write = side.write, q.release = r, q.acquire = a;
          q.middle = k == 0 ? std::nullopt : std::optional(middles[k - 1]);
          std::string unanswered;
          const auto races = message_races(q, unanswered);
          if (!races) ordered = std::nullopt, why = unanswered;
          else if (*races) ordered = false;
        }
  return ordered;
}

}  // namespace ptxcheck::race
