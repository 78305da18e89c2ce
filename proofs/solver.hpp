// The one place proofs/ talks to Z3: validity of a bit-vector claim under a budget. unsat of the negation
// is `proved`; a model is `refuted` with the named inputs' values; anything else is `unknown` with Z3's reason.
#pragma once

#include "proofs/theorem.hpp"

#include <z3++.h>

#include <string>
#include <utility>
#include <vector>

namespace ptxcheck::proofs {

// Is `claim` true for every value of its free constants? `inputs` name the values a counterexample shows.
ProofResult prove_valid(z3::context& ctx, const z3::expr& claim, const Budget& budget,
                        const std::vector<std::pair<std::string, z3::expr>>& inputs);

// Is `condition` satisfiable? (A model theorem that looks for a forbidden execution: sat = refuted.)
ProofResult refute_if_sat(z3::context& ctx, const z3::expr& condition, const Budget& budget,
                          const std::vector<std::pair<std::string, z3::expr>>& inputs);

}  // namespace ptxcheck::proofs
