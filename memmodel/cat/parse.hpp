// Loading a cat model: parse (Spirit X3, in parse.cpp only), expand `include`, and check that every name
// is a base relation/set or defined before use; errors are located diagnostics.
#pragma once

#include "memmodel/cat/ast.hpp"
#include "semantics/support/diagnostic.hpp"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ptxcheck::cat {

// Parse a model text; nullopt plus diagnostics on a syntax error.
std::optional<Model> parse_model(const std::string& text, const std::string& file, std::vector<Diagnostic>& diags);

// Load from a file, expanding includes (relative to the including file) and checking names against `base`.
std::optional<Model> load_model(const std::string& path, const std::set<std::string>& base, std::vector<Diagnostic>& diags);

// The names every evaluator provides (sets and relations of an execution graph).
const std::set<std::string>& base_names();
bool is_base_set(const std::string& name);

}  // namespace ptxcheck::cat
