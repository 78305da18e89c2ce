// Unit tests for the race checker: every hand-written kernel (.cu, or .ptx) in tests/unit/race/kernels is checked against the
// known answer on its first line (`// expect: race|race-free|barrier-divergence|unknown  launch: --blockDim=.. --gridDim=..`,
// optionally `options: --O0 --assume-pure-externs --assume='EXPR'`),
// plus the launch-shape spellings and the report renderings (JSON, SARIF) on a racy kernel.
#include "checker/race/describe.hpp"
#include "tests/unit/race/kernel_expectation.hpp"
#include "checker/race/report_read.hpp"
#include "checker/race/run.hpp"
#include "semantics/ir/build.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>

namespace fs = std::filesystem;
using namespace ptxcheck;

namespace {
using namespace race_kernels;

// One kernel file of tests/unit/race/kernels checked with the launch and options of its `expect:` line.
race::FileResult check_kernel_file(const std::string& name, bool replay = true) {
  const auto p = kernels / name;
  auto o = options(expectation(p));
  o.check.replay = replay;
  return race::run_file(p.string(), o);
}

// The exit code of one kernel file without the replay (the verdict of the symbolic engine alone) and its notes, one a
// line.
std::pair<int, std::string> notes_of(const std::string& name) {
  auto r = check_kernel_file(name, false);
  REQUIRE(r.kernels.size() == 1);
  std::string all;
  for (const auto& n : r.kernels[0].notes) all += n + "\n";
  return {r.exit_code, all};
}

// The verdict a file result stands for, in the vocabulary of the `expect:` lines.
std::string verdict_of(const race::FileResult& r) {
  if (r.exit_code == 0) return "race-free";
  if (r.exit_code == 2) return "error: " + r.error;
  if (r.exit_code == 3) return "unknown";
  bool div = false, race = false;
  for (const auto& k : r.kernels) {
    div |= !k.divergences.empty();
    for (const auto& x : k.races) race |= !x.possible;
  }
  return div && !race ? "barrier-divergence" : "race";
}
}  // namespace

TEST_CASE("every kernel in tests/unit/race/kernels gets its expected verdict") {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(kernels))
    if (e.path().extension() == ".cu" || e.path().extension() == ".ptx") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 20);
  for (const auto& p : files) {
    CAPTURE(p.filename().string());
    Expectation e = expectation(p);
    // A kernel without an expectation fails the run instead of being skipped.
    REQUIRE_MESSAGE((e.verdict == "race" || e.verdict == "race-free" || e.verdict == "barrier-divergence" || e.verdict == "unknown"),
                    "missing or malformed `// expect:` line");
    auto o = options(e);
    auto r = race::run_file(p.string(), o);
    CHECK(verdict_of(r) == e.verdict);
    if (!e.reason.empty()) {
      std::string reasons;
      for (const auto& k : r.kernels)
        for (const auto& why : k.unknown_reasons) reasons += why + "\n";
      CHECK_MESSAGE(reasons.find(e.reason) != std::string::npos, "unknown reasons: " << reasons);
    }
    if (e.verdict == "race" || e.verdict == "barrier-divergence") {
      // A racy verdict comes with a located report: a CUDA source line from .loc for both accesses.
      REQUIRE(!r.kernels.empty());
      const auto& k = r.kernels.front();
      // (A .ptx file without .loc: the PTX line of both, in that file.)
      const bool ptx = p.extension() == ".ptx";
      // (An instruction nvcc marks `.loc 1 0 0`, code it merged from several lines, has the file and no line.)
      auto located = [&](const race::Where& w) { return ptx ? w.ptx_line > 0 : w.line > 0 || (!w.file.empty() && w.ptx_line > 0); };
      for (const auto& x : k.races) {
        CHECK(located(x.first.where));
        CHECK(located(x.second.where));
        CHECK((ptx ? x.first.where.ptx_file : x.first.where.file).find(p.filename().string()) != std::string::npos);
      }
      for (const auto& d : k.divergences) CHECK(located(d.where));
    }
  }
}

