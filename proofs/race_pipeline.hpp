// The exploration behind race.pipeline_phases_order (race_pipeline.cpp), open for its negative controls
// (tests/unit/proofs/test_theorems.cpp): the same machine refutes a claim that orders too much or a program that
// breaks the protocol.
#pragma once

#include <z3++.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace ptxcheck::proofs {

// The signature of race::pipeline_ordered (checker/race/pipeline_order.hpp).
using PipelineClaim = std::function<z3::expr(const z3::expr& x_full, const z3::expr& x_empty, bool x_async, const z3::expr& y_full,
                                             const z3::expr& y_empty, const std::array<std::int64_t, 4>& least, std::int64_t stages)>;

// Empty when, in every interleaving of `threads` threads each running a pipeline of `stages` slots over `total`
// stages with prefetch depth `lag`, every order `claim` gives holds and the phases are as the lemma says; else what
// broke. `states` (when given) receives how many states were visited.
std::string explore_pipeline(int threads, int stages, int total, int lag, const PipelineClaim& claim, std::size_t* states = nullptr);

}  // namespace ptxcheck::proofs
