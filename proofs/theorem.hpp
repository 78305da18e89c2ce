// A bounded theorem: a named property, the bound within which it is checked, and a function that asks
// Z3 (within a time and memory budget) and returns proved, refuted with a counterexample, or unknown.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace ptxcheck::proofs {

struct Budget {
  unsigned timeout_ms = 60'000;   // per solver call
  unsigned memory_mb = 4096;      // Z3's memory_max_size
  unsigned rlimit = 0;            // Z3 resource limit per call (deterministic, unlike time); 0: none
};

enum class Verdict { proved, refuted, unknown };
const char* verdict_name(Verdict v);

struct ProofResult {
  Verdict verdict = Verdict::unknown;
  std::string detail;  // the counterexample when refuted, the reason when unknown
  double seconds = 0;
};

struct Theorem {
  std::string name;       // `identity.add_cc_addc_chain_64`
  std::string statement;  // what is claimed, with the spec sections it rests on
  std::string bound;      // "all 2^128 inputs (exhaustive over bit-vectors)", "2 threads x 3 accesses"
  std::function<ProofResult(const Budget&)> check;
};

// A theorem refuted within its bound is a finding, written up in proofs/FINDINGS.md: it stays registered,
// and the tests assert the recorded verdict, so they fail if the finding goes away. name -> finding title.
const std::map<std::string, std::string>& recorded_findings();
// refuted for a recorded finding, proved otherwise.
Verdict expected_verdict(const std::string& name);

// Every theorem of proofs/, in a fixed order (families: identity.*, model.*, mapping.*, race.*).
const std::vector<Theorem>& all_theorems();

// Runs one theorem and times it (the check's own `seconds` is overwritten).
ProofResult run_theorem(const Theorem& t, const Budget& budget);

}  // namespace ptxcheck::proofs
