// The dynamic engine's vector clocks against the memory model (docs/race/dynamic-engine.md, "Checked against the
// model"): each small kernel runs once per seed under the dynamic engine with the execution recorder
// (checker/race/execution_graph.hpp) watching the same run; the explicit evaluator (memmodel/cat/explicit.cpp)
// then evaluates proofs/models/ptx-race.cat's `data-race` (ISA 8.7.1 over memmodel/models/ptx.cat) on the
// recorded graph. The pairs of instructions the model says race must be the pairs the engine reports. Runs the
// recorder does not support are counted by reason and printed, never dropped silently.
#include "tests/unit/race/nvcc_line.hpp"
#include "tests/unit/race/race_model.hpp"
#include "checker/race/describe.hpp"
#include "checker/race/dynamic.hpp"
#include "checker/race/execution_graph.hpp"
#include "memmodel/cat/explicit.hpp"
#include "memmodel/cat/parse.hpp"
#include "semantics/interp/launch_json.hpp"
#include "semantics/ir/build.hpp"
#include "semantics/support/cuda.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>

namespace fs = std::filesystem;
using namespace ptxcheck;

namespace {
const fs::path source = PTXCHECK_SOURCE_DIR;
constexpr std::size_t kMaxEvents = 2000;  // the explicit evaluator is cubic: about a second at this size
// Schedules: the interpreter's deterministic one and random ones (a seed shuffles the warps of a CTA and the CTAs
// of a cluster each round), each with the CTAs started in grid order and in reverse (Options::first_ctas), so that
// flags are read before and after they are written.
constexpr std::uint64_t kSeeds[] = {0, 1, 2};

// Both accesses' Where::key: the CUDA line, else the PTX line; the engine reports one race per such pair.
using SitePair = race::RaceKey;

struct Tally {
  std::set<std::string> kernels;
  int executions = 0, racy = 0;
  std::map<std::string, int> unsupported;  // reason -> executions
  std::map<std::string, int> hidden;       // kernel -> the model's race pairs behind a superseded access
  std::map<std::string, int> mbarrier_object;  // kernel -> the model's race pairs of two mbarrier operations
};

std::string text(const std::set<SitePair>& s) {
  std::string out;
  for (const auto& [a, b] : s) out += "  " + a + " / " + b + "\n";
  return out.empty() ? "  (none)\n" : out;
}

// The engine keeps, per byte, the last write and each thread's latest read since it (FastTrack; docs/race/
// dynamic-engine.md, "Checked against the model"): an access no longer there when a later one comes is not checked
// against it. Whether event `e` of the recorded graph had left that history when event `later` ran (the events are
// numbered in the order they ran): another write of the location ran between them, or `e` is a read and its thread
// read the location again in between.
bool superseded(const mm::Execution& x, int e, int later) {
  const auto &W = x.sets.at("W"), &R = x.sets.at("R");
  const auto &loc = x.rels.at("loc"), &same_thread = x.rels.at("int"), &rmw = x.rels.at("rmw");
  for (int w = e + 1; w < later; ++w) {
    if (!loc.has(e, w) || rmw.has(e, w) || rmw.has(w, later)) continue;  // (an atom's own write is not another)
    if (W.has(w)) return true;
    if (R.has(e) && !x.sets.at("RMW").has(e) && R.has(w) && same_thread.has(e, w)) return true;
  }
  return false;
}

// The pairs of instructions (SitePair) the model says race, each with the pairs of events that do.
std::map<SitePair, std::vector<std::pair<int, int>>> model_races(const ptx::ir::Module& m, const race::RecordedExecution& g,
                                                                 const cat::ExplicitResult& r) {
  return race_model::races_by<SitePair>(g, r, [&](const ptx::ir::Instruction& a, const ptx::ir::Instruction& b) {
    return race::race_key(race::where_of(m, a), race::where_of(m, b));
  });
}

// One run of `launch` with seed `seed`: the engine's race pairs against the model's on the recorded graph. Every
// pair the engine reports is the model's; every pair of the model's is the engine's, or each of its racing event
// pairs has its earlier event superseded (the known difference).
// `expect_race`: what the kernel's first line says the spec gives on every schedule (`// expect: race` or
// `// expect: race-free`, the kernels of tests/unit/race/dynamic_model written from the spec's sentences), which
// the model and the engine must both answer; nullopt: no such line.
void compare(const std::string& name, const ptx::ir::Module& m, const ptx::interp::Launch& launch, std::uint64_t seed,
             bool reversed, const cat::Model& model, std::optional<bool> expect_race, Tally& tally) {
  CAPTURE(name);
  CAPTURE(seed);
  CAPTURE(reversed);
  race::ExecutionRecorder recorder(m, launch, kMaxEvents);
  race::DynamicOptions o;
  o.seed = seed;
  o.max_races = 1u << 20;
  o.also = &recorder;
  if (reversed)
    for (std::uint32_t z = launch.grid[2]; z-- > 0;)
      for (std::uint32_t y = launch.grid[1]; y-- > 0;)
        for (std::uint32_t x = launch.grid[0]; x-- > 0;) o.first_ctas.push_back({x, y, z});
  const race::DynamicResult d = race::check_execution(m, launch, o);
  REQUIRE(d.error.empty());
  // A run the interpreter stopped (an undefined operation on this schedule: a try_cancel response read before it
  // landed) is no whole execution to compare: counted with the refused ones, by its kind.
  if (!d.run.ok()) {
    ++tally.unsupported[std::string("the run stopped: ") + ptx::interp::problem_kind_name(d.run.problem.kind)];
    return;
  }
  const race::RecordedExecution g = recorder.finish();
  if (!g.unsupported.empty()) {
    if (std::getenv("DYNMODEL_DEBUG")) std::cout << name << " seed " << seed << (reversed ? "r" : "") << ": not compared, " << g.unsupported << "\n";
    ++tally.unsupported[g.unsupported];
    return;
  }
  const cat::ExplicitResult r = cat::evaluate_explicit(model, g.graph);
  // The interpreter's run is sequentially consistent, which the PTX model allows: every axiom holds on its graph.
  const std::string violated = r.violated().empty() ? std::string() : r.violated()[0];
  CHECK_MESSAGE(r.consistent(), "axiom violated on the recorded run: " << violated);
  const auto by_model = model_races(m, g, r);
  std::set<SitePair> model_pairs, by_engine, hidden;
  for (const auto& x : d.races) by_engine.insert(race::race_key(x.first.where, x.second.where));
  for (const auto& [pair, events] : by_model) {
    model_pairs.insert(pair);
    if (by_engine.count(pair)) continue;
    // Known difference: the engine checks no mbarrier operation against another on the object itself (it orders
    // through them); the model's races between two of them, not morally strong (8.7), are counted apart.
    const auto on_object = [&](auto ab) { return g.instruction[ab.first]->op == ptx::ir::Opcode::mbarrier_ && g.instruction[ab.second]->op == ptx::ir::Opcode::mbarrier_; };
    if (std::all_of(events.begin(), events.end(), on_object)) {
      ++tally.mbarrier_object[name];
      continue;
    }
    const bool all_superseded = std::all_of(events.begin(), events.end(), [&](auto ab) { return superseded(g.graph, ab.first, ab.second); });
    CHECK_MESSAGE(all_superseded, "the model's race " << pair.first << " / " << pair.second << " is not the engine's");
    hidden.insert(pair);
  }
  CHECK_MESSAGE(std::includes(model_pairs.begin(), model_pairs.end(), by_engine.begin(), by_engine.end()),
                "the model's races:\n" << text(model_pairs) << "the engine's:\n" << text(by_engine));
  if (expect_race) {
    CHECK_MESSAGE(model_pairs.empty() != *expect_race, "the model's races:\n" << text(model_pairs));
    CHECK_MESSAGE(by_engine.empty() != *expect_race, "the engine's races:\n" << text(by_engine));
  }
  if (std::getenv("DYNMODEL_DEBUG"))  // every execution's races, for a reader of a failure
    std::cout << name << " seed " << seed << (reversed ? "r" : "") << ": " << g.graph.n << " events, races:\n" << text(model_pairs);
  tally.kernels.insert(name);
  ++tally.executions;
  tally.racy += !model_pairs.empty();
  if (!hidden.empty()) tally.hidden[name] += static_cast<int>(hidden.size());
}

struct Loaded {
  std::optional<ptx::ir::Module> module;
  ptx::interp::Launch launch;
};

// A kernel file (.cu through nvcc, or .ptx) and the launch file of the same name.
Loaded load(const fs::path& file) {
  CudaOptions cuda;
  cuda.cache_dir = (fs::temp_directory_path() / "ptxcheck-race-unit-ptx").string();
  auto text = load_ptx_or_cuda(file.string(), test::with_nvcc_line(file, cuda));
  REQUIRE_MESSAGE(text.text, file.string());
  auto built = ptx::ir::load_ptx(std::move(*text.text), file.string());
  REQUIRE_MESSAGE(built, file.string());
  Loaded l;
  l.module = std::move(built.module);
  std::string error;
  REQUIRE_MESSAGE(ptx::interp::read_launch_file(fs::path(file).replace_extension(".json").string(), l.launch, error), error);
  auto kernels = l.module->kernels();
  std::erase_if(kernels, [](const ptx::ir::Function* f) { return !f->has_body; });
  REQUIRE(kernels.size() == 1);
  l.launch.kernel = kernels[0]->name;
  return l;
}

std::optional<bool> expected_race(const fs::path& file) {
  std::ifstream in(file);
  std::string first;
  std::getline(in, first);
  if (first.rfind("// expect: race-free", 0) == 0) return false;
  if (first.rfind("// expect: race", 0) == 0) return true;
  return std::nullopt;
}

}  // namespace

