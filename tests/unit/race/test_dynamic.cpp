// Unit tests for the dynamic race engine (`ptxcheck race --launch`): every kernel in tests/unit/race/dynamic runs
// with the launch file of the same name, and must get the verdict on its first line (`// expect: race-free` or
// `// expect: race L1 [L2]`, the CUDA lines of the two accesses of one reported race, or `// expect: barrier-divergence
// L`, the line of the barrier, worked out by hand from the ISA 9.0 rules the line cites; a `// nvcc: FLAGS` line
// gives more nvcc flags, as in tests/exec, e.g. -arch=sm_100a for sm_100 instructions). Plus witness replay: a
// symbolic race on a racy kernel is confirmed on the
// interpreter, and a fence-ordered one is not.
#include "checker/race/dynamic.hpp"
#include "tests/unit/race/nvcc_line.hpp"
#include "checker/race/run.hpp"
#include "semantics/interp/launch_json.hpp"
#include "semantics/ir/build.hpp"

#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

namespace fs = std::filesystem;
using namespace ptxcheck;

namespace {
const fs::path dir = fs::path(PTXCHECK_SOURCE_DIR) / "tests/unit/race/dynamic";

race::RunOptions options() {
  race::RunOptions o;
  o.cuda.cache_dir = (fs::temp_directory_path() / "ptxcheck-race-unit-ptx").string();
  return o;
}
}  // namespace

TEST_CASE("every kernel in tests/unit/race/dynamic gets its expected verdict from its launch") {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".cu") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 10);
  for (const auto& p : files) {
    CAPTURE(p.filename().string());
    std::ifstream in(p);
    std::string line;
    std::getline(in, line);
    std::smatch m;
    REQUIRE_MESSAGE(std::regex_search(line, m, std::regex(R"(expect:\s*(race-free|race|barrier-divergence)((?:\s+\d+)*))")),
                    "missing `// expect:` line");
    const std::string verdict = m[1];
    std::vector<std::uint32_t> lines;
    std::istringstream nums(m[2].str());
    for (std::uint32_t n; nums >> n;) lines.push_back(n);
    if (lines.size() == 1) lines.push_back(lines[0]);

    auto o = options();
    o.cuda = test::with_nvcc_line(p, o.cuda);
    o.launch_file = fs::path(p).replace_extension(".json").string();
    auto r = race::run_file(p.string(), o);
    REQUIRE_MESSAGE(r.error.empty(), r.error);
    REQUIRE(r.kernels.size() == 1);
    const auto& k = r.kernels[0];
    if (verdict == "race-free") {
      CHECK(r.exit_code == 0);
      CHECK(k.races.empty());
      CHECK(k.divergences.empty());
      continue;
    }
    CHECK(r.exit_code == 1);
    if (verdict == "barrier-divergence") {
      // One report, at the CUDA line of the barrier some thread reached and another did not.
      REQUIRE(k.divergences.size() == 1);
      CHECK(k.divergences[0].where.line == lines[0]);
      CHECK(k.divergences[0].t1_reaches);
      CHECK(k.races.empty());
      continue;
    }
    REQUIRE(lines.size() == 2);
    bool found = false;
    std::set<std::string> pairs;
    for (const auto& x : k.races) {
      CHECK(x.confirmed);
      CHECK(!x.possible);
      auto got = std::minmax(x.first.where.line, x.second.where.line);
      found |= got == std::minmax(lines[0], lines[1]);
      // One report per pair of source positions.
      CHECK(pairs.insert(std::min(x.first.where.key(), x.second.where.key()) + "|" + std::max(x.first.where.key(), x.second.where.key())).second);
    }
    CHECK_MESSAGE(found, "no race reported between lines " << lines[0] << " and " << lines[1]);
  }
}

TEST_CASE("a race report names the threads, the object and the strength and scope of both accesses") {
  auto o = options();
  o.launch_file = (dir / "mp_block_scope.json").string();
  auto r = race::run_file((dir / "mp_block_scope.cu").string(), o);
  REQUIRE(r.kernels.size() == 1);
  bool flag = false;
  for (const auto& x : r.kernels[0].races) {
    if (x.first.object != "flag") continue;
    flag = true;
    // st.release.cta in CTA 0 and ld.acquire.cta in CTA 1 (ISA 8.5: .cta includes only the own CTA's threads).
    std::set<std::string> strengths{x.first.strength, x.second.strength};
    CHECK(strengths == std::set<std::string>{"strong.cta"});
    CHECK(x.first.offset == 0);
    CHECK(x.t1.ctaid[0] != x.t2.ctaid[0]);
  }
  CHECK(flag);
}

