// Running many litmus files against one model with N worker threads (used by the CLI, the corpus driver
// and the benchmark); results come back in input order.
#pragma once

#include "litmus/enumerate/enumerate.hpp"
#include "memmodel/cat/ast.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ptxcheck::litmus {

// `ptx` names memmodel/models/ptx.cat; anything else is a path. nullopt + diagnostics on error.
std::optional<cat::Model> load_named_model(const std::string& name, std::vector<std::string>& errors);

// Parses and runs each file; a parse error yields result "error" with the located message as reason.
std::vector<Result> run_files(const std::vector<std::string>& files, const cat::Model& model, const Options& opt, int jobs);

}  // namespace ptxcheck::litmus
