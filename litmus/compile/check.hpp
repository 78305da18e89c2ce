// Compiled-litmus outcome inclusion (issue 7): a .cu.litmus test is compiled by nvcc and lifted to a PTX
// litmus test (lift.hpp), which runs under the PTX model; the source runs under scoped-c11.cat in the
// encoding of source_test.hpp. Outcomes the compiled program allows and the source forbids are reported
// with a witness. The result is data (one struct); JSON and text are renderings of it.
#pragma once

#include "litmus/compile/lift.hpp"
#include "litmus/enumerate/enumerate.hpp"
#include "memmodel/cat/ast.hpp"
#include "semantics/support/cuda.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ptxcheck::litmus_compile {

struct CheckOptions {
  std::string ptx_model = "ptx";  // `ptx` (memmodel/models/ptx.cat) or a path to a cat model
  std::string source_model;       // empty: memmodel/models/scoped-c11.cat
  CudaOptions cuda;               // nvcc: arch, extra flags, cache directory
  litmus::Options engine;         // the litmus engine's options (candidate budget, unroll)
};

// The models of one comparison, loaded once (a loop over a suite reuses them).
struct CheckModels {
  cat::Model ptx;
  cat::Model source;       // scoped-c11.cat
  cat::Model source_race;  // the same plus `~empty data-race`: its consistent executions are the racy ones
};
std::optional<CheckModels> load_check_models(const CheckOptions& options, std::vector<std::string>& errors);

// One outcome: the values of the condition's registers and locations (herd's "States"), and a witness
// execution of the program that allows it (its events and rf/co edges).
struct Outcome {
  std::map<std::string, std::int64_t> values;
  bool satisfies = false;  // the test's condition holds in this state
  std::vector<std::string> events;
  std::vector<std::string> edges;  // `e3 -rf-> e5`, `e1 -co-> e4`
};

struct CompiledReport {
  std::string file, name;
  // consistent: every compiled outcome is a source outcome (or the source is racy, so undefined);
  // extra-outcomes: `extra` lists outcomes only the compiled program has; unknown: an engine budget or
  // unsupported construct (reason says which); error: the test, nvcc or the lift failed (reason).
  std::string verdict = "error";
  std::string reason;
  std::string ptx_model, source_model;        // model titles/paths
  std::string source_litmus, compiled_litmus;  // the two litmus tests that were run
  litmus::Result source, compiled;             // the engine's results (states, condition verdict)
  bool source_racy = false;                    // some scoped-c11-consistent execution has a data race
  std::vector<Outcome> extra;
  double time_ms = 0;
};

// The whole check of one file (loads the models; for a suite, load them once and use the overload).
CompiledReport check_compiled(const std::string& path, const CheckOptions& options);
CompiledReport check_compiled(const std::string& path, const CheckModels& models, const CheckOptions& options);

nlohmann::json to_json(const CompiledReport& report);
std::string render_text(const CompiledReport& report);

// Exit code per DESIGN.md: 0 consistent, 1 extra outcomes, 2 error (bad input, nvcc, lift), 3 unknown.
int exit_code(const CompiledReport& report);

// Outcome inclusion on two engine results over the same condition terms: the states of `target` that
// `reference` does not have (used by check_compiled and by proofs/ for the model theorems).
std::vector<Outcome> extra_outcomes(const litmus::Result& target, const litmus::Result& reference);

// The same model with one more axiom `~empty NAME` (NAME defined by the model): the consistent
// executions of the result are the executions of the model in which NAME is non-empty (e.g. data races).
cat::Model with_nonempty_axiom(cat::Model model, const std::string& name);
// The same with relation `name` empty: the executions without it.
cat::Model with_empty_axiom(cat::Model model, const std::string& name);

}  // namespace ptxcheck::litmus_compile
