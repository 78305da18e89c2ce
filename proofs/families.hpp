// The theorem families of proofs/, one source file each: instruction identities over all bit-vector
// inputs (identities.cpp), memory-model properties within a stated litmus bound (model.cpp) and the race
// checker's encodings (race.cpp).
#pragma once

#include "proofs/theorem.hpp"

#include <vector>

namespace ptxcheck::proofs {
std::vector<Theorem> identity_theorems();
std::vector<Theorem> model_theorems();
std::vector<Theorem> race_theorems();
Theorem pipeline_phases_order_theorem();  // race_pipeline.cpp, one of race_theorems
}  // namespace ptxcheck::proofs
