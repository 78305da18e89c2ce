// Differential test of the race checker's two engines on generated PTX kernels: the dynamic engine (dynamic.hpp) is
// exact on the one execution it runs, so every race it sees must be among the symbolic engine's reports for the
// same launch shape (soundness: never race-free on a racy kernel). Kernels whose only ordering is barriers, with
// addresses computed from thread ids alone, race the same way in every execution: there the two engines must give
// the same verdict, and the symbolic one must decide (a definite race the execution does not have is a false
// report). (Pairs are compared one way only: like FastTrack, the dynamic engine lets a write stand for the reads
// before it, so a race may be reported under another pair of instructions.) Atomics and strong accesses may order
// accesses by what a read observes (ISA 8.9.5), which one execution decides, so kernels with them are checked in
// the soundness direction only.
// The memory model is the third party: each run is also recorded as an execution graph (execution_graph.hpp) on
// which proofs/models/ptx-race.cat's `data-race` is evaluated. Its races are real, so the symbolic engine must report
// them; on the kernels ordered by barriers only, the symbolic engine's pairs must be exactly the model's: the
// barrier intervals, warp barriers and named barriers the engine reads from the code's structure order what the
// model's sync-barrier orders (issue 33: "run the model-based ordering beside the current one and record every
// disagreement").
#include "tests/unit/race/race_model.hpp"
#include "checker/race/check.hpp"
#include "checker/race/dynamic.hpp"
#include "checker/race/report.hpp"
#include "semantics/ir/build.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <map>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

using namespace ptxcheck;

namespace {

struct GeneratedKernel {
  std::string ptx;
  std::array<std::uint32_t, 3> block{1, 1, 1}, grid{1, 1, 1};
  bool barrier_ordered_only = true;  // no atomics or strong accesses
  // Loops (their iterations abstracted) or a fence (which may order with strong accesses the engine does not
  // follow): the symbolic engine may say possible where the execution is race-free.
  bool abstracted = false;
};

constexpr unsigned shared_bytes = 512, global_bytes = 2048;

// A kernel of 2-9 statements: CTA and warp barriers, loads, stores and atomics of 1-16 bytes at
// ((id * A + B) op C) & mask in a shared array or the global buffer, some under a predicate on the thread id or
// inside a branch around them, loops of 2-4 iterations (the index adding a multiple of the counter) with or
// without a CTA barrier, cp.async copies with their commits and waits, broadcast shuffles in the lanes a ballot
// names, and producer/consumer roles on a named barrier.
// `whole_words`: every access a 4-byte word and no cp.async, so that the run's graph has whole locations and
// events of ptx.cat only (the recorder refuses overlapping extents and cp.async groups) and the model can judge it.
// Draws one kernel (generate below); every helper writes PTX to `body` and numbers registers, predicates and labels.
class KernelGenerator {
 public:
  KernelGenerator(std::mt19937& rng, bool whole_words) : rng_(rng), whole_words(whole_words) {}
  GeneratedKernel generate();

 private:
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  int predicate();
  std::string address(bool shared, unsigned size, const std::string& id = "");
  void access(const std::string& guard, const std::string& id = "");
  void async_copy();
  void async_wait();
  void cta_barrier();
  void statement();
  void ballot_broadcast();
  void loop();
  void named_barrier();
  std::string module();