TEST_CASE("one report per race: a race between every pair of threads is reported once") {
  Expectation e{"race", "64", "2", {}, false, false, {}};
  auto o = options(e);
  auto r = race::run_file((kernels / "ww_same_index.cu").string(), o);
  REQUIRE(r.kernels.size() == 1);
  CHECK(r.kernels[0].races.size() == 1);
  const auto& x = r.kernels[0].races[0];
  CHECK(x.first.kind == "write");
  CHECK(x.second.kind == "write");
  CHECK(x.first.strength == "weak");
  CHECK(x.first.offset == 0);
  CHECK(x.first.where.line == 3);
  CHECK(x.first.cuda_name == "argument 1 (a)[0]");
  CHECK((x.t1.ctaid != x.t2.ctaid || x.t1.tid != x.t2.tid));  // two distinct threads
}

TEST_CASE("a race inside a called function is reported at the callee's source line") {
  auto r = check_kernel_file("call_race_in_callee.cu");
  REQUIRE(r.kernels.size() == 1);
  REQUIRE(r.kernels[0].races.size() == 1);
  const auto& x = r.kernels[0].races[0];
  CHECK(!x.possible);
  CHECK(x.first.where.line == 4);  // `a[i] = v;` in put()
  CHECK(x.second.where.line == 4);
  CHECK(x.first.object == "_Z1kPi_param_0");  // the pointer passed through the .param argument is the kernel's
  CHECK(x.first.cuda_name == "argument 1 (a)[0]");  // as the CUDA source names it (names.hpp)
}

TEST_CASE("a race on dynamic shared memory (extern __shared__) is confirmed by a replay that provides it") {
  auto r = check_kernel_file("extern_shared_neighbour.cu");
  REQUIRE(r.kernels.size() == 1);
  REQUIRE(r.kernels[0].races.size() == 1);
  const auto& x = r.kernels[0].races[0];
  CHECK(x.first.space == "shared");
  CHECK(x.confirmed);
  CHECK(x.note.find("bytes of dynamic shared memory") != std::string::npos);
}

TEST_CASE("a call of a bodiless function is unknown by default, and names the function") {
  auto p = kernels / "extern_call_unknown.cu";
  auto o = options(expectation(p));
  auto r = race::run_file(p.string(), o);
  REQUIRE(r.kernels.size() == 1);
  REQUIRE(!r.kernels[0].unsupported.empty());
  CHECK(r.kernels[0].unsupported[0].find("_Z6lookupi") != std::string::npos);
  CHECK(r.kernels[0].unsupported[0].find("without a body") != std::string::npos);
  o.check.assume_pure_externs = true;
  auto pure = race::run_file(p.string(), o);
  REQUIRE(pure.kernels.size() == 1);
  CHECK(pure.exit_code == 0);
  bool noted = false;
  for (const auto& n : pure.kernels[0].notes) noted |= n.find("assumed pure") != std::string::npos;
  CHECK(noted);
}

TEST_CASE("block-scoped atomics across CTAs are not morally strong (ISA 8.6): the report names the scope") {
  auto r = check_kernel_file("atomic_block_scope_across_ctas.cu");
  REQUIRE(r.kernels.size() == 1);
  REQUIRE(!r.kernels[0].races.empty());
  const auto& x = r.kernels[0].races[0];
  CHECK(x.first.strength.find(".cta") != std::string::npos);
  CHECK(x.t1.ctaid != x.t2.ctaid);  // the witness threads are in different CTAs
}

TEST_CASE("JSON and SARIF renderings of a race") {
  Expectation e{"race", "64", "2", {}, false, false, {}};
  auto o = options(e);
  auto r = race::run_file((kernels / "ww_same_index.cu").string(), o);
  auto j = race::to_json(r);
  CHECK(j.at("exit_code") == 1);
  CHECK(j.at("kernels").size() == 1);
  auto s = race::to_sarif({r});
  CHECK(s.at("version") == "2.1.0");
  REQUIRE(s.at("runs").size() == 1);
  const auto& results = s.at("runs")[0].at("results");
  REQUIRE(results.size() == 1);
  CHECK(results[0].at("locations")[0].at("physicalLocation").at("region").at("startLine") == 3);
}

