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

ParseResult parse_ptx(std::string text_in, std::string file) {
  auto text = std::make_shared<const std::string>(std::move(text_in));
  iterator const begin = text->data();
  iterator const end = begin + text->size();
  iterator it = begin;

  ParseResult result;
  ParsedModule parsed;
  parsed.file = file;
  parsed.text = text;
  parsed.lines = ptxcheck::LineIndex(*text);

  // X3's error_handler holds the position cache that annotate_on_success fills; errors are reported by us.
  // Recursive descent needs a bounded depth: deeper nesting than any real PTX is refused before parsing,
  // so hostile input cannot overflow the stack.
  constexpr int kMaxNesting = 256;
  int depth = 0;
  for (iterator p = begin; p != end; ++p) {
    if (*p == '{' || *p == '(' || *p == '[') {
      if (++depth > kMaxNesting) {
        result.error = ptxcheck::make_diagnostic(*text, file, static_cast<std::size_t>(p - begin),
                                                 "nesting deeper than " + std::to_string(kMaxNesting) + " levels");
        return result;
      }
    } else if ((*p == '}' || *p == ')' || *p == ']') && depth > 0) {
      --depth;
    }
  }
  x3::error_handler<iterator> handler(begin, end, std::cerr, file);
  auto const parser = x3::with<x3::error_handler_tag>(std::ref(handler))[grammar::module()];
  try {
    bool ok = x3::phrase_parse(it, end, parser, grammar::skipper(), parsed.module);
    // Whatever is left after the last complete item is the first thing the grammar could not read.
    x3::phrase_parse(it, end, x3::eps, grammar::skipper());
    if (!ok || it != end) {
      result.error = ptxcheck::make_diagnostic(*text, file, static_cast<std::size_t>(it - begin),
                                               "expected a directive, declaration or function here");
      return result;
    }
  } catch (x3::expectation_failure<iterator> const& e) {
    result.error = ptxcheck::make_diagnostic(*text, file, static_cast<std::size_t>(e.where() - begin),
                                             "expected " + e.which() + " here");
    return result;
  }
  // The cache holds a node's first and last iterator at id_first and id_last.
  for (iterator position : handler.get_position_cache().get_positions())
    parsed.positions.push_back(static_cast<std::uint32_t>(position - begin));
  result.module = std::move(parsed);
  return result;
}

}  // namespace ptx
