// The PTX grammar (ISA 9.0 chapters 4-5 and 11, plus the legacy syntax of ISA 1.4), written generically:
// an instruction is `[@[!]p] opcode{.qualifier} [operand {, operand}] ;`, and semantics/ir decides what
// the qualifiers mean, so a new instruction rarely touches this file. Included only by parse.cpp.
#pragma once

#include "semantics/ptx/ast_adapted.hpp"
#include "semantics/ptx/grammar.hpp"

#include <boost/spirit/home/x3/support/utility/annotate_on_success.hpp>
#include <bit>
#include <cstring>

namespace ptx::grammar {
using x3::attr;
using x3::char_;
using x3::lexeme;
using x3::lit;
using x3::matches;
using x3::omit;
using x3::raw;
using x3::uint_;

// Rules whose attribute derives from ast::Tagged record their source range on success.
struct annotated : x3::annotate_on_success {};

#define PTX_RULE(name, type, text) \
  struct name##_class;             \
  x3::rule<name##_class, type> const name = text;
// For rules that mix actions with plain alternatives: the plain ones still fill the attribute.
#define PTX_FORCED_RULE(name, type, text) \
  struct name##_class;                    \
  x3::rule<name##_class, type, true> const name = text;
#define PTX_ANNOTATED_RULE(name, type, text) \
  struct name##_class : annotated {};        \
  x3::rule<name##_class, type> const name = text;

// ---- lexical rules (ISA 4.3-4.5) ----
PTX_RULE(identifier, std::string, "identifier")
PTX_RULE(register_name, std::string, "register or name")
PTX_RULE(word, std::string, "word")
PTX_RULE(qualifier, std::string, "qualifier")
PTX_RULE(quoted, std::string, "string")
PTX_RULE(u64_literal, std::uint64_t, "integer")
PTX_RULE(signed_literal, std::int64_t, "integer")
PTX_FORCED_RULE(address_offset, std::int64_t, "offset")
PTX_FORCED_RULE(address_offset_or_literal, std::int64_t, "offset")
PTX_RULE(space_word, std::string, "state space")
PTX_RULE(linkage_word, std::string, "linkage")
PTX_RULE(dotted_word, std::string, "word")
PTX_RULE(attribute_word, std::string, "attribute list")
PTX_RULE(opcode, std::string, "opcode")
PTX_RULE(raw_until_semicolon, std::string, "text")
PTX_RULE(raw_until_brace, std::string, "text")
PTX_RULE(loc_attribute, std::string, ".loc attribute")

// ---- operands ----
PTX_ANNOTATED_RULE(operand, ast::Operand, "operand")
PTX_ANNOTATED_RULE(symbol, ast::Symbol, "name")
PTX_ANNOTATED_RULE(name_operand, ast::Operand, "name")
PTX_ANNOTATED_RULE(int_imm, ast::IntImm, "integer")
PTX_ANNOTATED_RULE(float_imm, ast::FloatImm, "floating-point literal")
PTX_ANNOTATED_RULE(address, ast::Address, "address")
PTX_ANNOTATED_RULE(vector, ast::Vector, "vector")
PTX_ANNOTATED_RULE(paren_list, ast::ParenList, "parenthesised list")
PTX_ANNOTATED_RULE(generic_ref, ast::SymbolOffset, "generic(name)")
PTX_RULE(operand_list, std::vector<ast::Operand>, "operand list")

// ---- statements ----
PTX_ANNOTATED_RULE(guard, ast::Guard, "guard predicate")
PTX_ANNOTATED_RULE(instruction, ast::Instruction, "instruction")
PTX_ANNOTATED_RULE(decl_qualifier, ast::DeclQualifier, "declaration qualifier")
PTX_ANNOTATED_RULE(declarator, ast::Declarator, "declarator")
PTX_ANNOTATED_RULE(var_decl, ast::VarDecl, "declaration")
PTX_ANNOTATED_RULE(loc, ast::Loc, ".loc")
PTX_ANNOTATED_RULE(directive, ast::Directive, "directive")
PTX_ANNOTATED_RULE(header_directive, ast::Directive, "performance directive")
PTX_ANNOTATED_RULE(prototype, ast::Directive, ".callprototype")
PTX_ANNOTATED_RULE(label, ast::Label, "label")
PTX_ANNOTATED_RULE(statement, ast::Statement, "statement")
PTX_ANNOTATED_RULE(block, ast::Block, "block")
PTX_RULE(linkage, std::vector<std::string>, "linkage")
PTX_RULE(state_space, std::string, "state space")

// ---- module level ----
PTX_ANNOTATED_RULE(param, ast::Param, "parameter")
PTX_RULE(param_list, std::vector<ast::Param>, "parameter list")
PTX_ANNOTATED_RULE(function, ast::Function, "function")
PTX_ANNOTATED_RULE(section, ast::Section, ".section")
PTX_ANNOTATED_RULE(file_directive, ast::FileDirective, ".file")
PTX_ANNOTATED_RULE(version, ast::Version, ".version")
PTX_ANNOTATED_RULE(line_directive, ast::Directive, "directive")
PTX_ANNOTATED_RULE(top_level, ast::TopLevel, "directive, declaration or function")
struct module_class : annotated {};
module_type const module_rule = "module";
// The skim (parse.hpp: skim_ptx): the same module, with each function body matched as balanced braces only.
PTX_RULE(skipped_body, ast::Block, "block")
PTX_ANNOTATED_RULE(function_skim, ast::Function, "function")
PTX_ANNOTATED_RULE(top_level_skim, ast::TopLevel, "directive, declaration or function")
struct module_skim_class : annotated {};
module_skim_type const module_skim_rule = "module";
skipper_type const skipper_rule{};

#undef PTX_RULE
#undef PTX_FORCED_RULE
#undef PTX_ANNOTATED_RULE

// ---- semantic actions ----
auto const set_name = [](auto& ctx) { x3::_val(ctx).name = x3::_attr(ctx); };
// Single-member nodes are filled by actions (X3 handles single-element Fusion sequences poorly).
auto const set_elements = [](auto& ctx) {
  if (x3::_attr(ctx)) x3::_val(ctx).elements = std::move(*x3::_attr(ctx));
};
auto const set_statements = [](auto& ctx) { x3::_val(ctx).statements = std::move(x3::_attr(ctx)); };
auto const set_items = [](auto& ctx) { x3::_val(ctx).items = std::move(x3::_attr(ctx)); };
auto const negate_offset = [](auto& ctx) { x3::_val(ctx) = -static_cast<std::int64_t>(x3::_attr(ctx)); };
auto const take_offset = [](auto& ctx) { x3::_val(ctx) = static_cast<std::int64_t>(x3::_attr(ctx)); };
auto const f32_bits = [](auto& ctx) { x3::_val(ctx).is_f32 = true; x3::_val(ctx).bits = x3::_attr(ctx); };
auto const f64_bits = [](auto& ctx) { x3::_val(ctx).is_f32 = false; x3::_val(ctx).bits = x3::_attr(ctx); };
auto const decimal_float = [](auto& ctx) {
  x3::_val(ctx).is_f32 = false;
  x3::_val(ctx).bits = std::bit_cast<std::uint64_t>(static_cast<double>(x3::_attr(ctx)));
};

// ASCII classes as bit sets: x3::alnum/alpha call the locale-aware isalnum() per character.
auto const alnum = char_("a-zA-Z0-9");
auto const alpha = char_("a-zA-Z");
auto const blank = char_(" \t");
x3::uint_parser<std::uint64_t, 16> const hex64;
x3::uint_parser<std::uint64_t, 8> const oct64;
x3::uint_parser<std::uint64_t, 2> const bin64;
x3::uint_parser<std::uint64_t, 10> const dec64;
x3::uint_parser<std::uint64_t, 16, 8, 8> const hex8digits;
x3::uint_parser<std::uint64_t, 16, 16, 16> const hex16digits;
// A decimal floating literal needs a '.' or an exponent, so that `1` stays an integer.
// `nan`/`inf` are names in PTX, never float literals.
struct decimal_float_policies : x3::strict_real_policies<double> {
  template <typename It, typename Attr> static bool parse_nan(It&, It const&, Attr&) { return false; }
  template <typename It, typename Attr> static bool parse_inf(It&, It const&, Attr&) { return false; }
};
x3::real_parser<double, decimal_float_policies> const strict_double;

auto const followsym = alnum | char_("_$");

// identifier: [a-zA-Z]{followsym}* | [_$%]{followsym}+  (ISA 4.4)
auto const identifier_def = lexeme[raw[(alpha >> *followsym) | (char_("_$%") >> +followsym)]];
// A name in operand position may carry a vector component: %tid.x, %ntid.y, %v.w.
auto const register_name_def =
    lexeme[raw[((alpha >> *followsym) | (char_("_$%") >> +followsym)) >> -('.' >> char_("xyzwrgba") >> !followsym)]] |
    lexeme[x3::string("_") >> !followsym];
auto const word_def = lexeme[raw[+(alnum | char_('_'))]];
// Instruction qualifiers may contain `::` (L2::evict_last, shared::cta).
auto const qualifier_def = lexeme['.' >> raw[+(alnum | char_('_') | lit("::"))]];
auto const quoted_def = lexeme['"' >> *(char_ - '"') >> '"'];

auto const u64_literal_def = lexeme[(lit("0x") | "0X") > hex64] >> -lit('U')
                           | lexeme[(lit("0b") | "0B") > bin64] >> -lit('U')
                           | lexeme['0' >> oct64] >> -lit('U')
                           | lexeme[dec64] >> -lit('U');
auto const signed_literal_def = ('-' >> u64_literal)[negate_offset] | (-lit('+') >> u64_literal)[take_offset];
auto const address_offset_def = ('+' >> signed_literal) | ('-' >> u64_literal)[negate_offset] | attr(std::int64_t{0});
auto const address_offset_or_literal_def = ('+' >> signed_literal) | ('-' >> u64_literal)[negate_offset] | signed_literal
                                     | attr(std::int64_t{0});

auto const int_imm_def = matches['-'] >> u64_literal;
auto const float_imm_def = lexeme[lit("0f") >> hex8digits][f32_bits] | lexeme[lit("0F") >> hex8digits][f32_bits]
                         | lexeme[lit("0d") >> hex16digits][f64_bits] | lexeme[lit("0D") >> hex16digits][f64_bits]
                         | strict_double[decimal_float];

auto const symbol_def = matches['!'] >> register_name;
auto const generic_ref_def = lit("generic") >> attr(true) >> '(' >> identifier >> ')' >> address_offset;
// `[reg]`, `[reg+off]`, `[var+off]`, `[imm]` (then base is empty) and `[tex, {coords}]`.
auto const address_def = '[' >> -register_name >> (address_offset_or_literal) >> *(',' >> operand) > ']';
auto const vector_def = lit('{') >> (-(operand % ','))[set_elements] > '}';
auto const paren_list_def = lit('(') >> (-(operand % ','))[set_elements] > ')';
// A name is read once, then a following `|q` makes it a predicate pair and `+off` a name with offset
// (reading it three times, once per alternative, cost a third of the parse time).
auto const start_symbol = [](auto& ctx) {
  ast::Symbol s;
  s.negated = boost::fusion::at_c<0>(x3::_attr(ctx));
  s.name = std::move(boost::fusion::at_c<1>(x3::_attr(ctx)));
  x3::_val(ctx) = std::move(s);
};
auto const to_pred_pair = [](auto& ctx) {
  ast::PredPair p;
  p.first = boost::get<ast::Symbol>(x3::_val(ctx).get()).name;
  p.second = std::move(x3::_attr(ctx));
  x3::_val(ctx) = std::move(p);
};
auto const to_symbol_plus = [](auto& ctx) {
  ast::SymbolOffset so;
  so.name = boost::get<ast::Symbol>(x3::_val(ctx).get()).name;
  so.offset = x3::_attr(ctx);
  x3::_val(ctx) = std::move(so);
};
// The second of a pair may be the sink `_` too (`p|_`, ISA 9.7.7.1 setp: "in place of any one of the destination
// operands").
auto const pair_second = x3::rule<class pair_second_class, std::string>{"predicate"} =
    identifier | lexeme[x3::string("_") >> !followsym];
// A video operand's selector, written right after the name (ISA 9.7.18: `.b0`-`.b3`, `.h0`, `.h1` of scalar video;
// `.hxy`, `.bxyzw` and the masks `.h10`, `.b3210` ... of SIMD video): `b` or `h` and digits. register_name has
// already taken a one-letter component (`%v.b`), which a digit cannot follow; semantics/ir checks which selectors
// an instruction and operand allow, and rejects them elsewhere.
auto const video_select = x3::rule<class video_select_class, std::string>{"selector"} =
    x3::no_skip['.' >> char_("bh") >> +char_("0-9") >> !followsym];
auto const set_select = [](auto& ctx) { boost::get<ast::Symbol>(x3::_val(ctx).get()).select = std::move(x3::_attr(ctx)); };
auto const start_minus_symbol = [](auto& ctx) {
  ast::Symbol s;
  s.minus = true;
  s.name = std::move(x3::_attr(ctx));
  x3::_val(ctx) = std::move(s);
};
auto const name_operand_def = ((matches['!'] >> register_name)[start_symbol]
                               >> -(('|' >> pair_second)[to_pred_pair] | (&(lit('+') | '-') >> address_offset)[to_symbol_plus]
                                    | video_select[set_select]))
                            | (('-' >> register_name)[start_minus_symbol] >> -video_select[set_select]);  // vmad `-a`
auto const operand_def = generic_ref | name_operand | address | vector | paren_list | float_imm | int_imm;
auto const operand_list_def = operand % ',';

// ---- statements (ISA 4.2, 5.4, 9.1, 11.4) ----
auto const guard_def = '@' >> matches['!'] >> identifier;
auto const opcode_def = lexeme[raw[alpha >> *(alnum | char_('_'))]];
auto const instruction_def = -guard >> opcode >> *qualifier >> -operand_list > ';';

x3::symbols<x3::unused_type> const space_keywords({"reg", "sreg", "const", "global", "local", "param", "shared", "tex"});
x3::symbols<x3::unused_type> const linkage_keywords({"extern", "visible", "weak", "common"});
auto const space_word_def = raw[space_keywords >> -(lit("::") >> +alpha)];
auto const state_space_def = lexeme['.' >> space_word >> !followsym];
auto const linkage_word_def = raw[linkage_keywords];
auto const linkage_def = *lexeme['.' >> linkage_word >> !followsym];
auto const dotted_word_def = lexeme['.' >> raw[+(alnum | char_('_'))]];
// `.attribute(.managed)` / `.attribute(.unified(19, 95))` (ISA 5.4.8) is one word, "attribute(...)" as written;
// the IR builder reads its list.
// `.attribute(.managed)` / `.attribute(.unified(19, 95))` (ISA 5.4.8) is one word, "attribute(...)" as written with
// its balanced parentheses; the IR builder reads its list.
struct attribute_list_parser : x3::parser<attribute_list_parser> {
  using attribute_type = std::string;
  static bool const has_attribute = true;
  template <class It, class Context, class RContext, class Attribute>
  bool parse(It& first, It const& last, Context const& ctx, RContext&, Attribute& out) const {
    x3::skip_over(first, last, ctx);
    static constexpr std::string_view kWord = ".attribute";
    It p = first;
    for (char c : kWord)
      if (p == last || *p++ != c) return false;
    while (p != last && (*p == ' ' || *p == '\t')) ++p;
    if (p == last || *p != '(') return false;
    int depth = 0;
    for (It q = p; q != last && *q != '\n' && *q != ';'; ++q) {
      depth += *q == '(' ? 1 : *q == ')' ? -1 : 0;
      if (depth == 0) {
        x3::traits::move_to(std::string(first + 1, q + 1), out);
        first = q + 1;
        return true;
      }
    }
    return false;
  }
};
auto const attribute_word_def = attribute_list_parser{};
auto const decl_qualifier_def = (attribute_word | dotted_word) >> -x3::uint_parser<std::uint64_t>();
auto const declarator_def = (identifier | x3::string("_")) >> -('<' > uint_ > '>')
                          >> *('[' >> -dec64 > ']') >> -('=' > operand);
auto const var_decl_def = linkage >> state_space >> *decl_qualifier > (declarator % ',') > ';';

// `.loc` ends at the end of its line (nvcc writes no `;`), so only blanks are skipped inside it.
auto const loc_attribute_def = lexeme[raw[+(char_ - char_(",;\r\n"))]];
auto const loc_def = lit(".loc") >> x3::skip(blank)[uint_ > uint_ > uint_ >> *(',' >> loc_attribute) >> -lit(';')];

auto const directive_argument = quoted | operand;
auto const directive_def = lexeme['.' >> !(lit("loc") >> !followsym) >> word] >> -operand_list
                         >> *quoted >> -lit(';');
// Performance directives between a function's signature and its body: no vectors, no `;`.
auto const header_directive_def = lexeme['.' >> word] >> -((int_imm | symbol) % ',') >> *quoted;
// `.callprototype` signatures and other directives whose text we keep as written.
auto const raw_until_semicolon_def = lexeme[raw[*(char_ - ';')]];
auto const raw_until_brace_def = lexeme[raw[*(char_ - '}')]];
auto const prototype_def = lexeme['.' >> x3::string("callprototype") >> !followsym] >> attr(std::vector<ast::Operand>())
                         >> x3::repeat(1)[raw_until_semicolon] > ';';
// The lookahead reads the name without building a string, so instruction lines pay almost nothing here.
auto const label_def = &(lexeme[(alpha >> *followsym) | (char_("_$%") >> +followsym)] >> ':') >> (identifier >> ':')[set_name];
auto const statement_def = label | block | loc | var_decl | prototype | directive | instruction;
auto const block_def = lit('{') >> (*statement)[set_statements] > '}';

// ---- module level (ISA 11) ----
auto const param_def = state_space >> *decl_qualifier >> declarator;
auto const param_list_def = '(' >> -(param % ',') > ')';
x3::symbols<std::string> const function_kinds({{"entry", "entry"}, {"func", "func"}});
auto const function_def = linkage >> lexeme['.' >> function_kinds >> !followsym] >> -omit[attribute_word] > -param_list > identifier
                        > -param_list > *header_directive > (lit(';') | block);
auto const section_def = lit(".section") > lexeme[&lit('.') >> raw['.' >> +(alnum | char_('_'))]] > '{'
                       > raw_until_brace > '}';
auto const file_directive_def = lit(".file") > x3::skip(blank)[uint_ > quoted >> *(',' >> dec64)];
auto const version_def = lit(".version") > x3::skip(blank)[uint_ > '.' > uint_];
// `.target sm_90, debug` / `.address_size 64`: end at the newline, `;` optional.
auto const line_directive_def = lexeme['.' >> word] >> x3::skip(blank)[-operand_list >> *quoted >> -lit(';')];
auto const top_level_def = version | file_directive | section | function | var_decl | line_directive;
auto const module_rule_def = (*top_level)[set_items];

// A function body as balanced braces (comments and strings may hold braces), its statements left unread: the skim
// keeps one function's AST in memory at a time, the body being parsed again from its range when it is built.
struct balanced_braces : x3::parser<balanced_braces> {
  using attribute_type = x3::unused_type;
  static bool const has_attribute = false;
  template <class It, class Context, class RContext, class Attribute>
  bool parse(It& first, It const& last, Context const& ctx, RContext&, Attribute&) const {
    x3::skip_over(first, last, ctx);
    if (first == last || *first != '{') return false;
    int depth = 0;
    for (It p = first; p != last; ++p) {
      char c = *p;
      if (c == '/' && last - p > 1 && p[1] == '/') {
        while (p != last && *p != '\n') ++p;
        if (p == last) return false;
      } else if (c == '/' && last - p > 1 && p[1] == '*') {
        It q = p + 2;
        while (last - q > 1 && !(q[0] == '*' && q[1] == '/')) ++q;
        if (last - q <= 1) return false;
        p = q + 1;
      } else if (c == '"') {
        for (++p; p != last && *p != '"' && *p != '\n'; ++p)
          if (*p == '\\' && last - p > 1) ++p;
        if (p == last || *p != '"') return false;
      } else if (c == '{') {
        ++depth;
      } else if (c == '}' && --depth == 0) {
        first = p + 1;
        return true;
      }
    }
    return false;
  }
};
auto const skipped_body_def = balanced_braces{} >> attr(ast::Block{});
auto const function_skim_def = linkage >> lexeme['.' >> function_kinds >> !followsym] >> -omit[attribute_word] > -param_list > identifier
                             > -param_list > *header_directive > (lit(';') | skipped_body);
auto const top_level_skim_def = version | file_directive | section | function_skim | var_decl | line_directive;
auto const module_skim_rule_def = (*top_level_skim)[set_items];

BOOST_SPIRIT_DEFINE(address_offset_or_literal, space_word, linkage_word, dotted_word, attribute_word, opcode, raw_until_semicolon,
                    raw_until_brace, loc_attribute)
BOOST_SPIRIT_DEFINE(identifier, register_name, word, qualifier, quoted, u64_literal, signed_literal, address_offset,
                    operand, symbol, int_imm, float_imm, address, vector, paren_list, generic_ref,
                    header_directive, name_operand,
                    operand_list, guard, instruction, decl_qualifier, declarator, var_decl, loc, directive,
                    prototype, label, statement, block, linkage, state_space, param, param_list, function, section)
BOOST_SPIRIT_DEFINE(file_directive, version, line_directive, top_level, module_rule)
BOOST_SPIRIT_DEFINE(skipped_body, function_skim, top_level_skim, module_skim_rule)

module_type const& module() { return module_rule; }
module_skim_type const& module_skim() { return module_skim_rule; }
skipper_type const& skipper() { return skipper_rule; }
}  // namespace ptx::grammar