TEST_CASE("JSON written by to_json reads back whole: to_json(from_json(j)) == j") {
  // `ptxcheck merge` renders shards' results from their JSON: a field to_json writes and from_json drops (as
  // cuda_name once was) is lost without a word. Kernels whose reports use every part of the result: races
  // (confirmed, possible, with C++ names), barrier divergence, unknown reasons, notes, unsupported instructions.
  for (const char* name : {"barrier_on_arm_some_threads_skip.ptx", "struct_param_fields_race.cu", "extern_call_unknown.cu",
                           "mbarrier_split_in_loop.cu", "atomic_block_scope_across_ctas.cu", "grid_sync_divergence.cu",
                           "tiled_partition_runtime_size_other_tile_race.cu"}) {
    CAPTURE(name);
    const race::FileResult r = check_kernel_file(name);
    const nlohmann::json j = race::to_json(r);
    const nlohmann::json again = race::to_json(race::from_json(j));
    CHECK_MESSAGE(again == j, "differs: " << nlohmann::json::diff(j, again).dump());
  }
}

TEST_CASE("launch shapes: GPUVerify's spellings") {
  CHECK(race::parse_dim("64") == std::array<std::uint32_t, 3>{64, 1, 1});
  CHECK(race::parse_dim("[64,2]") == std::array<std::uint32_t, 3>{64, 2, 1});
  CHECK(race::parse_dim("{4,2}") == std::array<std::uint32_t, 3>{4, 2, 1});
  CHECK(race::parse_dim("4,2,3") == std::array<std::uint32_t, 3>{4, 2, 3});
  CHECK(!race::parse_dim("0"));
  CHECK(!race::parse_dim("x"));
  CHECK(!race::parse_dim("1,2,3,4"));
  CHECK(!race::parse_dim("[32,4"));
  CHECK(!race::parse_dim("32,4]"));
  CHECK(!race::parse_dim("[32,{4}]"));
  CHECK(!race::parse_dim("{32,4]"));
  CHECK(race::parse_dim(" [ 32 , 4 ] ") == std::array<std::uint32_t, 3>{32, 4, 1});
}

TEST_CASE("bad input: a file without a kernel and a missing file are errors (exit 2)") {
  auto tmp = fs::temp_directory_path() / "ptxcheck_race_nokernel.ptx";
  {
    std::ofstream out(tmp);
    out << ".version 8.0\n.target sm_90\n.address_size 64\n.func f()\n{\n ret;\n}\n";
  }
  race::RunOptions o;
  auto r = race::run_file(tmp.string(), o);
  CHECK(r.exit_code == 2);
  CHECK(r.error == "no kernel");
  auto missing = race::run_file((fs::temp_directory_path() / "ptxcheck_race_missing.cu").string(), o);
  CHECK(missing.exit_code == 2);
  fs::remove(tmp);
}

TEST_CASE("a grid synchronisation that only some CTAs reach is barrier divergence, under the CTA-dependent branch") {
  auto r = check_kernel_file("grid_sync_divergence.cu");
  REQUIRE(r.kernels.size() == 1);
  REQUIRE(r.kernels[0].divergences.size() == 1);
  const auto& d = r.kernels[0].divergences[0];
  CHECK(d.t1.ctaid != d.t2.ctaid);  // threads of two CTAs: one arrives, the other's CTA never does
  CHECK(d.condition.find("grid_sync_divergence.cu:8:") != std::string::npos);  // `if (blockIdx.x == 0)`
  CHECK(d.note.find("grid synchronisation") != std::string::npos);
}

TEST_CASE("a CTA barrier on a branch arm: counted on each thread's path, divergent where some threads skip the arm") {
  // Every thread takes the arm: no divergence and no race (before barrier counts, a definite race the replay did
  // not confirm). Even threads skip it: the divergence is reported at the barrier, with the branch as its cause.
  auto every = check_kernel_file("barrier_on_arm_every_thread_takes.ptx");
  REQUIRE(every.kernels.size() == 1);
  CHECK(every.kernels[0].divergences.empty());
  CHECK(every.kernels[0].races.empty());
  auto some = check_kernel_file("barrier_on_arm_some_threads_skip.ptx");
  REQUIRE(some.kernels.size() == 1);
  REQUIRE(some.kernels[0].divergences.size() == 1);
  CHECK(some.kernels[0].divergences[0].where.ptx_line == 31);  // bar.sync 0
  CHECK(some.kernels[0].divergences[0].condition.find("@taken bra") != std::string::npos);
}

