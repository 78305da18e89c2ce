// ISA 8.5 scope inclusion (semantics/ir/scope.hpp) against Table 21 written out by hand (tests/unit/scope_table.hpp),
// and the litmus engine's reading of it: where a thread's place (cta, cluster, gpu) puts another thread, the incl
// and sr relations of an execution graph, and message passing through a release and an acquire of each scope
// between threads of each place, run by both litmus engines under ptx.cat.
#include "litmus/driver.hpp"
#include "litmus/parse/parse.hpp"
#include "memmodel/graph/base_graph.hpp"
#include "semantics/ir/scope.hpp"
#include "tests/unit/scope_table.hpp"

#include <doctest/doctest.h>

#include <fmt/format.h>

#include <utility>
#include <vector>

using namespace ptxcheck;
using scope_table::includes;
using scope_table::scopes;

namespace {
constexpr std::array<ptx::ir::Nearness, 4> nearness_of{ptx::ir::Nearness::same_cta, ptx::ir::Nearness::same_cluster,
                                                       ptx::ir::Nearness::same_gpu, ptx::ir::Nearness::other_gpu};

// Two litmus threads in each relation, as tests place them: with and without named clusters (a CTA naming none is
// its own 1x1x1 cluster, ISA 2.2.2; CTA indices count within a named cluster).
using Pair = std::pair<mm::ThreadPlace, mm::ThreadPlace>;
const std::array<std::vector<Pair>, 4> placed{{
    {{{0, -1, 0}, {0, -1, 0}}, {{1, 2, 1}, {1, 2, 1}}},
    {{{0, 0, 0}, {1, 0, 0}}, {{2, 3, 1}, {0, 3, 1}}},
    {{{0, -1, 0}, {1, -1, 0}}, {{0, 0, 0}, {0, 1, 0}}, {{0, 0, 0}, {1, 1, 0}}},
    {{{0, -1, 0}, {0, -1, 1}}, {{0, 0, 0}, {0, 0, 1}}, {{1, -1, 1}, {2, -1, 0}}},
}};

std::string place_text(const mm::ThreadPlace& p) {
  return p.cluster < 0 ? fmt::format("cta {},gpu {}", p.cta, p.gpu) : fmt::format("cta {},cluster {},gpu {}", p.cta, p.cluster, p.gpu);
}
}  // namespace

TEST_CASE("ISA 8.5 Table 21: which threads each scope includes") {
  for (std::size_t s = 0; s < 4; ++s)
    for (std::size_t r = 0; r < 4; ++r) {
      CAPTURE(scope_table::scope_names[s]);
      CAPTURE(scope_table::relation_names[r]);
      CHECK(ptx::ir::scope_includes(scopes[s], nearness_of[r]) == includes[s][r]);
      // The boolean-domain form, with the facts of the relation spelled out.
      const ptx::ir::Placement<bool> p{r == 0, r <= 1, r <= 2, true};
      CHECK(ptx::ir::scope_includes(scopes[s], p) == includes[s][r]);
    }
}

TEST_CASE("litmus threads: their places give Table 21's answers, both ways, in the graph's incl and sr") {
  for (std::size_t r = 0; r < 4; ++r)
    for (const auto& [a, b] : placed[r]) {
      CAPTURE(scope_table::relation_names[r]);
      CAPTURE(place_text(a));
      CAPTURE(place_text(b));
      const std::vector<mm::ThreadPlace> threads{a, b};
      CHECK(mm::nearness(a, b) == nearness_of[r]);
      CHECK(mm::nearness(b, a) == nearness_of[r]);
      CHECK_FALSE(mm::scope_includes(mm::Scope::none, threads, 0, 1));
      CHECK_FALSE(mm::scope_includes(mm::Scope::sys, threads, -1, 1));  // the initial writes belong to no thread
      for (std::size_t s = 0; s < 4; ++s) {
        CAPTURE(scope_table::scope_names[s]);
        const mm::Scope scope = mm::scope_of(scopes[s]);
        CHECK(mm::scope_includes(scope, threads, 0, 1) == includes[s][r]);
        CHECK(mm::scope_includes(scope, threads, 1, 0) == includes[s][r]);
        // A relaxed write of this scope by each thread.
        mm::BaseEvent w0, w1;
        w0.kind = w1.kind = mm::EvKind::write;
        w0.sem = w1.sem = mm::Sem::relaxed;
        w0.scope = w1.scope = scope;
        w0.loc = w1.loc = w0.va = w1.va = 0;
        w0.thread = 0;
        w1.thread = 1;
        const mm::Execution x = mm::base_execution({w0, w1}, threads, {});
        CHECK(x.rels.at("incl").has(0, 1) == includes[s][r]);
        CHECK(x.rels.at("sr").has(0, 1) == includes[s][r]);
        CHECK(x.rels.at("scta").has(0, 1) == includes[0][r]);
      }
    }
}

// 8.8, 8.9.4: a release and an acquire synchronize when morally strong (8.7: each scope includes the other's
// thread); then the acquiring thread reads the data written before the release. Otherwise nothing orders them and
// it may read the initial value.
TEST_CASE("litmus engines: message passing at each scope between threads of each place") {
  std::vector<std::string> errors;
  const auto model = litmus::load_named_model("ptx", errors);
  REQUIRE_MESSAGE(model, (errors.empty() ? std::string() : errors.front()));
  for (auto engine : {litmus::Engine::explicit_, litmus::Engine::symbolic})
    for (std::size_t r = 0; r < 4; ++r)
      for (const auto& [a, b] : placed[r])
        for (std::size_t s = 0; s < 4; ++s) {
          const char* sc = scope_table::scope_names[s];
          const std::string text = fmt::format(
              "PTX MP-{0}\n{{ x = 0; flag = 0; }}\n P0@{1} | P1@{2} ;\n st.weak x, 1 | ld.acquire.{0} r1, flag ;\n"
              " st.release.{0} flag, 1 | ld.weak r2, x ;\nexists (P1:r1 == 1 /\\ P1:r2 == 0)\n",
              sc, place_text(a), place_text(b));
          CAPTURE(text);
          std::vector<Diagnostic> diags;
          const auto test = litmus::parse_litmus(text, "mp.litmus", diags);
          REQUIRE(test);
          litmus::Options o;
          o.engine = engine;
          const litmus::Result res = litmus::run_test(*test, *model, o);
          CHECK(res.result == (includes[s][r] ? "fails" : "holds"));
        }
}
