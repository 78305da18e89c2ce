// Builds and checks the IR from a parsed module: resolves names (registers by lexical scope, variables,
// labels, functions, special registers), decodes qualifiers, lays out initializers, and reports what the
// spec rejects (unknown instruction or qualifier, wrong operand count, undeclared name) with its location.
#pragma once

#include "semantics/ir/ir.hpp"
#include "semantics/ptx/parse.hpp"

#include <functional>
#include <memory>
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

// What load_ptx keeps of the bodies it builds. Every body is parsed, built and checked, one at a time (the same
// diagnostics as build(), without the whole module's AST in memory: docs/footprint.md). Once every declaration is
// known, `keep` says which bodies the caller needs (empty: all); the others are emptied (Function::body_elided)
// after on_body has seen them, except those a kept body reaches (calls, function addresses, initializers).
struct LoadOptions {
  std::function<bool(const Module&, const Function&)> keep;
  std::function<void(std::size_t index, const Function&)> on_body;
};

// Keeps the bodies of the kernels a `--kernel NAME` means (Module::kernels_named) and what they reach; every body
// when the name is empty.
LoadOptions keep_kernels_named(std::string name);

// Parse + build in one step (the common case for every subcommand).
BuildResult load_ptx(std::string text, std::string file, const LoadOptions& options = {});
// The same on a shared text, for a caller that loads one module several times (race's kernel batches).
BuildResult load_ptx(std::shared_ptr<const std::string> text, std::string file, const LoadOptions& options = {});

}  // namespace ptx::ir