TEST_CASE("only accesses with synchronizing instructions on both sides are possible races (ISA 8.9.5), without a replay") {
  // race_before_any_fence: nothing synchronizes before the racing writes, so the fence after them cannot order
  // them: a definite race without running the witness. named_barrier_arrive_in_loop: bar.arrive before the write's
  // successors and bar.sync before the read, in a loop (a phase per iteration, not counted), may order them:
  // possible. relaxed_flag_observed: a strong read before the plain write may observe the other thread's strong
  // write (8.9.5 item 2): possible.
  // atomic_max_guard_first_iteration: the strong read before the plain read (the thread's own atomicMax) is in an
  // earlier iteration only: a definite race in the first. strong_read_other_location: the strong read before the
  // plain read is of another allocation, which cannot observe the write: definite. warp_aggregated_activemask: the
  // writes' addresses depend on activemask, which the engine does not model: possible.
  struct Case {
    const char* name;
    bool possible;
    const char* note = "";  // in the report's note
  };
  for (auto [name, possible, note] : {Case{"race_before_any_fence.cu", false}, Case{"named_barrier_arrive_in_loop.cu", true},
                                      Case{"relaxed_flag_observed.cu", true},
                                      Case{"atomic_max_guard_first_iteration.cu", false, "first iteration"},
                                      Case{"strong_read_other_location.cu", false},
                                      Case{"warp_aggregated_activemask.cu", true, "activemask"}}) {
    CAPTURE(name);
    auto r = check_kernel_file(name, false);
    REQUIRE(r.kernels.size() == 1);
    REQUIRE(r.kernels[0].races.size() == 1);
    CHECK(r.kernels[0].races[0].possible == possible);
    CHECK(r.exit_code == (possible ? 3 : 1));
    CHECK(r.kernels[0].races[0].note.find(note) != std::string::npos);
  }
}

TEST_CASE("two threads' atomics on one location: a race that needs others' atomics between them is possible, not certain") {
  // Without the replay: the symbolic engine's own verdicts.
  auto race_on = [](const race::FileResult& r) -> const race::RaceReport* {
    for (const auto& x : r.kernels.at(0).races)
      if (x.first.kind == "write" && x.second.kind == "write" && x.first.where.line == x.second.where.line) return &x;
    return nullptr;
  };
  const std::string between = "only with other threads' atomics between them";
  for (const char* name : {"atomic_ticket_last_block.cu", "atomic_ticket_broadcast.cu", "atomic_inc_alternating.cu"}) {
    CAPTURE(name);
    auto r = check_kernel_file(name, false);
    REQUIRE(r.kernels.size() == 1);
    const race::RaceReport* both_write = race_on(r);
    REQUIRE(both_write != nullptr);
    CHECK(both_write->possible);
    CHECK(both_write->note.find(between) != std::string::npos);
  }
  // A race the two threads' atomics allow when adjacent stays certain: the leader gives its ticket back with an
  // atomicSub, and the next thread's atomicAdd reads what that wrote.
  auto released = check_kernel_file("atomic_counter_leader_released.cu", false);
  const race::RaceReport* both_write = race_on(released);
  REQUIRE(both_write != nullptr);
  CHECK(!both_write->possible);
}