TEST_CASE("dynamic engine against ptx-race.cat: the same data races on recorded executions") {
  const cat::Model model = race_model::ptx_race();
  std::vector<fs::path> files;
  for (const char* dir : {"tests/unit/race/dynamic", "tests/unit/race/dynamic_model"})
    for (const auto& e : fs::directory_iterator(source / dir))
      if (e.path().extension() == ".cu" || e.path().extension() == ".ptx") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  Tally tally;
  for (const auto& f : files) {
    const Loaded l = load(f);
    const auto expect = f.extension() == ".ptx" ? expected_race(f) : std::nullopt;
    for (bool reversed : {false, true})
      for (std::uint64_t seed : kSeeds) compare(f.filename().string(), *l.module, l.launch, seed, reversed, model, expect, tally);
  }
  std::cout << "dynamic engine vs ptx-race.cat: " << tally.executions << " executions of " << tally.kernels.size()
            << " kernels compared (" << tally.racy << " with races), of " << files.size() << " kernels x "
            << 2 * std::size(kSeeds) << " schedules\n";
  for (const auto& [why, n] : tally.unsupported) std::cout << "  not compared, " << n << " executions: " << why << "\n";
  for (const auto& [kernel, n] : tally.hidden)
    std::cout << "  known difference (an access superseded in the engine's history), " << n << " race pairs: " << kernel << "\n";
  for (const auto& [kernel, n] : tally.mbarrier_object)
    std::cout << "  known difference (two operations on an mbarrier object), " << n << " race pairs: " << kernel << "\n";
  // Not vacuous: most kernels are compared, with racy and race-free executions among them.
  REQUIRE(tally.kernels.size() >= 70);
  // mbarrier, barrier.cluster and bar.warp.sync are compared (execution_graph_sync.cpp), not refused.
  // So are bulk copies completing on an mbarrier (with tx-count) or in a bulk async-group (execution_graph_async.cpp),
  // race-free and racy.
  for (const char* k : {"mbarrier_parity_two_phases.ptx", "mbarrier_fence_relaxed_arrive.ptx", "cluster_barrier_dsmem.ptx",
                        "dsmem_cluster_sync.cu", "warp_sync_halves.ptx", "warp_syncwarp.cu", "bulk_load_wait.cu",
                        "bulk_load_read_before_wait.cu", "bulk_pipeline_fenced.cu", "bulk_pipeline_no_proxy_fence.cu",
                        "bulk_pipeline_release_early.cu", "mbarrier_arrive_wait.cu", "bulk_store_proxy_fence.cu",
                        "bulk_store_no_proxy_fence.cu", "bulk_store_read_after_wait.ptx"})
    CHECK_MESSAGE(tally.kernels.count(k), k << " was not compared");
  REQUIRE(tally.racy >= 100);
  REQUIRE(tally.executions - tally.racy >= 100);
  // The known difference is met where it is expected (tests/unit/race/dynamic_model/race_behind_*.ptx).
  CHECK(tally.hidden.count("race_behind_race.ptx"));
  CHECK(tally.hidden.count("race_behind_read.ptx"));
  CHECK(tally.mbarrier_object.count("mbarrier_remote_arrive_cta_wait.ptx"));
  CHECK(tally.mbarrier_object.size() == 1);  // nowhere else
}

