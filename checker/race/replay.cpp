// See replay.hpp.
#include "checker/race/replay.hpp"

#include "checker/race/dynamic.hpp"

#include <algorithm>
#include <functional>

#include <fmt/format.h>

namespace ptxcheck::race {
namespace {
using ptx::interp::Launch;
using ptx::interp::ParamValue;

// How a replay fills the buffers behind pointer parameters. Loaded values are unconstrained in the symbolic
// engine, so no fill is "the" witness's; zeros first, then each 32-bit word holding its own index (an identity map
// for index arrays), then zeros with the words the witness's loads returned in the solver's model (Witness::loaded:
// a flag that starts set), since a race that depends on memory contents shows under one fill and not another.
enum class Fill { zero, index, loaded };

// The words of a loaded fill as the report names them ("arg2+0 = 0x1": argument, byte offset, value), the first few.
std::string loaded_words_text(const ptx::ir::Function& kernel, const Witness& w) {
  constexpr std::size_t shown = 6;
  std::string text;
  for (std::size_t k = 0; k < w.loaded.size() && k < shown; ++k) {
    const Witness::Word& word = w.loaded[k];
    auto param = std::find_if(kernel.params.begin(), kernel.params.end(), [&](const auto& p) { return p.name == word.param; });
    const std::string name = param == kernel.params.end() ? word.param : "arg" + std::to_string(param - kernel.params.begin() + 1);
    text += (k ? ", " : "") + name + "+" + std::to_string(word.offset) + " = " + fmt::format("{:#x}", word.value);
  }
  if (w.loaded.size() > shown) text += " and " + std::to_string(w.loaded.size() - shown) + " more";
  return text;
}

std::string fill_text(Fill fill, const ptx::ir::Function& kernel, const Witness& w) {
  switch (fill) {
    case Fill::zero: return "buffers zero";
    case Fill::index: return "buffers holding each word's index";
    case Fill::loaded: return "buffers zero but for the words the witness's loads read (" + loaded_words_text(kernel, w) + ")";
  }
  return "";
}

// The witness as a launch, or nullopt with the reason in `why`.
std::optional<Launch> launch_of(const ptx::ir::Module& m, const ptx::ir::Function& kernel, const Witness& w, const std::vector<RaceReport>& races,
                                const RaceReport& replayed, Fill fill, const ReplayOptions& o, std::string& why) {
  Launch l;
  l.kernel = kernel.name;
  l.block = w.block;
  l.grid = w.grid;
  l.cooperative = o.cooperative;
  if (std::any_of(m.globals.begin(), m.globals.end(), [](const auto& v) { return v.space == ptx::ir::StateSpace::shared && v.is_extern; }))
    l.dynamic_shared_bytes = o.dynamic_shared_bytes;
  const std::uint64_t threads = std::uint64_t(w.block[0]) * w.block[1] * w.block[2] * w.grid[0] * w.grid[1] * w.grid[2];
  if (threads > o.max_threads) {
    why = "the witness launch has " + std::to_string(threads) + " threads (at most " + std::to_string(o.max_threads) + " are replayed)";
    return std::nullopt;
  }
  for (const auto& p : kernel.params) {
    if (w.pointers.count(p.name)) {
      // Room for the replayed race's accesses, every other reported access that fits the cap, and at least 1 MiB
      // or 16 bytes per thread of the launch (a tiled kernel's other accesses reach far with a few loop
      // iterations; bytes nobody touches cost little).
      auto end_of = [&](const AccessReport& a) {
        return a.object == p.name && a.offset >= 0 ? static_cast<std::uint64_t>(a.offset) + a.size : 0;
      };
      std::uint64_t bytes = std::max<std::uint64_t>(1u << 20, threads * 16);
      for (const auto* a : {&replayed.first, &replayed.second}) bytes = std::max(bytes, end_of(*a));
      if (bytes > o.max_buffer_bytes) {
        why = "the witness accesses " + p.name + " at offset " + std::to_string(bytes) + " (buffers are at most " +
              std::to_string(o.max_buffer_bytes) + " bytes)";
        return std::nullopt;
      }
      for (const auto& r : races)
        for (const auto* a : {&r.first, &r.second})
          if (end_of(*a) <= o.max_buffer_bytes) bytes = std::max(bytes, end_of(*a));
      std::vector<std::uint8_t> data(bytes, 0);
      if (fill == Fill::index)
        for (std::uint64_t i = 0; i + 4 <= bytes; i += 4)
          for (int k = 0; k < 4; ++k) data[i + k] = static_cast<std::uint8_t>((i / 4) >> (8 * k));
      if (fill == Fill::loaded)
        for (const auto& word : w.loaded)
          if (word.param == p.name && word.offset < bytes && word.bytes <= bytes - word.offset)  // (a negative offset wraps)
            for (unsigned k = 0; k < word.bytes; ++k) data[word.offset + k] = static_cast<std::uint8_t>(word.value >> (8 * k));
      l.buffers.push_back({p.name, std::move(data)});
      ParamValue v;
      v.buffer = p.name;
      l.params.push_back(v);
      continue;
    }
    const std::uint64_t size = p.size_bytes();
    if (size > 8) {
      why = "parameter " + p.name + " is an aggregate of " + std::to_string(size) + " bytes, which a launch cannot pass yet";
      return std::nullopt;
    }
    ParamValue v;
    v.type = size == 1 ? ptx::ir::ScalarType::u8 : size == 2 ? ptx::ir::ScalarType::u16 : size == 4 ? ptx::ir::ScalarType::u32 : ptx::ir::ScalarType::u64;
    if (auto it = w.args.find(p.name); it != w.args.end())
      for (const auto& [offset, arg] : it->second) {
        if (offset >= 8) continue;
        const std::uint64_t mask = arg.bits >= 64 ? ~0ull : (1ull << arg.bits) - 1;
        v.bits |= (arg.value & mask) << (8 * offset);
      }
    l.params.push_back(v);
  }
  return l;
}

// The first assumption the launch does not satisfy (or that it cannot tell), if any.
const Assumption* broken_assumption(const ptx::ir::Module& m, const ptx::ir::Function& kernel, const Launch& l, const Witness& w,
                                    const std::vector<Assumption>& assumptions) {
  ConcreteLaunch concrete;
  concrete.block = l.block;
  concrete.grid = l.grid;
  concrete.argument = [&](std::uint64_t k) -> std::optional<std::uint64_t> {
    auto it = w.args.find(kernel.params[k - 1].name);
    if (it == w.args.end() || it->second.empty()) return std::nullopt;
    std::uint64_t bits = 0;
    for (const auto& [offset, arg] : it->second)
      if (offset < 8) bits |= arg.value << (8 * offset);
    return bits;
  };
  concrete.element = [&](std::uint64_t k, std::uint64_t offset, unsigned bytes) -> std::optional<std::uint64_t> {
    const std::ptrdiff_t b = l.buffer_index(kernel.params[k - 1].name);
    if (b < 0) return std::nullopt;
    const auto& data = l.buffers[static_cast<std::size_t>(b)].second;
    if (offset >= data.size() || bytes > data.size() - offset) return std::nullopt;
    std::uint64_t bits = 0;
    for (unsigned i = 0; i < bytes; ++i) bits |= std::uint64_t{data[offset + i]} << (8 * i);
    return bits;
  };
  // Module variables start the run as their initializers give them (zero without one: ISA 5.1.4).
  concrete.variable = [&](const std::string& name, std::uint64_t offset, unsigned bytes) -> std::optional<std::uint64_t> {
    const ptx::ir::Variable* v = m.find_global(name);
    if (!v || offset >= v->size_bytes() || bytes > v->size_bytes() - offset) return std::nullopt;
    std::uint64_t bits = 0;
    for (unsigned i = 0; i < bytes && v->has_initializer; ++i) bits |= std::uint64_t{v->init[offset + i]} << (8 * i);
    return bits;
  };
  for (const Assumption& a : assumptions) {
    if (!a.for_each_index) {
      if (assumption_holds(a, kernel, &m, concrete) != true) return &a;
      continue;
    }
    // Every index of the buffers the assumption's `[*]` elements are in (beyond them the launch has no memory).
    std::uint64_t indices = ~std::uint64_t{0};
    std::function<void(const AssumeExpr&)> bound = [&](const AssumeExpr& e) {
      if (e.kind == AssumeExpr::Kind::element && e.operands[0]->kind == AssumeExpr::Kind::each_index) {
        std::string unused;
        const auto type = integer_element(kernel, e.value, unused);
        const std::ptrdiff_t b = l.buffer_index(kernel.params[e.value - 1].name);
        indices = std::min<std::uint64_t>(indices, type && b >= 0 ? l.buffers[static_cast<std::size_t>(b)].second.size() / type->bytes : 0);
      }
      if (e.kind == AssumeExpr::Kind::variable && !e.operands.empty() && e.operands[0]->kind == AssumeExpr::Kind::each_index) {
        const ptx::ir::Variable* v = m.find_global(e.name);
        indices = std::min<std::uint64_t>(indices, v ? v->count : 0);
      }
      for (const auto& x : e.operands) bound(*x);
    };
    bound(*a.expr);
    if (indices == ~std::uint64_t{0}) indices = 0;
    for (std::uint64_t i = 0; i < indices; ++i)
      if (assumption_holds(a, kernel, &m, concrete, i) != true) return &a;
  }
  return nullptr;
}

bool same_pair(const RaceReport& a, const RaceReport& b) {
  return race_key(a.first.where, a.second.where) == race_key(b.first.where, b.second.where);
}

void append(std::string& note, const std::string& more) { note += (note.empty() ? "" : "; ") + more; }
}  // namespace

void replay_races(const ptx::ir::Module& m, const ptx::ir::Function& kernel, std::vector<RaceReport>& races, const ReplayOptions& o) {
  std::vector<std::string> why_not(races.size());
  // Races the replay shows only as dynamic.cpp's layout-dependent (wmma) ones: they stay possible.
  std::vector<bool> layout_only(races.size());
  // Races a replayed execution shows between other pairs than the reported ones: real races of the kernel too
  // (the dynamic engine is exact on the execution it runs), added after the loop as confirmed reports.
  std::vector<RaceReport> also_seen;
  unsigned runs = 0;
  const std::size_t reported = races.size();
  // Certain races first: the verdict rests on them, so whether an execution shows one matters most; the possible
  // ones then, in report order, while the budget lasts.
  std::vector<std::size_t> order(reported);
  for (std::size_t i = 0; i < reported; ++i) order[i] = i;
  std::stable_partition(order.begin(), order.end(), [&](std::size_t i) { return !races[i].possible; });
  for (std::size_t i : order) {
    if (races[i].confirmed || !races[i].witness) continue;
    const Witness& w = *races[i].witness;
    for (Fill fill : {Fill::zero, Fill::index, Fill::loaded}) {
      if (fill == Fill::loaded && w.loaded.empty()) continue;  // the zero fill again
      if (runs >= o.max_runs) {
        if (why_not[i].empty()) why_not[i] = "the replay budget of " + std::to_string(o.max_runs) + " runs per kernel was used up";
        break;
      }
      std::string why;
      auto launch = launch_of(m, kernel, w, races, races[i], fill, o, why);
      if (!launch) {
        why_not[i] = why;
        break;
      }
      if (const auto broken = broken_assumption(m, kernel, *launch, w, o.assumptions)) {
        why_not[i] = "the replay with " + fill_text(fill, kernel, w) + " does not satisfy --assume '" + broken->text + "'";
        continue;
      }
      ++runs;
      DynamicOptions d;
      d.max_steps = o.max_steps;
      d.max_threads = o.max_threads;
      d.max_seconds = o.max_seconds;
      d.max_shadow_bytes = o.max_shadow_bytes;
      // Memory as the model has it (a flag already set) lets the reading thread run ahead of the writer: its CTA
      // first (the reader of a read-write pair, else the second thread's).
      const ThreadIds& ahead = races[i].first.kind == "read" && races[i].second.kind != "read" ? races[i].t1 : races[i].t2;
      const std::array<std::uint32_t, 3> ahead_cta{static_cast<std::uint32_t>(ahead.ctaid[0]), static_cast<std::uint32_t>(ahead.ctaid[1]),
                                                   static_cast<std::uint32_t>(ahead.ctaid[2])};
      if (fill == Fill::loaded) d.first_ctas.push_back(ahead_cta);
      DynamicResult res = check_execution(m, *launch, d);
      if (!res.error.empty()) {
        why_not[i] = res.error;
        break;
      }
      const std::string how = "block " + dims_text(w.block) + ", grid " + dims_text(w.grid) +
                              (launch->dynamic_shared_bytes ? ", " + std::to_string(launch->dynamic_shared_bytes) + " bytes of dynamic shared memory" : "") +
                              ", " + fill_text(fill, kernel, w) + (fill == Fill::loaded ? ", CTA " + dims_text(ahead_cta) + " first" : "");
      for (std::size_t k = 0; k < races.size(); ++k) {
        RaceReport& r = races[k];
        if (r.confirmed) continue;
        auto seen = std::find_if(res.races.begin(), res.races.end(), [&](const RaceReport& x) { return same_pair(x, r); });
        if (seen == res.races.end()) continue;
        if (seen->possible) {
          if (k < layout_only.size() && !layout_only[k])
            append(r.note, "the replay (" + how + ") races here under the interpreter's wmma fragment layout, which the spec leaves "
                           "open (ISA 9.7.14.4.1): not a confirmation");
          if (k < layout_only.size()) layout_only[k] = true;
          continue;
        }
        // The report shows the threads and locations of the execution that raced (the solver's model, whose memory
        // the replay need not have, may name others); the witness stays the launch that was run.
        const bool swapped = seen->first.where.key() != r.first.where.key();
        r.t1 = swapped ? seen->t2 : seen->t1;
        r.t2 = swapped ? seen->t1 : seen->t2;
        r.first = swapped ? seen->second : seen->first;
        r.second = swapped ? seen->first : seen->second;
        r.confirmed = true;
        r.possible = false;
        r.note = "confirmed: the interpreter ran the witness (" + how + ") and this execution races between these threads";
      }
      for (const auto& x : res.races) {
        auto same = [&](const RaceReport& r) { return same_pair(x, r); };
        if (std::none_of(races.begin(), races.end(), same) && std::none_of(also_seen.begin(), also_seen.end(), same)) {
          RaceReport seen = x;
          seen.confirmed = !x.possible;
          seen.note = "found by the replay of another race's witness (" + how + "): this execution races here" +
                      (x.possible ? "; " + x.note : std::string());
          also_seen.push_back(std::move(seen));
        }
      }
      if (races[i].confirmed || layout_only[i]) break;
      why_not[i] = res.run.ok() ? "the replayed execution (" + how + ") showed no race between these two instructions (its detector "
                                  "lets a write stand for the accesses it follows, so such a race may show under another pair)"
                                : "the replay (" + how + ") stopped early (" + ptx::interp::problem_kind_name(res.run.problem.kind) +
                                      "): " + res.run.problem.message;
    }
  }
  for (std::size_t i = 0; i < reported; ++i)
    if (!races[i].confirmed && !layout_only[i] && !why_not[i].empty()) append(races[i].note, "not confirmed on the interpreter: " + why_not[i]);
  for (auto& r : also_seen) races.push_back(std::move(r));
}

}  // namespace ptxcheck::race
