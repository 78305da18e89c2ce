// Parsing litmus files (Spirit X3 in parse.cpp only); syntax errors come back as located diagnostics.
#pragma once

#include "litmus/parse/ast.hpp"
#include "semantics/support/diagnostic.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ptxcheck::litmus {

std::optional<Test> parse_litmus(const std::string& text, const std::string& file, std::vector<Diagnostic>& diags);
std::optional<Test> load_litmus(const std::string& path, std::vector<Diagnostic>& diags);

}  // namespace ptxcheck::litmus
