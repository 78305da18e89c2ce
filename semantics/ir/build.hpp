// Builds and checks the IR from a parsed module: resolves names (registers by lexical scope, variables,
// labels, functions, special registers), decodes qualifiers, lays out initializers, and reports what the
// spec rejects (unknown instruction or qualifier, wrong operand count, undeclared name) with its location.
#pragma once

#include "semantics/ir/ir.hpp"
#include "semantics/ptx/parse.hpp"

#include <optional>
#include <vector>

namespace ptx::ir {

struct BuildResult {
  std::optional<Module> module;  // present when there are no errors
  std::vector<ptxcheck::Diagnostic> errors;
  std::vector<ptxcheck::Diagnostic> warnings;  // accepted, but the spec says otherwise
  explicit operator bool() const { return module.has_value(); }
};

BuildResult build(const ParsedModule& parsed);

// Parse + build in one step (the common case for every subcommand).
BuildResult load_ptx(std::string text, std::string file);

}  // namespace ptx::ir