TEST_CASE("spin locks: the notes say which lock orders how many accesses, or why it orders none") {
  // The lock's critical section holds 3 accesses: in[i], and the load and store of *total.
  auto [ok, ok_notes] = notes_of("lock_critical_section.cu");
  CHECK(ok == 0);
  CHECK(ok_notes.find("the 3 accesses after its acquire pattern") != std::string::npos);
  // No release fence: the lock is recognised but protects nothing, and the race is definite: after the accesses
  // nothing releases (a relaxed exchange is no release pattern, ISA 8.8), so causality cannot order them.
  auto [no_fence, no_fence_notes] = notes_of("lock_no_release_fence.cu");
  CHECK(no_fence == 1);
  CHECK(no_fence_notes.find("orders no access") != std::string::npos);
  // .cta atomics on a global lock that threads of two CTAs take: not a lock across CTAs.
  auto [cta, cta_notes] = notes_of("lock_block_scope_global.cu");
  CHECK(cta != 0);
  CHECK(cta_notes.find("threads of two CTAs may take one location of this .cta-scoped lock") != std::string::npos);
  // .cta atomics on one global lock per CTA (locks[blockIdx.x]): a lock, each location taken within one CTA.
  auto [per_cta, per_cta_notes] = notes_of("lock_per_cta_block_scope.cu");
  CHECK(per_cta == 0);
  CHECK(per_cta_notes.find("(.cta scope, each location taken by threads of one CTA): the 3 accesses") != std::string::npos);
  // A non-holder writes the unlocked value.
  auto [stray, stray_notes] = notes_of("lock_released_by_non_holder.cu");
  CHECK(stray == 3);
  CHECK(stray_notes.find("without holding the lock") != std::string::npos);
}

TEST_CASE("last-block tickets: the notes say a ticket orders, or which --assume it needs, or why it is none") {
  auto [ordered, ordered_notes] = notes_of("atomic_ticket_last_block_assumed.cu");
  CHECK(ordered == 0);
  CHECK(ordered_notes.find("the last-block ticket at") != std::string::npos);
  CHECK(ordered_notes.find("observation order through the atomics") != std::string::npos);
  // Without --assume: atomicInc(&retired, gridDim.x) may wrap from an unknown content, so the note names the
  // assumption that makes it a ticket.
  auto [unknown, unknown_notes] = notes_of("atomic_ticket_last_block.cu");
  CHECK(unknown == 3);
  CHECK(unknown_notes.find("depends on the counter's content at launch; state it with --assume (for example 'retired == 0')") !=
        std::string::npos);
  // Another CTA may reset the counter: no ticket, and the note says which write.
  auto [reset, reset_notes] = notes_of("atomic_ticket_reset_by_other_cta.cu");
  CHECK(reset == 3);
  CHECK(reset_notes.find("is no last-block ticket: another write may reach the counter (") != std::string::npos);
  // The CUDA sample's form: no fence after the atomicInc, so the last CTA's reads are not ordered, and the note says
  // what would order them.
  auto [no_acquire, no_acquire_notes] = notes_of("atomic_ticket_block_reads_no_acquire.cu");
  CHECK(no_acquire == 3);
  CHECK(no_acquire_notes.find("no acquire fence follows the atomic") != std::string::npos);
  // Every thread takes one: two threads of a CTA increment it, so no ticket, and the partial sums race with the reads
  // (possibly, without the replay that confirms it).
  auto [every, every_notes] = notes_of("atomic_ticket_every_thread.cu");
  CHECK(every == 3);
  CHECK(every_notes.find("is no last-block ticket: two threads of one CTA may run it on one location") != std::string::npos);
}

