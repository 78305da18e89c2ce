// Judging compiled code against chapter 4: the ordering instructions of one source line are split into
// consecutive chunks, each a table alternative (or a strengthening of one, the chapter's first note) of
// one of the line's operations, every operation getting at least one chunk.
#include "checker/abi/check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace ptxcheck::abi {
namespace {
using ptx::ir::AtomOp;

std::optional<AtomOp> atom_for(RmwOp r) {
  switch (r) {
    case RmwOp::add: case RmwOp::sub: return AtomOp::add;  // fetch_sub is atom.add of the negated operand
    case RmwOp::and_: return AtomOp::and_;
    case RmwOp::or_: return AtomOp::or_;
    case RmwOp::xor_: return AtomOp::xor_;
    case RmwOp::min: return AtomOp::min;
    case RmwOp::max: return AtomOp::max;
    case RmwOp::exch: return AtomOp::exch;
    case RmwOp::cas: return AtomOp::cas;
    case RmwOp::inc: return AtomOp::inc;
    case RmwOp::dec: return AtomOp::dec;
    default: return std::nullopt;
  }
}
const char* atom_suffix(RmwOp r) {
  static const char* names[] = {"", "add", "add", "and", "or", "xor", "min", "max", "exch", "cas", "inc", "dec"};
  return names[static_cast<int>(r)];
}

// Does S[pos..] start with `alt` for `op`? Returns the length matched and whether it is a strengthening.
std::optional<bool> match(const std::vector<const PtxOp*>& s, std::size_t pos, const Alternative& alt, const SourceOp& op) {
  if (pos + alt.size() > s.size()) return std::nullopt;
  bool stronger = false;
  const Scope want_scope = ptx_scope(op.scope);
  for (std::size_t k = 0; k < alt.size(); ++k) {
    const PtxOp& have = *s[pos + k];
    const Step& want = alt[k];
    if (have.cls != want.cls) return std::nullopt;
    if (!at_least(have.sem, want.sem)) return std::nullopt;
    if (static_cast<int>(have.scope) < static_cast<int>(want_scope)) return std::nullopt;
    if (want.cls == PtxClass::atom && have.atom_op != atom_for(op.rmw)) return std::nullopt;
    bool same_sem = have.sem == want.sem ||
                    (want.sem == MemorySemantics::relaxed && op.volatile_access && have.sem == MemorySemantics::volatile_);
    if (!same_sem || have.scope != want_scope) stronger = true;
  }
  return stronger;
}

struct Chunk {
  std::size_t op, start, len;
  bool stronger;
};

// Splits `s` into consecutive chunks, each a table sequence of one of the line's operations, every operation
// getting at least one (C++ leaves the evaluation order inside an expression open, and unrolled loops repeat).
struct Splitter {
  const std::vector<const PtxOp*>& s;
  const std::vector<const SourceOp*>& ops;
  const std::vector<Row>& rows;
  std::set<std::pair<std::size_t, std::uint64_t>> failed;
  std::vector<Chunk> chunks;

  bool run(std::size_t pos, std::uint64_t mask) {
    const std::uint64_t full = ops.size() >= 64 ? ~0ull : (1ull << ops.size()) - 1;
    if (pos == s.size()) return mask == full;
    if (failed.count({pos, mask})) return false;
    for (std::size_t idx = 0; idx < ops.size() && idx < 64; ++idx) {
      for (const auto& alt : rows[idx].alternatives) {
        if (alt.empty()) continue;
        auto m = match(s, pos, alt, *ops[idx]);
        if (!m) continue;
        chunks.push_back({idx, pos, alt.size(), *m});
        if (run(pos + alt.size(), mask | (1ull << idx))) return true;
        chunks.pop_back();
      }
    }
    failed.insert({pos, mask});
    return false;
  }
};

std::string seq_text(const std::vector<PtxOp>& ptx) {
  std::string out;
  for (const auto& p : ptx) out += (out.empty() ? "" : "; ") + p.text;
  return out.empty() ? "(nothing)" : out;
}
}  // namespace

const char* verdict_name(Verdict v) {
  static const char* names[] = {"OK", "OK-STRONGER", "WRONG", "MISSING", "UNKNOWN", "NO-ROW"};
  return names[static_cast<int>(v)];
}

int AbiReport::exit_code() const {
  if (!calling.findings.empty()) return 1;
  int rc = 0;
  for (const auto& r : results) {
    if (r.verdict == Verdict::wrong || r.verdict == Verdict::missing) return 1;
    if (r.verdict == Verdict::no_row) rc = 2;
    if (r.verdict == Verdict::unknown && rc == 0) rc = 3;
  }
  if (rc == 0 && !unmatched.empty()) rc = 3;
  return rc;
}

