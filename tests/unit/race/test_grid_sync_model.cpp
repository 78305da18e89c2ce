// The questions the race checker asks the memory model of a cooperative-groups grid synchronisation
// (checker/race/grid_sync_model.hpp), issue 33: kernels written as nvcc writes cooperative_groups' sync_grids
// (tests/unit/race/kernels/grid_sync.cu at sm_80), with the idiom altered where ISA 8.5, 8.8 and 8.9.4 say the
// ordering breaks, recognised by find_grid_syncs and asked as the checker asks.
#include "checker/race/cfg.hpp"
#include "checker/race/grid_sync.hpp"
#include "checker/race/grid_sync_model.hpp"
#include "checker/race/run.hpp"
#include "semantics/ir/build.hpp"
#include "tests/unit/race/kernel_expectation.hpp"

#include <doctest/doctest.h>

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace fs = std::filesystem;
using namespace ptxcheck;

namespace {

// The idiom: bar.sync; thread 0 of each CTA adds to the workspace word W (0x80000000 - (CTAs - 1) in CTA 0, 1
// elsewhere) and spins on loads of W until its top bit differs from what the add returned; bar.sync. `add` and `load`
// are the qualifiers after the opcode (semantics and scope), `before` / `after` a fence before the add / after the
// spin ("" for none).
std::string kernel(const char* add, const char* load, const char* before = "", const char* after = "") {
  return fmt::format(R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry k()
{{
  .reg .pred %p<5>;
  .reg .b32 %r<28>;
  .reg .b64 %rd<11>;
  mov.u32 %r5, %envreg2;
  cvt.u64.u32 %rd7, %r5;
  mov.u32 %r6, %envreg1;
  cvt.u64.u32 %rd8, %r6;
  bfi.b64 %rd2, %rd8, %rd7, 32, 32;
  barrier.sync 0;
  mov.u32 %r2, %tid.x;
  setp.ne.s32 %p2, %r2, 0;
  @%p2 bra $L5;
  add.s64 %rd9, %rd2, 4;
  mov.u32 %r1, %ctaid.x;
  setp.eq.s32 %p3, %r1, 0;
  mov.u32 %r15, %nctaid.x;
  mov.u32 %r24, -2147483647;
  sub.s32 %r25, %r24, %r15;
  selp.b32 %r14, %r25, 1, %p3;
  {}
  atom.add{}.u32 %r13, [%rd9], %r14;
$L4:
  ld{}.u32 %r26, [%rd9];
  xor.b32 %r27, %r26, %r13;
  setp.gt.s32 %p4, %r27, -1;
  @%p4 bra $L4;
  {}
$L5:
  barrier.sync 0;
  ret;
}}
)",
                     before, add, load, after);
}

// The model's answer for the kernel's one grid sync (find_grid_syncs must recognise it).
race::GridOrder ask(const std::string& text) {
  auto built = ptx::ir::load_ptx(text, "grid.ptx");
  REQUIRE_MESSAGE(built.module.has_value(), (built.errors.empty() ? std::string() : built.errors.front().render()));
  const ptx::ir::Function& f = built.module->functions.front();
  const race::Cfg g = race::build_cfg(f);
  const auto syncs = race::find_grid_syncs(f, g);
  REQUIRE(syncs.size() == 1);
  const auto start = std::chrono::steady_clock::now();
  race::GridOrder order = race::grid_sync_orders(f, g, syncs.front());
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  MESSAGE(order.asked << " questions in " << ms << " ms");
  return order;
}

bool ordered(const std::string& text) {
  const race::GridOrder order = ask(text);
  REQUIRE_MESSAGE(order.ordered.has_value(), order.why << "\n" << order.question);
  return *order.ordered;
}

}  // namespace

TEST_CASE("grid sync model: nvcc's sync_grids orders across CTAs, its altered forms do not") {
  // atom.add.release.gpu and ld.acquire.gpu: release and acquire patterns (8.8 form 1) of .gpu scope, which includes
  // every CTA (8.5); the bar.syncs order the other threads of each CTA with its adder (8.9.4 item 2).
  const race::GridOrder real = ask(kernel(".release.gpu", ".acquire.gpu"));
  CHECK_MESSAGE(real.ordered == true, real.why << "\n" << real.question);
  CHECK(real.asked == 24);  // 2 directions x adder or not for b and a x 3 kinds, one shape each
  CHECK(real.question.empty());
  // The add .relaxed without a fence: no release pattern, nothing synchronizes with the spinning CTA's acquire.
  const race::GridOrder relaxed_add = ask(kernel(".relaxed.gpu", ".acquire.gpu"));
  CHECK(relaxed_add.ordered == false);
  CHECK(relaxed_add.question.find("atom.add.relaxed.gpu.u32 r0, [W], 2147483647") != std::string::npos);
  // ... with a release fence before it: a release pattern again (8.8 form 3).
  CHECK(ordered(kernel(".relaxed.gpu", ".acquire.gpu", "fence.acq_rel.gpu;")));
  // The loads .relaxed without a fence: no acquire pattern; with a fence after the spin, form 3 again.
  CHECK(!ordered(kernel(".release.gpu", ".relaxed.gpu")));
  CHECK(ordered(kernel(".release.gpu", ".relaxed.gpu", "", "fence.acq_rel.gpu;")));
  // Scope .cta: another CTA is not in it (8.5), the adds and loads of two CTAs are not morally strong (8.6).
  CHECK(!ordered(kernel(".release.cta", ".acquire.cta")));
  // CUDA's older sync_grids: __threadfence() (fence.sc.gpu), atomicAdd (.relaxed at .gpu, 9.7.13.5's default scope),
  // a volatile spin and __threadfence() again.
  CHECK(ordered(kernel("", ".volatile", "fence.sc.gpu;", "fence.sc.gpu;")));
}

