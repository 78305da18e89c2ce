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

// The skipper: white space, // line comments and /* block */ comments (ISA 4.1).
struct skipper_class;
using skipper_type = x3::rule<skipper_class, x3::unused_type>;
BOOST_SPIRIT_DECLARE(skipper_type)

module_type const& module();
skipper_type const& skipper();

using phrase_context_type = x3::phrase_parse_context<skipper_type>::type;
}  // namespace ptx::grammar