TEST_CASE("reports name objects as the CUDA source does: kernel::variable[element], argument N[element]") {
  // nvcc's shape: a local __shared__ int s[256] of block_sum(const int*, int*) is a .b8 array inside the entry; a
  // global __device__ unsigned counter is typed; a C kernel's own parameter names stand for the source's.
  const std::string ptx =
      ".version 8.0\n.target sm_90\n.address_size 64\n"
      ".global .align 4 .u32 _ZN2ns7counterE;\n"
      ".visible .entry _Z9block_sumPKiPi(.param .u64 _Z9block_sumPKiPi_param_0, .param .u64 _Z9block_sumPKiPi_param_1)\n"
      "{\n  .shared .align 4 .b8 _ZZ9block_sumPKiPiE1s[1024];\n  .reg .u32 %r<2>;\n  .reg .f64 %fd1;\n"
      "  st.shared.u32 [_ZZ9block_sumPKiPiE1s+64], %r1;\n  st.shared.f64 [_ZZ9block_sumPKiPiE1s+64], %fd1;\n  ret;\n}\n"
      ".visible .entry ck(.param .u64 p, .param .u64 ck_param_1)\n{\n  ret;\n}\n";
  auto built = ptx::ir::load_ptx(ptx, "names.ptx");
  REQUIRE(built);
  const auto& m = *built.module;
  const auto& k = *m.find_function("_Z9block_sumPKiPi");
  const auto& st_u32 = k.body[0];
  const auto& st_f64 = k.body[1];
  CHECK(race::cuda_object_name(m, k, "_ZZ9block_sumPKiPiE1s", 64, st_u32) == "block_sum::s[16]");
  CHECK(race::cuda_object_name(m, k, "_ZZ9block_sumPKiPiE1s", 64, st_f64) == "block_sum::s[8]");
  CHECK(race::cuda_object_name(m, k, "_ZZ9block_sumPKiPiE1s", 66, st_u32) == "block_sum::s[16], byte 2");
  CHECK(race::cuda_object_name(m, k, "_ZN2ns7counterE", 0, st_u32) == "ns::counter");  // a scalar: no index
  // Pointer parameters: the element is the pointee's (int), not the access's; no .cu, so no source name.
  CHECK(race::cuda_object_name(m, k, "_Z9block_sumPKiPi_param_1", 28, st_f64) == "argument 2[7]");
  CHECK(race::cuda_object_name(m, k, "?", 28, st_u32) == "");
  const auto& c = *m.find_function("ck");
  CHECK(race::cuda_object_name(m, c, "p", 8, st_u32) == "argument 1 (p)[2]");
  CHECK(race::cuda_object_name(m, c, "ck_param_1", 8, st_u32) == "argument 2[2]");
}

TEST_CASE("mbarrier arrays: a slot by a bounded index leaves the other variables' objects as barriers") {
  // The stage counter `s + 1 == 2 ? 0 : s + 1` stays in [0, 1]: slots + 8 * s lies inside `slots` (16 bytes), so
  // `bar` is still taken as a CTA barrier, and only the array's objects are not (mbarrier_address.hpp).
  auto [ok, ok_notes] = notes_of("mbarrier_array_beside_barrier.ptx");
  CHECK(ok == 0);
  CHECK(ok_notes.find("mbarrier taken as a CTA barrier") != std::string::npos);
  CHECK(ok_notes.find("the mbarrier objects in slots are used as an array (offset 0 + 8 * index, index in [0, 1]") != std::string::npos);
  // The counter not wrapped: the slot may lie past `slots`, so no object is taken (the write and read stay possible).
  auto [wild, wild_notes] = notes_of("mbarrier_array_unbounded_index.ptx");
  CHECK(wild == 3);
  CHECK(wild_notes.find("mbarrier taken as a CTA barrier") == std::string::npos);
  CHECK(wild_notes.find("whose index the engine does not bound to the 2 slot(s) inside the variable") != std::string::npos);
  // The pipeline's "full" (offset 0) and "empty" (offset 8) arrays in its 40-byte state, 2 stages: followed as a
  // pipeline (pipeline.hpp), which orders its copies and reads.
  auto [pipe, pipe_notes] = notes_of("pipeline_block_scope.cu");
  CHECK(pipe == 0);
  CHECK(pipe_notes.find("block-scope pipeline followed: the mbarrier arrays in _ZZ9stage_sumPKfPfiE5state (2 stages;") != std::string::npos);
  // The same arrays with a wrong initial parity on "full" (its first wait waits for the phase before phase 0): not
  // followed, with the exploration's reason.
  auto [wrong, wrong_notes] = notes_of("pipeline_block_scope_wrong_parity.ptx");
  CHECK(wrong == 3);  // (a possible race without the replay, which confirms it: its `expect: race` line)
  CHECK(wrong_notes.find("not followed as a pipeline's arrays: the wait at") != std::string::npos);
  CHECK(wrong_notes.find("may wait with the parity of another phase than its stage's") != std::string::npos);
}
