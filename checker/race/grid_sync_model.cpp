// See grid_sync_model.hpp.
#include "checker/race/grid_sync_model.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace ptxcheck::race {
namespace {

constexpr const char* kFlipped = "2147483648";  // W's top bit (0x80000000)

std::string added_value(int cta, int ctas) { return std::to_string(grid_sync_addend(cta, ctas)); }

// One thread's column: b before the first barrier (when `b`), its cells between the barriers, a after the second
// (when `a`). An adding thread computes into r8 whether W's top bit differs from what its add returned (r0) after
// its last load of W.
std::vector<std::string> thread_cells(const GridQuestion& q, int cta, bool adds, bool b, bool a) {
  std::vector<std::string> out;
  int next_register = 10;
  auto with_register = [&](std::string cell) {
    if (auto at = cell.find("{d}"); at != std::string::npos) cell.replace(at, 3, fmt::format("r{}", next_register++));
    return cell;
  };
  if (b) out.push_back(q.b_writes ? "st.weak.global.b32 [data], 1" : "ld.weak.global.b32 r1, [data]");
  out.push_back("bar.cta.sync 0");
  const auto c = static_cast<std::size_t>(cta);
  if (!adds) {
    for (const auto& cell : q.other[c]) out.push_back(with_register(cell));
  } else {
    for (const auto& cell : q.before[c]) out.push_back(with_register(cell));
    std::string add = q.add;
    add.replace(add.find("{d}"), 3, "r0");
    add.replace(add.find("{v}"), 3, added_value(cta, q.ctas));
    out.push_back(add);
    std::size_t last_load = 0;
    for (std::size_t k = 0; k < q.after[c].size(); ++k)
      if (q.after[c][k].find("[W]") != std::string::npos) last_load = k + 1;
    for (std::size_t k = 0; k < q.after[c].size(); ++k) {
      out.push_back(with_register(q.after[c][k]));
      if (k + 1 == last_load) {
        out.push_back(fmt::format("xor.b32 r8, r{}, r0", next_register - 1));
        out.push_back(fmt::format("and.b32 r8, r8, {}", kFlipped));
      }
    }
  }
  if (q.second_barrier) out.push_back("bar.cta.sync 0");
  if (a) out.push_back(q.a_writes ? "st.weak.global.b32 [data], 2" : "ld.weak.global.b32 r1, [data]");
  return out;
}

}  // namespace

std::int64_t grid_sync_addend(int cta, int ctas) { return cta == 0 ? 0x80000000LL - (ctas - 1) : 1; }

std::string grid_litmus(const GridQuestion& q) {
  std::vector<std::vector<std::string>> columns;
  std::string header;
  for (int cta = 0; cta < q.ctas; ++cta)
    for (bool adds : {true, false}) {
      const bool b = cta == q.b_cta && adds == q.b_adds, a = cta == q.a_cta && adds == q.a_adds;
      header += fmt::format("{}P{}@cta {},gpu 0", columns.empty() ? " " : " | ", columns.size(), cta);
      columns.push_back(thread_cells(q, cta, adds, b, a));
    }
  // CTAs without a cluster each run in an implicit cluster of their own (ISA 2.2.2): the farthest CTAs of one GPU,
  // which share the fewest scopes (8.5), so the fewest orderings.
  const std::string text = "PTX grid-sync\n{\ndata = 0; W = 0;\n}\n" + header + " ;\n" + litmus_rows(columns);
  // The adding thread of a's CTA is column 2 * a_cta.
  return text + fmt::format("exists (P{}:r8 == {})\n", 2 * q.a_cta, kFlipped);
}

std::optional<bool> grid_races(const GridQuestion& q, std::string& why) {
  // Four threads with two RMWs on W and two barriers: the symbolic engine (the explicit one enumerates every
  // coherence order and barrier phasing; both engines agree on the litmus suites).
  return race_question(grid_litmus(q), "weak-data-race", litmus::Engine::symbolic, "no execution in which the spin of a's CTA ended", why);
}