TEST_CASE("launch files: errors are reported as bad input") {
  auto o = options();
  o.launch_file = (fs::temp_directory_path() / "ptxcheck-no-such-launch.json").string();
  auto r = race::run_file((dir / "atomics_only.cu").string(), o);
  CHECK(r.exit_code == 2);
  CHECK(r.error.find("cannot read") != std::string::npos);

  const fs::path bad = fs::temp_directory_path() / "ptxcheck-bad-launch.json";
  std::ofstream(bad) << R"({"grid": [2,1,1], "block": [64,1,1], "params": []})";
  o.launch_file = bad.string();
  r = race::run_file((dir / "atomics_only.cu").string(), o);
  CHECK(r.exit_code == 2);
  CHECK(r.error.find("parameters") != std::string::npos);
}

TEST_CASE("symbolic witnesses are replayed: a real race is confirmed, a fence-ordered pair is not") {
  auto o = options();
  o.check.block = std::array<std::uint32_t, 3>{32, 1, 1};
  o.check.grid = std::array<std::uint32_t, 3>{2, 1, 1};
  // The symbolic engine does not model fences, so it reports the message-passing pair as possible; the
  // interpreter's execution with the witness does not race there (ISA 8.8 patterns order it).
  auto fenced = race::run_file((dir / "mp_fences.cu").string(), o);
  REQUIRE(fenced.kernels.size() == 1);
  CHECK(fenced.exit_code == 3);
  for (const auto& x : fenced.kernels[0].races) {
    CHECK(!x.confirmed);
    CHECK(x.note.find("not confirmed on the interpreter") != std::string::npos);
  }
  // Without the reader's fence the same pair races, and the replay shows it: the verdict is race, not unknown.
  auto missing = race::run_file((dir / "mp_fence_missing.cu").string(), o);
  REQUIRE(missing.kernels.size() == 1);
  CHECK(missing.exit_code == 1);
  bool data = false;
  for (const auto& x : missing.kernels[0].races)
    if (std::minmax(x.first.where.line, x.second.where.line) == std::minmax(4u, 9u)) {
      data = true;
      CHECK(x.confirmed);
      CHECK(!x.possible);
      REQUIRE(x.witness);
      CHECK(x.witness->block == std::array<std::uint32_t, 3>{32, 1, 1});
    }
  CHECK(data);
}

TEST_CASE("a replay reports the other races its execution shows") {
  // Two write-write races (lines 3 and 5, every thread writes a[0] and b[0]); with one symbolic report allowed,
  // the replay of its witness shows both, and the second comes back as a confirmed report of its own.
  const fs::path src = fs::temp_directory_path() / "ptxcheck-replay-two-races.cu";
  std::ofstream(src) << "// two races\n__global__ void k(int* a, int* b) {\n  a[0] = threadIdx.x;\n  __threadfence();\n"
                        "  b[0] = threadIdx.x;\n}\n";
  auto o = options();
  o.check.block = std::array<std::uint32_t, 3>{32, 1, 1};
  o.check.grid = std::array<std::uint32_t, 3>{1, 1, 1};
  o.check.max_races = 1;
  auto r = race::run_file(src.string(), o);
  REQUIRE(r.kernels.size() == 1);
  CHECK(r.exit_code == 1);
  std::set<std::uint32_t> lines;
  for (const auto& x : r.kernels[0].races) {
    CHECK(x.confirmed);
    CHECK(x.first.where.line == x.second.where.line);
    lines.insert(x.first.where.line);
  }
  CHECK(lines == std::set<std::uint32_t>{3, 5});
}

