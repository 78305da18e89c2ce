// The race checker's reading of ISA 8.5 scopes (semantics/ir/scope.hpp) against Table 21 by hand
// (tests/unit/scope_table.hpp), through both engines: two threads each store to one word with st.relaxed of a
// scope. The stores conflict (8.7.1) and nothing orders them, so they race exactly when they are not morally strong
// (8.7), that is when the scope leaves the other thread out. The threads are placed in one CTA, in two CTAs of one
// cluster (.reqnctapercluster 2) and in two clusters (.reqnctapercluster 1, or no cluster shape: a CTA per
// cluster, 2.2.2). A launch runs on one GPU, so the table's other-GPU column has no launch here
// (tests/unit/memmodel/test_scope.cpp checks it through the litmus engines).
#include "checker/race/check.hpp"
#include "checker/race/dynamic.hpp"
#include "checker/race/strength.hpp"
#include "semantics/ir/build.hpp"
#include "tests/unit/scope_table.hpp"

#include <doctest/doctest.h>

#include <fmt/format.h>

using namespace ptxcheck;
using scope_table::includes;

namespace {
struct Placing {
  scope_table::Relation relation;
  std::uint32_t block, grid;
  const char* cluster_directive;
};
const Placing placings[] = {
    {scope_table::same_cta, 2, 1, ""},
    {scope_table::same_cluster_other_cta, 1, 2, " .reqnctapercluster 2, 1, 1"},
    {scope_table::same_gpu_other_cluster, 1, 2, " .reqnctapercluster 1, 1, 1"},
    {scope_table::same_gpu_other_cluster, 1, 2, ""},
};

std::string kernel(const char* scope, const char* directive) {
  return fmt::format(R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out){1}
{{
  .reg .b32 %r<2>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, 1;
  st.relaxed.{0}.global.u32 [%rd2], %r1;
  ret;
}}
)",
                     scope, directive);
}
}  // namespace

TEST_CASE("scopes: both race engines find a race between two threads' relaxed stores exactly outside Table 21") {
  for (const Placing& p : placings)
    for (std::size_t s = 0; s < 4; ++s) {
      const std::string ptx = kernel(scope_table::scope_names[s], p.cluster_directive);
      CAPTURE(ptx);
      CAPTURE(scope_table::relation_names[p.relation]);
      const bool racy = !includes[s][p.relation];
      auto built = ptx::ir::load_ptx(ptx, "scope.ptx");
      REQUIRE_MESSAGE(built, (built.errors.empty() ? std::string("does not check") : built.errors.front().render()));
      const ptx::ir::Function& f = *built.module->kernels().front();

      race::Options o;
      o.block = {p.block, 1, 1};
      o.grid = {p.grid, 1, 1};
      o.replay = false;
      const race::KernelResult symbolic = race::check_kernel(*built.module, f, o);
      CHECK(symbolic.verdict == (racy ? race::KernelResult::Verdict::race : race::KernelResult::Verdict::race_free));

      ptx::interp::Launch launch;
      launch.kernel = f.name;
      launch.block = {p.block, 1, 1};
      launch.grid = {p.grid, 1, 1};
      launch.buffers.push_back({"out", std::vector<std::uint8_t>(4, 0)});
      ptx::interp::ParamValue out;
      out.buffer = "out";
      launch.params.push_back(out);
      const race::DynamicResult dynamic = race::check_execution(*built.module, launch, race::DynamicOptions{});
      REQUIRE(dynamic.error.empty());
      REQUIRE(dynamic.run.ok());
      CHECK(dynamic.races.empty() == !racy);
    }
}

TEST_CASE("scopes: how far each reaches in a launch, as the dynamic engine keeps its releases") {
  // 0: its CTA only, 1: its cluster, 2: every thread of the launch (on its one GPU).
  for (std::size_t s = 0; s < 4; ++s) {
    CAPTURE(scope_table::scope_names[s]);
    const std::size_t want = includes[s][scope_table::same_gpu_other_cluster] ? 2 : includes[s][scope_table::same_cluster_other_cta] ? 1 : 0;
    CHECK(race::reach(scope_table::scopes[s]) == want);
  }
}