  std::mt19937& rng_;
  const bool whole_words;
  // tid.x, global index, ctaid.x, and through warp shuffles (ISA 9.7.9.6) the next lane's tid.x and the partner
  // lane's (lane ^ 1) global index.
  // and tid.y.
  static constexpr const char* ids[] = {"%r1", "%r4", "%r2", "%r5", "%r8", "%r9"};
  GeneratedKernel k;
  std::ostringstream body;
  int r = 10, rd = 10, p = 1, label = 0;
  std::string loop_counter;  // inside a loop: its counter, which the index adds a multiple of
  bool uses_mbarrier = false, named_barrier_used = false;
};

GeneratedKernel KernelGenerator::generate() {
  // Whole warps (the full-mask warp operations need every lane): 32-96 threads in x, or 2D blocks of 32 or 64.
  static constexpr std::array<std::array<std::uint32_t, 2>, 6> blocks{{{32, 1}, {64, 1}, {96, 1}, {16, 2}, {8, 4}, {16, 4}}};
  const auto& shape = blocks[static_cast<std::size_t>(pick(6))];
  k.block[0] = shape[0];
  k.block[1] = shape[1];
  k.grid[0] = static_cast<std::uint32_t>(1 + pick(2));
  const int statements = 2 + pick(8);
  for (int s = 0; s < statements; ++s) statement();
  k.ptx = module();
  return k;
}

int KernelGenerator::predicate() {
  const int n = p++;
  if (pick(2)) {
    body << "  setp.lt.u32 %p" << n << ", %r1, " << pick(static_cast<int>(k.block[0])) << ";\n";
  } else {
    const int mask = (1 << (1 + pick(3))) - 1;
    body << "  and.b32 %r" << r << ", %r1, " << mask << ";\n  setp.eq.u32 %p" << n << ", %r" << r << ", " << pick(mask + 1) << ";\n";
    ++r;
  }
  return n;
}

// An address of `size` bytes at ((id * A + B [+ counter * 32C]) op D) & mask in the shared array or the global
// buffer: the register holding it.
std::string KernelGenerator::address(bool shared, unsigned size, const std::string& id) {
  const int index = r++;
  body << "  mul.lo.u32 %r" << index << ", " << (id.empty() ? ids[pick(6)] : id) << ", " << std::array{0, 1, 1, 2, 3}[static_cast<std::size_t>(pick(5))] << ";\n";
  body << "  add.u32 %r" << index << ", %r" << index << ", " << pick(8) << ";\n";
  if (!loop_counter.empty()) body << "  mad.lo.u32 %r" << index << ", " << loop_counter << ", " << pick(3) * 32 << ", %r" << index << ";\n";
  switch (pick(8)) {
    case 0: body << "  shr.u32 %r" << index << ", %r" << index << ", 1;\n"; break;
    case 1: body << "  xor.b32 %r" << index << ", %r" << index << ", " << pick(16) << ";\n"; break;
    case 2: body << "  rem.u32 %r" << index << ", %r" << index << ", " << 1 + pick(16) << ";\n"; break;
    default: break;
  }
  body << "  and.b32 %r" << index << ", %r" << index << ", " << (shared ? shared_bytes : global_bytes) / size - 1 << ";\n";
  const int offset = rd++, at = rd++;
  body << "  mul.wide.u32 %rd" << offset << ", %r" << index << ", " << size << ";\n";
  body << "  add.s64 %rd" << at << ", " << (shared ? "%rd3" : "%rd2") << ", %rd" << offset << ";\n";
  return "[%rd" + std::to_string(at) + "]";
}

void KernelGenerator::access(const std::string& guard, const std::string& id) {
  const bool shared = pick(2);
  const unsigned sizes[] = {1, 2, 4, 8, 16};
  const unsigned size = whole_words ? 4 : sizes[pick(5)];
  const std::string at = address(shared, size, id);
  const std::string space = shared ? ".shared" : ".global";
  const std::string type = size == 1 ? ".u8" : size == 2 ? ".u16" : size == 4 ? ".u32" : size == 8 ? ".u64" : ".v4.u32";
  const std::string value = size == 8 ? "%rd1" : size == 16 ? "{%r1, %r2, %r1, %r2}" : "%r1";
  const int dst = size == 8 ? rd++ : r++;
  const std::string out = size == 8 ? "%rd" + std::to_string(dst)
                          : size == 16 ? "{%r" + std::to_string(r) + ", %r" + std::to_string(r + 1) + ", %r" +
                                             std::to_string(r + 2) + ", %r" + std::to_string(r + 3) + "}"
                                       : "%r" + std::to_string(dst);
  if (size == 16) r += 4;
  const bool scalar_word = size == 4 || size == 8;
  const std::string scope = pick(2) ? ".cta" : ".gpu";
  switch (pick(scalar_word ? 8 : 5)) {
    case 0: case 1: case 2: body << guard << "  ld" << space << type << " " << out << ", " << at << ";\n"; break;
    case 3: case 4: body << guard << "  st" << space << type << " " << at << ", " << value << ";\n"; break;
    case 5:
      k.barrier_ordered_only = false;
      body << guard << "  atom.relaxed" << scope << space << ".add" << (size == 8 ? ".u64 " : ".u32 ") << out << ", " << at << ", "
           << (size == 8 ? "%rd1" : "%r1") << ";\n";
      break;
    case 6:
      k.barrier_ordered_only = false;
      body << guard << "  st.relaxed" << scope << space << type << " " << at << ", " << value << ";\n";
      break;
    default:
      k.barrier_ordered_only = false;
      body << guard << "  ld.relaxed" << scope << space << type << " " << out << ", " << at << ";\n";
      break;
  }
}

// cp.async (ISA 9.7.9.25.3): a copy of 4, 8 or 16 bytes from the global buffer into the shared array, in flight
// until a wait completes its group; then sometimes a commit.
void KernelGenerator::async_copy() {
  if (whole_words) return access("");
  const unsigned size = 4u << pick(3);
  const std::string guard = pick(3) == 0 ? "  @%p" + std::to_string(predicate()) + "\n" : "";
  const std::string to = address(true, size), from = address(false, size);
  body << guard << "  cp.async.ca.shared.global " << to << ", " << from << ", " << size << ";\n";
  if (pick(2)) body << "  cp.async.commit_group;\n";
}

void KernelGenerator::async_wait() {
  if (whole_words) return access("");
  if (pick(3) == 0) body << "  cp.async.wait_all;\n";
  else body << "  cp.async.wait_group " << pick(2) << ";\n";
}

void KernelGenerator::cta_barrier() {
  switch (pick(6)) {
    case 5: {
      uses_mbarrier = true;
      const int state = rd++, done = p++, l = label++;
      // Sometimes the thread's copies so far complete in this phase too (cuda::memcpy_async with the barrier).
      if (pick(2) && !whole_words) body << "  cp.async.mbarrier.arrive.shared.b64 [mbar];\n";
      body << "  mbarrier.arrive.shared.b64 %rd" << state << ", [mbar];\n$L" << l << ":\n  mbarrier.test_wait.shared.b64 %p" << done
           << ", [mbar], %rd" << state << ";\n  @!%p" << done << " bra $L" << l << ";\n";
      break;
    }
    case 0: body << "  bar.sync 1;\n"; break;
    case 1: body << "  bar.sync 0, " << k.block[0] * k.block[1] << ";\n"; break;  // the CTA's count: a CTA barrier
    case 2: body << "  barrier.sync.aligned 0;\n"; break;
    case 3:
      k.abstracted = true;
      body << "  membar.cta;\n  bar.sync 0;\n";
      break;
    default: body << "  bar.sync 0;\n"; break;
  }
}

// One statement of the kernel, drawn.
void KernelGenerator::statement() {
  switch (pick(12)) {
    case 0: case 8: cta_barrier(); break;
    case 1: body << "  bar.warp.sync -1;\n"; break;
    case 2: access("  @%p" + std::to_string(predicate()) + "\n"); break;
    case 3: {
      const int n = predicate(), l = label++;
      body << "  @!%p" << n << " bra $L" << l << ";\n";
      for (int a = 0; a < 1 + pick(2); ++a) access("");
      body << "$L" << l << ":\n";
      break;
    }
    case 9: ballot_broadcast(); break;
    case 4: loop(); break;
    case 5: async_copy(); break;
    case 6: async_wait(); break;
    case 10: named_barrier(); break;
    default: access(""); break;
  }
}

// A ballot of a lane predicate, then, in the lanes it holds for, a broadcast over the ballot's mask from its
// highest lane (bfind) or from a fixed lane, and an access at an index from it. A fixed lane may be outside
// the mask: the value is then undefined (ISA 9.7.9.6; the interpreter gives the lane's own), so the one
// execution does not stand for every one and only soundness is checked.
void KernelGenerator::ballot_broadcast() {
  const int n = predicate(), mask = r++, value = r++, source = r++, l = label++;
  body << "  vote.sync.ballot.b32 %r" << mask << ", %p" << n << ", -1;\n  @!%p" << n << " bra $L" << l << ";\n";
  const bool highest = pick(2);
  if (highest) body << "  bfind.u32 %r" << source << ", %r" << mask << ";\n";
  else k.barrier_ordered_only = false;
  body << "  shfl.sync.idx.b32 %r" << value << ", " << ids[pick(3)] << ", "
       << (highest ? "%r" + std::to_string(source) : std::to_string(pick(32))) << ", 31, %r" << mask << ";\n";
  access("", "%r" + std::to_string(value));
  body << "$L" << l << ":\n";
}

// A loop of 2-4 iterations, the same for every thread; a CTA barrier in it keeps the threads together. (Not inside
// another: an access there.)
void KernelGenerator::loop() {
  if (!loop_counter.empty()) { access(""); return; }
  k.abstracted = true;
  const int counter = r++, l = label++, again = p++;
  loop_counter = "%r" + std::to_string(counter);
  body << "  mov.u32 " << loop_counter << ", 0;\n$L" << l << ":\n";
  for (int a = 0; a < 1 + pick(3); ++a) {
    const int what = pick(6);
    if (what == 0) async_copy();
    else if (what == 1) async_wait();
    else access("");
  }
  if (pick(2)) cta_barrier();
  if (pick(2)) access("");
  body << "  add.u32 " << loop_counter << ", " << loop_counter << ", 1;\n  setp.lt.u32 %p" << again << ", " << loop_counter << ", "
       << 2 + pick(3) << ";\n  @%p" << again << " bra $L" << l << ";\n";
  loop_counter.clear();
}

// Producer/consumer roles on named barrier 2 (ISA 9.7.13.1), once per kernel, outside loops: one warp
// arrives, the others wait (or the reverse), with the CTA's thread count, so every thread passes one
// operation on it (checker/race/named_barriers.hpp). Warp-uniform roles: the barrier is aligned.
void KernelGenerator::named_barrier() {
  if (named_barrier_used) { access(""); return; }
  named_barrier_used = true;
  const int lin = r++, warp = r++, role = p++, arrive = label++, end = label++;
  const unsigned threads = k.block[0] * k.block[1];
  body << "  mad.lo.u32 %r" << lin << ", %r9, %r3, %r1;\n  shr.u32 %r" << warp << ", %r" << lin << ", 5;\n  setp."
       << (pick(2) ? "eq" : "ne") << ".u32 %p" << role << ", %r" << warp << ", " << pick(static_cast<int>((threads + 31) / 32)) << ";\n";
  body << "  @%p" << role << " bra $L" << arrive << ";\n  bar.sync 2, " << threads << ";\n  bra.uni $L" << end << ";\n$L" << arrive
       << ":\n  bar.arrive 2, " << threads << ";\n$L" << end << ":\n";
}

// The module: the declarations, the ids the statements use, the mbarrier's initialisation when one uses it, then
// the statements.
std::string KernelGenerator::module() {
  std::string prologue;
  if (uses_mbarrier) {  // thread (0,0) initialises it with the CTA's thread count; a barrier orders that first
    const int rank = r++, count = r++, ny = r++, first = p++;
    prologue = "  .shared .align 8 .b64 mbar;\n  or.b32 %r" + std::to_string(rank) + ", %r1, %r9;\n  setp.eq.u32 %p" + std::to_string(first) +
               ", %r" + std::to_string(rank) + ", 0;\n  mov.u32 %r" + std::to_string(ny) + ", %ntid.y;\n  mul.lo.u32 %r" + std::to_string(count) +
               ", %r3, %r" + std::to_string(ny) + ";\n  @%p" + std::to_string(first) + " mbarrier.init.shared.b64 [mbar], %r" +
               std::to_string(count) + ";\n  bar.sync 0;\n";
  }
  std::ostringstream ptx;
  ptx << ".version 8.0\n.target sm_80\n.address_size 64\n\n"
      << ".visible .entry fuzz(.param .u64 fuzz_param_0)\n{\n"
      << "  .reg .pred %p<" << p + 1 << ">;\n  .reg .b32 %r<" << r + 1 << ">;\n  .reg .b64 %rd<" << rd + 1 << ">;\n"
      << "  .shared .align 16 .b8 tile[" << shared_bytes << "];\n"
      << "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n  mov.u32 %r3, %ntid.x;\n  mad.lo.u32 %r4, %r2, %r3, %r1;\n"
      << "  mov.u32 %r9, %tid.y;\n"
      << "  cvt.u64.u32 %rd1, %r4;\n  ld.param.u64 %rd5, [fuzz_param_0];\n  cvta.to.global.u64 %rd2, %rd5;\n"
      << "  mov.u64 %rd3, tile;\n"
      << "  and.b32 %r6, %r1, 31;\n  add.u32 %r7, %r6, 1;\n  and.b32 %r7, %r7, 31;\n"
      << "  shfl.sync.idx.b32 %r5, %r1, %r7, 31, -1;\n  shfl.sync.bfly.b32 %r8, %r4, 1, 31, -1;\n"
      << prologue << body.str() << "  ret;\n}\n";
  return ptx.str();
}

GeneratedKernel generate(std::mt19937& rng, bool whole_words) { return KernelGenerator(rng, whole_words).generate(); }

// With PTXCHECK_DIFFERENTIAL_DUMP=DIR, each kernel is written to DIR/kN.ptx with its launch DIR/kN.json, for
// `ptxcheck race DIR/kN.ptx --launch DIR/kN.json` and `--blockDim=.. --gridDim=..` by hand.
void dump(const GeneratedKernel& g, int n) {
  const char* dir = std::getenv("PTXCHECK_DIFFERENTIAL_DUMP");
  if (!dir) return;
  const std::string base = std::string(dir) + "/k" + std::to_string(n);
  std::ofstream(base + ".ptx") << g.ptx;
  std::ofstream(base + ".json") << "{\"grid\": [" << g.grid[0] << ",1,1], \"block\": [" << g.block[0] << "," << g.block[1] << ",1], \"buffers\": {\"out\": {\"zero_bytes\": "
                                << global_bytes << "}}, \"params\": [{\"buffer\": \"out\"}]}\n";
}

// The interpreter launch of a generated kernel: its shape, the global buffer zeroed.
ptx::interp::Launch launch_of(const ptx::ir::Function& f, const GeneratedKernel& g) {
  ptx::interp::Launch launch;
  launch.kernel = f.name;
  launch.block = g.block;
  launch.grid = g.grid;
  launch.buffers.push_back({"out", std::vector<std::uint8_t>(global_bytes, 0)});
  ptx::interp::ParamValue out;
  out.buffer = "out";
  launch.params.push_back(out);
  return launch;
}
constexpr std::size_t kModelEvents = 2000;  // the explicit evaluator is cubic: about a second at this size

// The model's races on a recorded run as pairs of PTX lines, or why the run was not recorded.
struct ModelRaces {
  std::set<std::pair<std::uint32_t, std::uint32_t>> pairs;
  std::string not_recorded;
};
ModelRaces model_races(const ptx::ir::Module& m, const race::RecordedExecution& g, const cat::Model& model) {
  ModelRaces out;
  if (!g.unsupported.empty()) {
    out.not_recorded = g.unsupported;
    return out;
  }
  const cat::ExplicitResult r = cat::evaluate_explicit(model, g.graph);
  CHECK_MESSAGE(r.consistent(), "the interpreter's run violates an axiom of the model");  // (an SC run is allowed)
  using Lines = std::pair<std::uint32_t, std::uint32_t>;
  for (const auto& entry : race_model::races_by<Lines>(g, r, [&](const ptx::ir::Instruction& a, const ptx::ir::Instruction& b) {
         return std::minmax(race::where_of(m, a).ptx_line, race::where_of(m, b).ptx_line);
       }))
    out.pairs.insert(entry.first);
  return out;
}

// The race reports of a kernel as pairs of PTX lines.
std::set<std::pair<std::uint32_t, std::uint32_t>> pairs_of(const std::vector<race::RaceReport>& races, bool definite_only) {
  std::set<std::pair<std::uint32_t, std::uint32_t>> out;
  for (const auto& x : races)
    if (!definite_only || !x.possible) out.insert(std::minmax(x.first.where.ptx_line, x.second.where.ptx_line));
  return out;
}

}  // namespace

