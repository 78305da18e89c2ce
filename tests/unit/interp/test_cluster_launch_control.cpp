// clusterlaunchcontrol.try_cancel / query_cancel (PTX ISA 9.0 9.7.13.17-18) in the interpreter, on the kernels of
// data/cluster_launch_control.ptx. The expectations follow from the sections' text and the interpreter's documented
// launch model (docs/clusters.md): clusters start in grid order, `resident_ctas` at a time, and a successful
// request cancels a cluster that has not started, which then never runs, and reports its first CTA's ctaid.
#include "semantics/interp/launch.hpp"
#include "semantics/ir/build.hpp"
#include "tests/unit/interp/kernel_run.hpp"

#include <doctest/doctest.h>

#include <set>
#include <string>

using namespace ptx::interp;
using interp_test::buf;
using interp_test::u32;
using interp_test::word;

namespace {
const ptx::ir::Module& module() { return interp_test::data_module("cluster_launch_control.ptx"); }

Launch launch(const char* kernel, Dims grid, std::size_t out_words) {
  Launch l;
  l.kernel = kernel;
  l.grid = grid;
  l.block = {1, 1, 1};
  l.buffers = {{"out", std::vector<std::uint8_t>(out_words * 4)}, {"count", std::vector<std::uint8_t>(out_words * 4)}};
  l.params = {buf("out"), buf("count")};
  return l;
}

RunResult misuse(std::uint32_t what) {
  Launch l;
  l.kernel = "misuse";
  l.grid = {2, 1, 1};
  l.params = {u32(what)};
  return run(module(), l);
}

bool supported(const std::string& ins) {
  const std::string text = ".version 9.0\n.target sm_100a\n.address_size 64\n.visible .entry k()\n{\n .reg .b32 %r<8>;\n .reg .b64 %rd<8>;\n"
                           " .reg .b128 %q<2>;\n .reg .pred %p<2>;\n " + ins + "\n ret;\n}\n";
  // Refused either by the IR checker (a word the syntax does not write, semantics/ir/syntax_words.def) or by
  // the interpreter.
  auto loaded = ptx::ir::load_ptx(text, "k.ptx");
  if (!loaded) return false;
  return instruction_supported(loaded.module->functions[0].body[0]);
}
}  // namespace

TEST_CASE("try_cancel with one resident CTA: CTA (0,0) cancels and processes every other cluster (ISA 9.7.13.17)") {
  Options opt;
  opt.resident_ctas = 1;  // (1,0), (0,1), (1,1) wait their turn, so each can be canceled, in grid order
  const RunResult r = run(module(), launch("persistent", {2, 2, 1}, 4), opt);
  REQUIRE_MESSAGE(r.ok(), r.problem.message);
  CHECK(r.stats.ctas == 1);  // the canceled clusters never started
  for (std::size_t i = 0; i < 4; ++i) {
    CAPTURE(i);
    CHECK(word(r, 0, i) == 100);  // processed by the CTA of linear id 0: get_first_ctaid::x / ::y named each
    CHECK(word(r, 1, i) == 1);    // once
  }
}

TEST_CASE("try_cancel with every CTA resident fails: nothing is left to cancel") {
  const RunResult r = run(module(), launch("persistent", {2, 2, 1}, 4), Options{});  // resident_ctas 8
  REQUIRE_MESSAGE(r.ok(), r.problem.message);
  CHECK(r.stats.ctas == 4);
  for (std::size_t i = 0; i < 4; ++i) CHECK(word(r, 0, i) == 100 + i);  // each CTA processed only itself
}

