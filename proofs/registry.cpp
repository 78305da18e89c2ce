// The list of theorems `ptxcheck prove` and the tests run: each family contributes its theorems here,
// and run_theorem times one check.
#include "proofs/families.hpp"

#include <chrono>

namespace ptxcheck::proofs {

const std::vector<Theorem>& all_theorems() {
  static const std::vector<Theorem> all = [] {
    std::vector<Theorem> v;
    for (auto family : {&identity_theorems, &model_theorems})
      for (auto& t : family()) v.push_back(std::move(t));
    return v;
  }();
  return all;
}

ProofResult run_theorem(const Theorem& t, const Budget& budget) {
  auto start = std::chrono::steady_clock::now();
  ProofResult r = t.check(budget);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace ptxcheck::proofs
