// Running many litmus files against one model with N workers (used by the CLI, the corpus drivers and the
// benchmark); results come back in input order. With a time budget the tests run in worker processes that
// are killed when a test overruns it, so a slow test becomes `unknown` (DESIGN.md principle 4), never a hang.
#pragma once

#include "litmus/enumerate/enumerate.hpp"
#include "litmus/parse/ast.hpp"
#include "memmodel/cat/ast.hpp"
#include "semantics/support/diagnostic.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ptxcheck::litmus {

// `ptx` names memmodel/models/ptx.cat; anything else is a path. nullopt + diagnostics on error.
std::optional<cat::Model> load_named_model(const std::string& name, std::vector<std::string>& errors);

// Reads one file into a Test (default: load_any); nullopt + located diagnostics on bad input.
using Loader = std::function<std::optional<Test>(const std::string& file, std::vector<Diagnostic>& diags)>;
// Runs in the worker (thread or child process) after a test ran, before its witnesses are dropped: writes
// pictures, for instance.
using PostHook = std::function<void(const Test& test, Result& result)>;

struct RunConfig {
  int jobs = 1;
  long long budget_ms = 0;  // per test wall-clock budget; 0 = none
  long long memory_mb = 0;  // per test resident-memory budget of its worker process; 0 = none
                            // (with neither budget, tests run in threads, not processes)
  Loader loader;            // empty: load_any
  PostHook post;            // may be empty
};

// `FILE.test` / `FILE.test#k` (NVIDIA's format, litmus/parse/nvtest.hpp) or a herd-style `.litmus` file.
std::optional<Test> load_any(const std::string& file, std::vector<Diagnostic>& diags);
// Each template `.test` file becomes its instances `FILE.test#1` ... `#N` (one test per row); others stay.
std::vector<std::string> expand_inputs(const std::vector<std::string>& files);

// Parses and runs each file (after expand_inputs: a template yields one result per instance, in row order); bad input yields result "error" with the located message as reason, a test
// over the budget yields "unknown" with reason "time budget exhausted (N ms)" or "memory budget of N MB reached
// (resident M MB)".
std::vector<Result> run_files(const std::vector<std::string>& files, const cat::Model& model, const Options& opt,
                              const RunConfig& cfg);
std::vector<Result> run_files(const std::vector<std::string>& files, const cat::Model& model, const Options& opt, int jobs);

}  // namespace ptxcheck::litmus