TEST_CASE("ScoR's work-stealing kernels are race free only for disjoint work ranges (DEVIATIONS.md)") {
  // gcol assignColorsKernel and gcon initKernel (race-free variants) hand CTA b the items [head[b], tail[b]) and
  // steal from other CTAs' ranges through atomicAdd(&head[x], NTHREADS). Their host code (divideWork) makes the
  // ranges a partition; for overlapping ranges two CTAs write the same items. Expected by hand: ranges
  // [0,256) and [0,256) race, [0,256) and [256,512) do not.
  const fs::path scor = fs::path(PTXCHECK_CORPUS_DIR) / "scor/benchmarks";
  struct Kernel { fs::path file; std::string name; std::vector<std::string> params; };
  const std::vector<Kernel> kernels = {
      {scor / "graph-coloring/gcol_kernel.cu", "_Z18assignColorsKernelPiS_S_S_S_S_S_S_",
       {"head", "tail", "colorSet", "vertexColor", "VForbidden", "TVForbidden", "bases", "blockIds"}},
      {scor / "graph-connectivity/gcon_kernel.cu", "_Z10initKernelPiS_S_S_S_", {"head", "tail", "graphComponents", "bases", "blockIds"}}};
  // Little-endian 32-bit words, as the launch file's "bytes_le_hex".
  auto words = [](std::initializer_list<std::uint32_t> v) {
    std::vector<std::uint8_t> bytes;
    for (std::uint32_t x : v)
      for (int k = 0; k < 4; ++k) bytes.push_back(static_cast<std::uint8_t>(x >> (8 * k)));
    return ptx::interp::bytes_to_hex(bytes);
  };
  for (const auto& k : kernels) {
    for (bool overlap : {true, false}) {
      CAPTURE(k.file.filename().string());
      CAPTURE(overlap);
      nlohmann::json j{{"grid", {2, 1, 1}}, {"block", {256, 1, 1}}, {"buffers", nlohmann::json::object()}, {"params", nlohmann::json::array()}};
      j["buffers"]["head"] = {{"bytes_le_hex", overlap ? words({0, 0}) : words({0, 256})}};
      j["buffers"]["tail"] = {{"bytes_le_hex", overlap ? words({256, 256}) : words({256, 512})}};
      for (const auto& p : k.params) {
        if (p != "head" && p != "tail") j["buffers"][p] = {{"zero_bytes", 2048}};
        j["params"].push_back({{"buffer", p}});
      }
      const fs::path launch = fs::temp_directory_path() / "ptxcheck-scor-ranges.json";
      std::ofstream(launch) << j;
      auto o = options();
      o.cuda.defines = {"NBLOCKS=2", "NTHREADS=256"};
      o.cuda.include_dirs = {k.file.parent_path().string()};
      o.cuda.extra = {"-std=c++11"};
      o.kernel = k.name;
      o.launch_file = launch.string();
      auto r = race::run_file(k.file.string(), o);
      REQUIRE(r.error.empty());
      CHECK(r.exit_code == (overlap ? 1 : 0));
      if (overlap) {
        REQUIRE(r.kernels.size() == 1);
        REQUIRE(!r.kernels[0].races.empty());
        const auto& x = r.kernels[0].races[0];
        CHECK(x.t1.ctaid[0] != x.t2.ctaid[0]);
      }
    }
  }
}

TEST_CASE("GPUVerify's reduced_strength_with_requires is race free only under its erased precondition (DEVIATIONS.md)") {
  // `__requires(sz == blockDim.x)` is a no-op once compiled (gpuverify_nvcc_shim.h), so the kernel is checked for
  // every sz. Thread t writes A[t + k*sz]: with sz = 512 and 1024 threads, thread 0's second element is thread
  // 512's first (a race); with sz = blockDim.x = 1024 the elements are disjoint.
  const fs::path dir = fs::path(PTXCHECK_CORPUS_DIR) / "gpuverify-cuda";
  for (std::uint32_t sz : {512u, 1024u}) {
    CAPTURE(sz);
    const fs::path launch = fs::temp_directory_path() / "ptxcheck-reduced-strength.json";
    std::ofstream(launch) << nlohmann::json{{"grid", {1, 1, 1}},
                                            {"block", {1024, 1, 1}},
                                            {"buffers", {{"A", {{"zero_bytes", 100 * sz * 4}}}}},
                                            {"params", {{{"buffer", "A"}}, {{"u32", sz}}}}};
    auto o = options();
    o.cuda.include_files = {(dir / "gpuverify_nvcc_shim.h").string()};
    o.launch_file = launch.string();
    auto r = race::run_file((dir / "reduced_strength_with_requires/kernel.cu").string(), o);
    REQUIRE(r.error.empty());
    CHECK(r.exit_code == (sz == 512 ? 1 : 0));
  }
}

