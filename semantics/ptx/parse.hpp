// The one entry point to the PTX parser: text in, AST (with source positions) or a located error out.
// Spirit X3 stays behind this header: only parse.cpp includes the grammar.
#pragma once

#include "semantics/ptx/ast.hpp"
#include "semantics/support/diagnostic.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ptx {

struct ParsedModule {
  std::string file;
  std::shared_ptr<const std::string> text;
  ast::Module module;
  // Byte offsets of every position-tagged node's first and last character (indexed by id_first/id_last).
  std::vector<std::uint32_t> positions;
  ptxcheck::LineIndex lines;

  // Where a node starts in the source (line 0 when the node carries no position).
  ptxcheck::SourceLocation locate(const ast::Tagged& node) const;
  std::string line_text(std::uint32_t line) const { return lines.line_text(*text, line); }
};

struct ParseResult {
  std::optional<ParsedModule> module;
  std::optional<ptxcheck::Diagnostic> error;
  explicit operator bool() const { return module.has_value(); }
};

ParseResult parse_ptx(std::string text, std::string file);

// The skim: every top-level item parsed, each function body only matched as balanced braces (its `body` is an empty
// Block). ir::load_ptx builds from it one function at a time (parse_function), so that the AST of the whole module
// never exists at once (bench/footprint). Where the skim or a body fails, parse_ptx gives the error.
ParseResult skim_ptx(std::shared_ptr<const std::string> text, std::string file);

// One function of a skimmed module, parsed in full from its range of the text: a module of that one item, and the
// positions of its nodes (offsets into the whole text, indexed by the nodes' ids). nullopt when it does not parse.
struct ParsedFunction {
  ast::Module module;
  std::vector<std::uint32_t> positions;
  const ast::Function& function() const { return boost::get<ast::Function>(module.items[0].get()); }
};
std::optional<ParsedFunction> parse_function(const ParsedModule& skim, const ast::Function& f);

}  // namespace ptx
