// Makes one spec example a module that ptxcheck can load: wraps it in a kernel (or at module scope), then adds
// the declarations the example omits, as the checker reports them, for a bounded number of rounds.
#pragma once

#include <string>
#include <vector>

namespace spec {

struct ExampleResult {
  bool ok = false;
  bool parsed = false;             // the last round parsed (a failure is then a checker error)
  std::string shape;               // "kernel" (instructions wrapped in an .entry) or "module" (has its own functions)
  std::string first_error;         // `line N: message`, N counted within the example; empty when ok
  std::vector<std::string> added;  // the declarations the harness added, in order
  unsigned rounds = 0;             // load attempts
  std::string module_text;         // the last module tried
  std::vector<std::string> contradicted;  // refusals of lines that break their own section's rule (ok all the same)
};

// Rounds of "load, declare what is reported undeclared" before giving up.
inline constexpr unsigned kMaxRounds = 8;

ExampleResult check_example(const std::string& code);

}  // namespace spec
