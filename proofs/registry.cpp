// The list of theorems `ptxcheck prove` and the tests run: each family contributes its theorems here,
// and run_theorem times one check.
#include "proofs/families.hpp"

#include <chrono>

namespace ptxcheck::proofs {

const std::vector<Theorem>& all_theorems() {
  static const std::vector<Theorem> all = [] {
    std::vector<Theorem> v;
    for (auto family : {&identity_theorems, &model_theorems, &race_theorems})
      for (auto& t : family()) v.push_back(std::move(t));
    return v;
  }();
  return all;
}

const std::map<std::string, std::string>& recorded_findings() {
  static const std::map<std::string, std::string> findings = {
      {"mapping.sound_rc11.shapes", "load buffering: RC11's po|rf acyclicity is not kept by ld.relaxed/st.relaxed"},
      {"model.drf_sc.8_7_1", "morally strong relaxed accesses never race (8.7.1), yet message passing with them is not SC"},
  };
  return findings;
}

Verdict expected_verdict(const std::string& name) {
  return recorded_findings().count(name) ? Verdict::refuted : Verdict::proved;
}

ProofResult run_theorem(const Theorem& t, const Budget& budget) {
  auto start = std::chrono::steady_clock::now();
  ProofResult r = t.check(budget);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace ptxcheck::proofs
