// The only translation unit that instantiates the Spirit X3 PTX grammar (built at -O2 without -g).
#include "semantics/ptx/parse.hpp"

#include "semantics/ptx/grammar_def.hpp"

#include <boost/spirit/home/x3/support/utility/error_reporting.hpp>

#include <iostream>

namespace ptx {
namespace x3 = boost::spirit::x3;
using iterator = grammar::iterator_type;

ptxcheck::SourceLocation ParsedModule::locate(const ast::Tagged& node) const {
  if (node.id_first < 0 || static_cast<std::size_t>(node.id_first) >= positions.size()) return {file, 0, 0};
  return lines.locate(positions[node.id_first], file);
}

namespace {
// Recursive descent needs a bounded depth: deeper nesting than any real PTX is refused before parsing,
// so hostile input cannot overflow the stack.
std::optional<ptxcheck::Diagnostic> nesting_error(const std::string& text, const std::string& file) {
  constexpr int kMaxNesting = 256;
  int depth = 0;
  for (std::size_t p = 0; p < text.size(); ++p) {
    char c = text[p];
    if (c == '{' || c == '(' || c == '[') {
      if (++depth > kMaxNesting)
        return ptxcheck::make_diagnostic(text, file, p, "nesting deeper than " + std::to_string(kMaxNesting) + " levels");
    } else if ((c == '}' || c == ')' || c == ']') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

// Runs a module rule over text[from, to): the items into out, every tagged node's first and last offset (into the
// whole text) appended to positions; the located error otherwise.
template <class Rule>
std::optional<ptxcheck::Diagnostic> run_rule(const Rule& rule, const std::string& text, std::size_t from, std::size_t to,
                                             const std::string& file, ast::Module& out, std::vector<std::uint32_t>& positions) {
  iterator const begin = text.data();
  iterator const end = begin + to;
  iterator it = begin + from;
  // X3's error_handler holds the position cache that annotate_on_success fills; errors are reported by us.
  x3::error_handler<iterator> handler(begin, end, std::cerr, file);
  auto const parser = x3::with<x3::error_handler_tag>(std::ref(handler))[rule];
  try {
    bool ok = x3::phrase_parse(it, end, parser, grammar::skipper(), out);
    // Whatever is left after the last complete item is the first thing the grammar could not read.
    x3::phrase_parse(it, end, x3::eps, grammar::skipper());
    if (!ok || it != end)
      return ptxcheck::make_diagnostic(text, file, static_cast<std::size_t>(it - begin),
                                       "expected a directive, declaration or function here");
  } catch (x3::expectation_failure<iterator> const& e) {
    return ptxcheck::make_diagnostic(text, file, static_cast<std::size_t>(e.where() - begin), ptxcheck::expected_here(e.which()));
  }
  // The cache holds a node's first and last iterator at id_first and id_last.
  const auto& cache = handler.get_position_cache().get_positions();
  positions.reserve(positions.size() + cache.size());
  for (iterator position : cache) positions.push_back(static_cast<std::uint32_t>(position - begin));
  return std::nullopt;
}

template <class Rule>
ParseResult parse_with(const Rule& rule, std::shared_ptr<const std::string> text, std::string file) {
  ParseResult result;
  if ((result.error = nesting_error(*text, file))) return result;
  ParsedModule parsed;
  parsed.file = file;
  parsed.text = text;
  if ((result.error = run_rule(rule, *text, 0, text->size(), file, parsed.module, parsed.positions))) return result;
  parsed.lines = ptxcheck::LineIndex(*text);
  result.module = std::move(parsed);
  return result;
}
}  // namespace

ParseResult parse_ptx(std::string text, std::string file) {
  return parse_with(grammar::module(), std::make_shared<const std::string>(std::move(text)), std::move(file));
}

ParseResult skim_ptx(std::shared_ptr<const std::string> text, std::string file) {
  return parse_with(grammar::module_skim(), std::move(text), std::move(file));
}

std::optional<ParsedFunction> parse_function(const ParsedModule& skim, const ast::Function& f) {
  if (f.id_first < 0 || static_cast<std::size_t>(f.id_last) >= skim.positions.size()) return std::nullopt;
  ParsedFunction out;
  if (run_rule(grammar::module(), *skim.text, skim.positions[f.id_first], skim.positions[f.id_last], skim.file, out.module,
               out.positions))
    return std::nullopt;
  // The range holds exactly the skimmed function; anything else means the two grammars read it differently.
  if (out.module.items.size() != 1 || !boost::get<ast::Function>(&out.module.items[0].get())) return std::nullopt;
  return out;
}

}  // namespace ptx