AbiReport check_abi(const std::string& source, const ScanResult& scan, const PtxOps& ptx) {
  AbiReport report;
  report.source = source;
  for (const auto& n : scan.notes) report.notes.push_back(n.render());
  std::map<std::uint32_t, std::vector<std::size_t>> ops_by_line;
  for (std::size_t i = 0; i < scan.ops.size(); ++i) {
    OpResult r;
    r.op = scan.ops[i];
    report.results.push_back(r);
    ops_by_line[r.op.line].push_back(i);
  }
  std::map<std::uint32_t, std::vector<const PtxOp*>> strong_by_line, weak_by_line;
  for (const auto& p : ptx.ops) {
    if (p.line == 0) {
      if (p.cls) report.unmatched.push_back(p);
      continue;
    }
    (p.cls ? strong_by_line : weak_by_line)[p.line].push_back(&p);
  }
  for (const auto& [line, s] : strong_by_line)
    if (!ops_by_line.count(line)) for (const auto* p : s) report.unmatched.push_back(*p);

  for (auto& [line, indices] : ops_by_line) {
    std::sort(indices.begin(), indices.end(), [&](auto a, auto b) { return report.results[a].op.column < report.results[b].op.column; });
    std::vector<const SourceOp*> ops;
    std::vector<Row> rows;
    std::vector<std::size_t> which;
    for (auto i : indices) {
      auto& r = report.results[i];
      auto row = table_row(r.op.kind, r.op.order);
      if (!row) {
        r.verdict = Verdict::no_row;
        r.why = fmt::format("chapter 4 has no row for {} with memory_order_{}", kind_name(r.op.kind), order_name(r.op.order));
        continue;
      }
      std::string alts;
      for (const auto& a : row->alternatives) alts += (alts.empty() ? "" : " | ") + render(a, ptx_scope(r.op.scope), atom_suffix(r.op.rmw));
      r.table = alts;
      if (row->alternatives.size() == 1 && row->alternatives[0].empty()) {  // a relaxed fence: nothing to emit
        r.verdict = Verdict::ok;
        r.why = "a relaxed fence has no effect (C++ [atomics.fences]); chapter 4 lists no row";
        continue;
      }
      ops.push_back(&r.op);
      rows.push_back(*row);
      which.push_back(i);
    }
    if (ops.empty()) continue;
    const auto& s = strong_by_line[line];
    if (s.empty()) {
      for (auto i : which) {
        auto& r = report.results[i];
        r.verdict = Verdict::missing;
        for (const auto* w : weak_by_line[line]) r.ptx.push_back(*w);
        r.why = "no fence, strong ld/st or atom is attributed to this line";
      }
      continue;
    }
    // Code reached through a call that nvcc did not inline serves every order the callee was called with
    // (the order is a run-time argument): judging it needs interprocedural constants, so it is unknown.
    const PtxOp* called = nullptr;
    for (const auto* p : s) if (p->via_call) called = p;
    if (called) {
      for (auto i : which) {
        auto& r = report.results[i];
        for (const auto* p : s) r.ptx.push_back(*p);
        r.verdict = Verdict::unknown;
        r.why = "the instructions lie in " + called->function + ", which nvcc did not inline; the memory order may be chosen at run time";
      }
      continue;
    }
    Splitter split{s, ops, rows, {}, {}};
    if (split.run(0, 0)) {
      for (std::size_t k = 0; k < which.size(); ++k) report.results[which[k]].verdict = Verdict::ok;
      for (const auto& c : split.chunks) {
        auto& r = report.results[which[c.op]];
        for (std::size_t j = 0; j < c.len; ++j) r.ptx.push_back(*s[c.start + j]);
        if (c.stronger) r.verdict = Verdict::stronger;
      }
      continue;
    }
    for (auto i : which) {
      auto& r = report.results[i];
      for (const auto* p : s) r.ptx.push_back(*p);
      r.verdict = Verdict::wrong;
      r.why = which.size() > 1 ? "the line's instructions do not split into table sequences for its operations"
                               : "no table alternative (or strengthening of one) matches";
    }
  }
  return report;
}

nlohmann::json to_json(const AbiReport& r) {
  using nlohmann::json;
  json ops = json::array();
  auto ptx_json = [](const PtxOp& p) {
    return json{{"instruction", p.text}, {"ptx_line", p.ptx_line}, {"function", p.function}, {"via_call", p.via_call},
                {"line", p.line}, {"column", p.column}};
  };
  for (const auto& x : r.results) {
    json ptx = json::array();
    for (const auto& p : x.ptx) ptx.push_back(ptx_json(p));
    ops.push_back({{"line", x.op.line}, {"column", x.op.column}, {"operation", describe(x.op)}, {"api", x.op.api},
                   {"kind", kind_name(x.op.kind)}, {"order", order_name(x.op.order)}, {"scope", scope_name(x.op.scope)},
                   {"ptx", ptx}, {"verdict", verdict_name(x.verdict)}, {"table", x.table}, {"why", x.why}});
  }
  json unmatched = json::array();
  for (const auto& p : r.unmatched) unmatched.push_back(ptx_json(p));
  return json{{"source", r.source}, {"config", r.config}, {"operations", ops}, {"unmatched_ptx", unmatched},
              {"notes", r.notes}, {"calling_convention", to_json(r.calling)},
              {"exit_code", r.exit_code()}};
}

std::string to_text(const AbiReport& r) {
  std::string out;
  if (!r.config.empty()) out += "# " + r.config + "\n";
  for (const auto& x : r.results) {
    out += fmt::format("{}:{}:{}  {}  ->  {}  {}", r.source, x.op.line, x.op.column, describe(x.op), seq_text(x.ptx),
                       verdict_name(x.verdict));
    if (x.verdict == Verdict::stronger) out += "  (table: " + x.table + ")";
    else if (x.verdict != Verdict::ok) out += "  (" + x.why + (x.table.empty() ? "" : "; table: " + x.table) + ")";
    out += "\n";
  }
  for (const auto& p : r.unmatched)
    out += fmt::format("{}:{}  {}  (ptx line {}): ordering instruction with no recognised source operation\n", r.source,
                       p.line, p.text, p.ptx_line);
  for (const auto& n : r.notes) out += n + "\n";
  std::map<std::string, std::size_t> counts;
  for (const auto& x : r.results) ++counts[verdict_name(x.verdict)];
  std::string summary;
  for (const auto& [name, n] : counts) summary += fmt::format("{}{} {}", summary.empty() ? "" : ", ", n, name);
  out += fmt::format("{} operations ({}); {} unmatched PTX ordering instructions\n", r.results.size(),
                     summary.empty() ? "none" : summary, r.unmatched.size());
  return out + to_text(r.calling);
}

}  // namespace ptxcheck::abi
