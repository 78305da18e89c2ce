// Declarations of the PTX grammar's entry rule (Spirit X3); definitions are in grammar_def.hpp.
#pragma once
#include "semantics/ptx/ast.hpp"
#include <boost/spirit/home/x3.hpp>

namespace ptx::grammar {
namespace x3 = boost::spirit::x3;

using iterator_type = const char*;
struct module_class;
using module_type = x3::rule<module_class, ast::Module>;
BOOST_SPIRIT_DECLARE(module_type)
struct module_skim_class;
using module_skim_type = x3::rule<module_skim_class, ast::Module>;

// The skipper: white space, // line comments and /* block */ comments (ISA 4.1), as one primitive parser
// (a rule of alternatives calling isspace() took a quarter of the parse time).
struct skipper_type : x3::parser<skipper_type> {
  using attribute_type = x3::unused_type;
  static bool const has_attribute = false;
  template <class It, class Context, class RContext, class Attribute>
  bool parse(It& first, It const& last, Context const&, RContext&, Attribute&) const {
    It const start = first;
    while (first != last) {
      char c = *first;
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
        ++first;
      } else if (c == '/' && last - first > 1 && first[1] == '/') {
        while (first != last && *first != '\n') ++first;
      } else if (c == '/' && last - first > 1 && first[1] == '*') {
        It p = first + 2;
        while (last - p > 1 && !(p[0] == '*' && p[1] == '/')) ++p;
        if (last - p <= 1) break;  // unterminated comment: left for the grammar to report
        first = p + 2;
      } else {
        break;
      }
    }
    return first != start;
  }
};

module_type const& module();
module_skim_type const& module_skim();
skipper_type const& skipper();

using phrase_context_type = x3::phrase_parse_context<skipper_type>::type;
}  // namespace ptx::grammar