TEST_CASE("GPUVerify's curand_mtgp32 is race free only for the library's pick-up positions (DEVIATIONS.md)") {
  // curand() on an MTGP32 state (curand_mtgp32_kernel.h): thread t writes s[(t + offset + 351) & 1023] and, in the
  // same barrier interval, every thread t' reads s[(t' + offset + pos) & 1023] and s[(t' + offset + pos - 1) & 1023],
  // where pos = k->pos_tbl[pIdx] is read from memory. With the library's first parameter set (pos 88) and 256
  // threads the slots never meet (t' = t + 263 > 255); with pos = 350, thread t + 1 reads what thread t writes.
  const fs::path dir = fs::path(PTXCHECK_CORPUS_DIR) / "gpuverify-cuda";
  for (std::uint32_t pos : {88u, 350u}) {
    CAPTURE(pos);
    std::vector<std::uint8_t> params(40960, 0);  // mtgp32_kernel_params_t, pos_tbl[0] first
    for (int k = 0; k < 4; ++k) params[k] = static_cast<std::uint8_t>(pos >> (8 * k));
    // curandStateMtgp32: s[1024], offset, pIdx (both 0), then the pointer k at byte 4104.
    nlohmann::json j{{"grid", {1, 1, 1}}, {"block", {256, 1, 1}}, {"params", {{{"buffer", "state"}}, {{"buffer", "A"}}}}};
    j["buffers"]["state"] = {{"zero_bytes", 4112}, {"pointers", {{{"at", 4104}, {"to", "k"}}}}};
    j["buffers"]["k"] = {{"bytes_le_hex", ptx::interp::bytes_to_hex(params)}};
    j["buffers"]["A"] = {{"zero_bytes", 1024}};
    // (one file per process: test runs side by side must not read each other's launch)
    const fs::path launch = fs::temp_directory_path() / ("ptxcheck-mtgp32-" + std::to_string(::getpid()) + ".json");
    std::ofstream(launch) << j;
    auto o = options();
    o.cuda.include_dirs = {dir.string()};
    o.cuda.include_files = {(dir / "gpuverify_nvcc_shim.h").string(), "curand_kernel.h", "curand_mtgp32_kernel.h"};
    o.launch_file = launch.string();
    auto r = race::run_file((dir / "curand_tests/pass/curand_mtgp32/kernel.cu").string(), o);
    REQUIRE(r.error.empty());
    REQUIRE(r.kernels.size() == 1);
    CHECK(r.kernels[0].unknown_reasons.empty());
    CHECK(r.exit_code == (pos == 88 ? 0 : 1));
    for (const auto& x : r.kernels[0].races) {
      CHECK(x.first.object == "state");
      CHECK(x.second.object == "state");
    }
  }
}

TEST_CASE("launches larger than the dynamic engine's limit are refused, not run") {
  ptx::interp::Launch l;
  l.grid = {65536, 1, 1};
  l.block = {1024, 1, 1};
  ptx::ir::Module m;
  auto d = race::check_execution(m, l, race::DynamicOptions{});
  CHECK(d.error.find("the launch has 67108864 threads") != std::string::npos);
  CHECK(d.races.empty());
}

TEST_CASE("a retired CTA's shared memory leaves the tracked bytes: only resident CTAs' count") {
  // 64 CTAs of 64 threads, each thread writing its word of a 256-byte shared array and reading its neighbour's
  // after bar.sync: 16 KB of shared memory over the launch, at most 8 resident CTAs (2 KB) at a time.
  const char* text = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
                     "  .reg .b32 %r<8>;\n  .shared .align 4 .b8 s[256];\n  mov.u32 %r1, %tid.x;\n  shl.b32 %r2, %r1, 2;\n"
                     "  mov.u32 %r3, s;\n  add.u32 %r4, %r3, %r2;\n  st.shared.u32 [%r4], %r1;\n  bar.sync 0;\n"
                     "  xor.b32 %r5, %r2, 4;\n  add.u32 %r6, %r3, %r5;\n  ld.shared.u32 %r7, [%r6];\n  ret;\n}\n";
  auto built = ptx::ir::load_ptx(text, "retire.ptx");
  REQUIRE(built);
  ptx::interp::Launch l;
  l.kernel = "k";
  l.grid = {64, 1, 1};
  l.block = {64, 1, 1};
  auto d = race::check_execution(*built.module, l, {});
  REQUIRE(d.run.ok());
  CHECK(d.accesses == 2 * 64 * 64);
  CHECK(!d.truncated);
  CHECK(d.races.empty());
  CHECK(d.tracked_bytes >= 256);
  CHECK(d.tracked_bytes <= 8 * 256);
  // The same launch as one cooperative grid keeps every CTA resident: 16 KB tracked at once.
  l.cooperative = true;
  auto all = race::check_execution(*built.module, l, {});
  CHECK(all.tracked_bytes == 64 * 256);
  CHECK(all.shadow_bytes > 2 * d.shadow_bytes);
  // With history memory for twice the resident CTAs' bytes, the launch is wholly checked, the cooperative one not.
  race::DynamicOptions o;
  o.max_shadow_bytes = 2 * d.shadow_bytes;
  l.cooperative = false;
  CHECK(!race::check_execution(*built.module, l, o).truncated);
  l.cooperative = true;
  CHECK(race::check_execution(*built.module, l, o).truncated);
}