TEST_CASE("differential: the symbolic engine reports every race the dynamic engine sees, on generated kernels" * doctest::skip()) {
  // PTXCHECK_DIFFERENTIAL_SEED and PTXCHECK_DIFFERENTIAL_KERNELS explore further than the test's own draw.
  auto setting = [](const char* name, unsigned fallback) {
    const char* v = std::getenv(name);
    return v ? static_cast<unsigned>(std::stoul(v)) : fallback;
  };
  std::mt19937 rng(setting("PTXCHECK_DIFFERENTIAL_SEED", 20261124));
  const int kernels = static_cast<int>(setting("PTXCHECK_DIFFERENTIAL_KERNELS", 250));
  // Of the kernels ordered by barriers only: straight-line ones (decided exactly) and abstracted ones (loops,
  // fences: GeneratedKernel::abstracted).
  int racy = 0, straight = 0, straight_agreed = 0, straight_race_free = 0, looping = 0, looping_agreed = 0, soundness_only = 0;
  const cat::Model model = race_model::ptx_race();
  int model_runs = 0, model_racy = 0, model_compared = 0, model_exact = 0;
  std::map<std::string, int> not_recorded;  // why a run has no graph -> runs
  for (int n = 0; n < kernels; ++n) {
    const GeneratedKernel g = generate(rng, n % 2 == 1);
    dump(g, n);
    CAPTURE(n);
    CAPTURE(g.ptx);
    auto built = ptx::ir::load_ptx(g.ptx, "generated.ptx");
    REQUIRE_MESSAGE(built, (built.errors.empty() ? std::string("does not check") : built.errors.front().render()));
    const ptx::ir::Function& f = *built.module->kernels().front();

    race::DynamicOptions d;
    d.max_races = 1000;
    race::ExecutionRecorder recorder(*built.module, launch_of(f, g), kModelEvents);
    d.also = &recorder;
    const ptx::interp::Launch launch = launch_of(f, g);
    const race::DynamicResult dynamic = race::check_execution(*built.module, launch, d);
    REQUIRE(dynamic.error.empty());
    REQUIRE(dynamic.run.ok());
    CHECK(dynamic.divergences.empty());

    race::Options o;
    o.block = g.block;
    o.grid = g.grid;
    o.replay = false;
    o.max_races = 1000;
    const race::KernelResult symbolic = race::check_kernel(*built.module, f, o);
    CHECK(symbolic.divergences.empty());
    const auto seen = pairs_of(dynamic.races, false), reported = pairs_of(symbolic.races, false);
    racy += !seen.empty();
    // Soundness: the execution's races are reported (an unknown verdict with no report says nothing wrong).
    const bool unknown = symbolic.verdict == race::KernelResult::Verdict::unknown && symbolic.races.empty();
    if (!unknown)
      for (const auto& pair : seen)
        CHECK_MESSAGE(reported.count(pair), "the execution races between PTX lines " << pair.first << " and " << pair.second
                                                                                   << ", which the symbolic engine does not report");
    const ModelRaces by_model = model_races(*built.module, recorder.finish(), model);
    if (!by_model.not_recorded.empty()) ++not_recorded[by_model.not_recorded.substr(0, by_model.not_recorded.find(" ("))];
    else {
      ++model_runs;
      model_racy += !by_model.pairs.empty();
    }
    if (by_model.not_recorded.empty() && !unknown)
      for (const auto& pair : by_model.pairs)
        CHECK_MESSAGE(reported.count(pair), "ptx-race.cat: the run races between PTX lines " << pair.first << " and " << pair.second
                                                                                          << ", which the symbolic engine does not report");
    if (!g.barrier_ordered_only) {
      ++soundness_only;
      continue;
    }
    // Every execution of the launch races as this one does: a definite race is in it, and without loops the
    // symbolic engine decides.
    const bool definite = symbolic.verdict == race::KernelResult::Verdict::race;
    const bool definite_is_seen = !definite || !seen.empty();
    CHECK_MESSAGE(definite_is_seen, "the symbolic engine reports a definite race; the execution is race-free");
    const bool agreed = definite == !seen.empty() && pairs_of(symbolic.races, true) == reported;
    if (g.abstracted) {
      ++looping;
      looping_agreed += agreed;
      continue;
    }
    ++straight;
    straight_race_free += seen.empty();
    if (by_model.not_recorded.empty()) {  // every run races alike: the model's pairs are the engine's, no more
      ++model_compared;
      CHECK_MESSAGE(by_model.pairs == reported, "ptx-race.cat's races and the symbolic engine's differ");
      model_exact += by_model.pairs == reported;
    }
    CHECK_MESSAGE(agreed, "symbolic verdict " << std::string(race::verdict_name(symbolic)) << ", the execution " << (seen.empty() ? "race-free" : "racy"));
    straight_agreed += agreed;
  }
  MESSAGE(kernels << " generated kernels, " << racy << " racy on the interpreter; ordered by barriers only: " << straight
                  << " straight-line (" << straight_race_free << " race-free), " << straight_agreed << " with the same verdict from both engines; "
                  << looping << " with loops or fences, " << looping_agreed << " the same verdict; " << soundness_only
                  << " with atomics or strong accesses (soundness checked); against ptx-race.cat: " << model_runs << " runs judged ("
                  << model_racy << " racy; their races reported where the verdict is not unknown), of them " << model_compared << " straight-line ordered by barriers only, "
                  << model_exact << " with exactly the model's races");
  for (const auto& [why, runs] : not_recorded) MESSAGE(runs << " runs not recorded as graphs: " << why);
  CHECK(straight_agreed == straight);
  CHECK(straight >= kernels / 5);
  CHECK(model_compared >= straight / 2);
}
