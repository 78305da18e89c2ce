// proofs/models/ptx-race.cat (ISA 8.7.1's data race over memmodel/models/ptx.cat) evaluated on an execution the
// race engine's recorder (checker/race/execution_graph.hpp) took of an interpreter run: the tests that hold the race
// engines to the model (test_dynamic_model.cpp, test_differential.cpp).
#pragma once

#include "checker/race/describe.hpp"
#include "checker/race/execution_graph.hpp"
#include "memmodel/cat/explicit.hpp"
#include "memmodel/cat/parse.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <utility>
#include <vector>

namespace race_model {

inline ptxcheck::cat::Model ptx_race() {
  std::vector<ptxcheck::Diagnostic> diags;
  const auto path = std::filesystem::path(PTXCHECK_SOURCE_DIR) / "proofs/models/ptx-race.cat";
  auto m = ptxcheck::cat::load_model(path.string(), ptxcheck::cat::base_names(), diags);
  REQUIRE(m.has_value());
  return *m;
}

// The event pairs the model's `data-race` holds for (a < b), by a key of their instructions (`key(first, second)`).
template <class Key, class KeyOf>
std::map<Key, std::vector<std::pair<int, int>>> races_by(const ptxcheck::race::RecordedExecution& g, const ptxcheck::cat::ExplicitResult& r,
                                                         KeyOf key) {
  std::map<Key, std::vector<std::pair<int, int>>> out;
  const auto& races = std::get<ptxcheck::mm::Rel>(r.env.at("data-race"));
  for (int a = 0; a < g.graph.n; ++a)
    for (int b = a + 1; b < g.graph.n; ++b)
      if (races.has(a, b)) out[key(*g.instruction[a], *g.instruction[b])].emplace_back(a, b);
  return out;
}

}  // namespace race_model