namespace {
race::GridQuestion real_question(int ctas) {
  race::GridQuestion q;
  q.add = "atom.add.release.gpu.u32 {d}, [W], {v}";
  q.ctas = ctas;
  q.before.assign(static_cast<std::size_t>(ctas), {});
  q.after.assign(static_cast<std::size_t>(ctas), {"ld.acquire.gpu.u32 {d}, [W]"});
  q.other.assign(static_cast<std::size_t>(ctas), {});
  return q;
}
bool races(const race::GridQuestion& q) {
  std::string why;
  const auto r = race::grid_races(q, why);
  REQUIRE_MESSAGE(r.has_value(), why << "\n" << race::grid_litmus(q));
  return *r;
}
}  // namespace

TEST_CASE("grid sync model: without the second bar.sync only the adding thread waits") {
  race::GridQuestion q = real_question(2);
  q.second_barrier = false;
  q.b_adds = false;
  q.a_adds = true;  // the adder of the other CTA read the flip: b is ordered before what it does next
  CHECK(!races(q));
  q.a_adds = false;  // another thread of that CTA waits for nothing
  CHECK(races(q));
  q.second_barrier = true;
  CHECK(!races(q));
}

TEST_CASE("grid sync model: three CTAs, the middle one's add between the two in coherence order") {
  // What grid_sync_model.hpp's counting argument takes two CTAs to stand for: with three, the flip comes with the
  // last add and orders the first CTA's accesses before the last's (CTA 0 adds 0x80000000 - 2).
  race::GridQuestion q = real_question(3);
  CHECK(grid_litmus(q).find("2147483646") != std::string::npos);
  for (auto [b, a] : {std::pair{0, 2}, std::pair{2, 1}}) {
    q.b_cta = b, q.a_cta = a;
    CHECK(!races(q));
  }
  q.add = "atom.add.relaxed.gpu.u32 {d}, [W], {v}";
  CHECK(races(q));
}

TEST_CASE("grid sync model: the checker reports a grid sync the model does not order, and keeps the question") {
  // tests/unit/race/kernels/grid_sync_relaxed_add.ptx: nvcc's sync_grids with its add .relaxed. Its verdict (race) is
  // the kernels' test; here the note, and the litmus test PTXCHECK_RACE_QUESTIONS keeps.
  const fs::path dir = fs::temp_directory_path() / "ptxcheck_grid_questions";
  fs::remove_all(dir);
  fs::create_directories(dir);
  ::setenv("PTXCHECK_RACE_QUESTIONS", dir.string().c_str(), 1);
  const fs::path file = race_kernels::kernels / "grid_sync_relaxed_add.ptx";
  race::RunOptions o = race_kernels::options(race_kernels::expectation(file));
  const race::FileResult r = race::run_file(file.string(), o);
  ::unsetenv("PTXCHECK_RACE_QUESTIONS");
  REQUIRE(r.kernels.size() == 1);
  std::string notes;
  for (const auto& n : r.kernels[0].notes) notes += n + "\n";
  CHECK(notes.find("not taken as an ordering: the memory model finds") != std::string::npos);
  CHECK(notes.find("taken as a barrier of the whole grid") == std::string::npos);
  const fs::path kept = dir / "grid-sync-line47.litmus";
  REQUIRE_MESSAGE(fs::exists(kept), notes);
  std::ifstream in(kept);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(text.find("atom.add.relaxed.gpu.u32 r0, [W], 2147483647") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("grid sync model: W's top bit flips with the last add and no earlier (the counting two CTAs stand for)") {
  // Every set of CTAs whose adds have landed (any order gives the same 32-bit sum, 9.7.13.5's .u32 add wraps): the
  // sum has the top bit exactly when the set is all of them, whatever the grid's size.
  for (int ctas = 2; ctas <= 12; ++ctas)
    for (unsigned landed = 0; landed < (1u << ctas); ++landed) {
      std::uint32_t w = 0;
      for (int c = 0; c < ctas; ++c)
        if (landed & (1u << c)) w += static_cast<std::uint32_t>(race::grid_sync_addend(c, ctas));
      CAPTURE(ctas);
      CAPTURE(landed);
      CHECK(((w & 0x80000000u) != 0) == (landed == (1u << ctas) - 1));
    }
}