// The agreement above is not for want of races in the model: on race-free runs, taking away the synchronization the
// recorder found (a barrier phase, what a read read, the proxy fences: the implicit one after a bulk copy's
// completion, 9.7.9.25.2, and fence.proxy.async) makes the model report the race it prevented.
TEST_CASE("dynamic engine against ptx-race.cat: the recorded synchronization is what orders the accesses") {
  const cat::Model model = race_model::ptx_race();
  auto races = [&](const mm::Execution& x) {
    const auto r = cat::evaluate_explicit(model, x);
    int n = 0;
    const auto& rel = std::get<mm::Rel>(r.env.at("data-race"));
    for (int a = 0; a < x.n; ++a)
      for (int b = 0; b < x.n; ++b) n += rel.has(a, b);
    return n;
  };
  const std::pair<const char*, const char*> cases[] = {
      {"bar_arrive_then_sync", "syncbar"}, {"release_acquire_gpu_across_ctas", "rf"}, {"mbarrier_arrive_test_wait", "rf"},
      {"cluster_barrier_dsmem", "syncbar"}, {"warp_sync_pairs", "syncbar"}, {"bulk_copy_mbarrier_wait", "rf"},
      {"bulk_copy_mbarrier_wait", "PROXYF"}, {"bulk_copy_after_write_proxy_fence", "PROXYF"},
      {"bulk_store_read_after_wait", "syncbar"}, {"bulk_store_read_after_wait", "PROXYF"}};
  for (const auto& c : cases) {
    const char *name = c.first, *taken = c.second;
    CAPTURE(name);
    const Loaded l = load(source / "tests/unit/race/dynamic_model" / (std::string(name) + ".ptx"));
    race::ExecutionRecorder recorder(*l.module, l.launch, kMaxEvents);
    race::DynamicOptions o;
    o.also = &recorder;  // seed 0, grid order: the writer runs first
    const race::DynamicResult d = race::check_execution(*l.module, l.launch, o);
    REQUIRE(d.races.empty());
    race::RecordedExecution g = recorder.finish();
    REQUIRE(g.unsupported.empty());
    CHECK(races(g.graph) == 0);
    if (g.graph.sets.count(taken)) g.graph.sets[taken] = mm::Set(g.graph.n);
    else g.graph.rels[taken] = mm::Rel(g.graph.n);
    CHECK(races(g.graph) > 0);
  }
}