TEST_CASE("try_cancel: every ctaid is processed exactly once, by a CTA that started, on any schedule") {
  for (std::uint64_t seed : {0, 1, 2, 3, 4, 5, 6, 7}) {  // with a seed, responses land later and CTAs interleave
    for (std::uint32_t resident : {1u, 2u, 3u}) {
      CAPTURE(seed);
      CAPTURE(resident);
      Options opt;
      opt.seed = seed;
      opt.resident_ctas = resident;
      const RunResult r = run(module(), launch("persistent", {6, 1, 1}, 6), opt);
      REQUIRE_MESSAGE(r.ok(), r.problem.message);
      std::set<std::uint32_t> started;  // a CTA that started processed its own ctaid first
      for (std::uint32_t i = 0; i < 6; ++i)
        if (word(r, 0, i) == 100 + i) started.insert(i);
      CHECK(started.size() == r.stats.ctas);
      for (std::uint32_t i = 0; i < 6; ++i) {
        CAPTURE(i);
        CHECK(word(r, 1, i) == 1);
        CHECK(started.count(word(r, 0, i) - 100) == 1);
      }
    }
  }
}

TEST_CASE("try_cancel.multicast::cluster::all: both CTAs of the cluster receive the response on their mbarrier") {
  for (std::uint64_t seed : {0, 1, 2, 3}) {
    CAPTURE(seed);
    Options opt;
    opt.seed = seed;
    opt.resident_ctas = 2;  // one cluster of 2 at a time
    const RunResult r = run(module(), launch("multicast", {8, 1, 1}, 66), opt);
    REQUIRE_MESSAGE(r.ok(), r.problem.message);
    CHECK(r.stats.ctas == 2);
    // Clusters 1-3 (first ctaids 2, 4, 6) canceled in order by cluster 0: rank r processes first + r.
    for (std::uint32_t i = 0; i < 8; ++i) {
      CAPTURE(i);
      CHECK(word(r, 0, i) == 100 + i % 2);
      CHECK(word(r, 1, i) == 1);
    }
    CHECK(word(r, 0, 64) == 0);  // get_first_ctaid.v4's y and z
    CHECK(word(r, 0, 65) == 0);
  }
}

TEST_CASE("clusterlaunchcontrol: undefined uses are reported") {
  const RunResult failed = misuse(0);
  CHECK(failed.problem.kind == Problem::Kind::illegal);
  CHECK(failed.problem.message.find("failed request is undefined") != std::string::npos);
  const RunResult again = misuse(1);
  CHECK(again.problem.kind == Problem::Kind::illegal);
  CHECK(again.problem.message.find("observed a failed request") != std::string::npos);
  const RunResult zeros = misuse(2);
  CHECK(zeros.problem.kind == Problem::Kind::illegal);
  CHECK(zeros.problem.message.find("not a response") != std::string::npos);
  CHECK(misuse(3).problem.kind == Problem::Kind::misaligned);
  const RunResult peer = misuse(4);
  CHECK(peer.problem.kind == Problem::Kind::illegal);
  CHECK_MESSAGE(peer.problem.message.find("mbar is not in the executing CTA") != std::string::npos, peer.problem.message);
}

TEST_CASE("clusterlaunchcontrol forms: the syntax of 9.7.13.17-18 runs, anything else is refused") {
  CHECK(supported("clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [%r1], [%r2];"));
  CHECK(supported("clusterlaunchcontrol.try_cancel.async.mbarrier::complete_tx::bytes.multicast::cluster::all.b128 [%rd1], [%rd2];"));
  CHECK(supported("clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 %p1, %q1;"));
  CHECK(supported("clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128 {%r1, %r2, %r3, _}, %q1;"));
  CHECK(supported("clusterlaunchcontrol.query_cancel.get_first_ctaid::y.b32.b128 %r1, %q1;"));
  CHECK_FALSE(supported("clusterlaunchcontrol.try_cancel.async.shared::cta.b128 [%r1], [%r2];"));  // no completion mechanism
  CHECK_FALSE(supported("clusterlaunchcontrol.try_cancel.async.shared::cluster.mbarrier::complete_tx::bytes.b128 [%r1], [%r2];"));
  CHECK_FALSE(supported("clusterlaunchcontrol.query_cancel.get_first_ctaid.b32.b128 %r1, %q1;"));  // .v4 or ::dimension
  CHECK_FALSE(supported("clusterlaunchcontrol.query_cancel.get_first_ctaid::w.b32.b128 %r1, %q1;"));
}