namespace {

// A region path's cells with W's accesses on `W`: in the region every memory operation is one of W's (grid_sync.cpp).
std::optional<std::vector<PathShape>> region_shapes(const ptx::ir::Function& f, const Cfg& g, std::uint32_t from, std::uint32_t to,
                                                    const PathBounds& bounds = {}) {
  auto shapes = path_shapes(f, g, from, to, 8, bounds);
  if (shapes)
    for (PathShape& s : *shapes)
      for (std::string& cell : s)
        if (auto at = cell.find("[other]"); at != std::string::npos) cell.replace(at, 7, "[W]");
  return shapes;
}

// Every choice of one of `shapes` per CTA, as per-CTA vectors.
template <class Shape>
std::vector<std::vector<Shape>> per_cta_choices(const std::vector<Shape>& shapes, int ctas) {
  std::vector<std::vector<Shape>> out{{}};
  for (int c = 0; c < ctas; ++c) {
    std::vector<std::vector<Shape>> next;
    for (const auto& prefix : out)
      for (const auto& s : shapes) {
        next.push_back(prefix);
        next.back().push_back(s);
      }
    out = std::move(next);
  }
  return out;
}

// The adding thread's paths: a shape before the add followed by one after it, kept apart.
std::vector<std::pair<PathShape, PathShape>> adder_paths(const std::vector<PathShape>& before, const std::vector<PathShape>& after) {
  std::vector<std::pair<PathShape, PathShape>> out;
  for (const auto& b : before)
    for (const auto& a : after) out.emplace_back(b, a);
  return out;
}

constexpr std::size_t kMostQuestions = 96;

}  // namespace

GridOrder grid_sync_orders(const ptx::ir::Function& f, const Cfg& g, const GridSync& gs) {
  GridOrder out;
  const auto add = memory_cell(f.body[gs.add], "W", "{d}", "{v}");
  const auto before = region_shapes(f, g, gs.begin, gs.add), after = region_shapes(f, g, gs.add, gs.end);
  const auto other = region_shapes(f, g, gs.begin, gs.end, PathBounds{std::nullopt, {gs.add}});
  if (!add || !before || !after || !other) {
    out.why = !add ? "its add on W is not one litmus cell" : "too many path shapes";
    return out;
  }
  // No path that reads W after the add (the adder need not wait), or none that skips the add (every thread adds:
  // not the idiom's count): no grid-wide ordering.
  const bool reads_w = std::all_of(after->begin(), after->end(), [](const PathShape& s) {
    return std::any_of(s.begin(), s.end(), [](const std::string& c) { return c.find("[W]") != std::string::npos; });
  });
  if (before->empty() || after->empty() || other->empty() || !reads_w) {
    out.ordered = false;
    out.why = other->empty() ? "every path between its barriers passes the add" : "a path from its add to the second barrier reads W nowhere";
    return out;
  }
  GridQuestion q;
  q.add = *add;
  const auto adder_choices = per_cta_choices(adder_paths(*before, *after), q.ctas);
  const auto other_choices = per_cta_choices(*other, q.ctas);
  out.ordered = true;
  if (adder_choices.size() * other_choices.size() * 24 > kMostQuestions) {
    out.ordered = std::nullopt;
    out.why = "too many path shapes";
    return out;
  }
  for (const auto& ad : adder_choices)
    for (const auto& ot : other_choices)
      for (int b_cta : {0, 1})
        for (int roles = 0; roles < 4; ++roles)
          for (auto [b_writes, a_writes] : {std::pair{true, false}, std::pair{false, true}, std::pair{true, true}}) {
            q.before.clear(), q.after.clear();
            for (const auto& [bf, af] : ad) q.before.push_back(bf), q.after.push_back(af);
            q.other = ot;
            q.b_cta = b_cta, q.a_cta = 1 - b_cta, q.b_adds = roles & 1, q.a_adds = roles & 2;
            q.b_writes = b_writes, q.a_writes = a_writes;
            std::string why;
            const auto races = grid_races(q, why);
            ++out.asked;
            if (races == false) continue;
            out.question = grid_litmus(q);
            if (races) {
              out.ordered = false, out.why = "b and a race in one of its questions";
              return out;
            }
            out.ordered = std::nullopt, out.why = why;
          }
  return out;
}

}  // namespace ptxcheck::race
