// PTX abstract syntax tree: plain structs filled by the Spirit X3 grammar (grammar_def.hpp).
// The syntax is generic (opcode + qualifiers + operands); semantics/ir decides what it means.
#pragma once

#include <boost/spirit/home/x3/support/ast/position_tagged.hpp>
#include <boost/spirit/home/x3/support/ast/variant.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ptx::ast {
namespace x3 = boost::spirit::x3;

// Every node remembers where it came from; positions never take part in AST equality.
struct Tagged : x3::position_tagged {
  friend bool operator==(const Tagged&, const Tagged&) { return true; }
};

// ---- operands (ISA 4.6, 6.4) ----
struct Operand;

// A register, variable, label or function name; `%tid.x` keeps its component; `_` is the sink.
struct Symbol : Tagged {
  bool negated = false;  // `!p` in a predicate operand
  std::string name;
  // Video operands (ISA 9.7.18): the selector after the name without its dot (`%r2.b0` -> "b0", `%r1.h10`), and the
  // `-` of vmad's `{-}a` (9.7.18.1.3). Set by actions, not by the Fusion adaptation; semantics/ir checks both.
  std::string select;
  bool minus = false;
  bool operator==(const Symbol&) const = default;
};

// Integer literal (decimal, hex 0x, octal 0, binary 0b; optional U suffix), sign kept apart.
struct IntImm : Tagged {
  bool negative = false;
  std::uint64_t magnitude = 0;
  bool operator==(const IntImm&) const = default;
};

// Floating literal: 0fXXXXXXXX (f32 bits), 0dXXXXXXXXXXXXXXXX (f64 bits) or decimal (an f64, ISA 4.5.1).
struct FloatImm : Tagged {
  bool is_f32 = false;
  std::uint64_t bits = 0;
  bool operator==(const FloatImm&) const = default;
};

// `[base]`, `[base+off]`, `[imm]`, and the texture/surface form `[tex, {coords}]`.
struct Address : Tagged {
  std::string base;  // register or variable; empty for an absolute address
  std::int64_t offset = 0;
  std::vector<Operand> extra;  // operands after a comma inside the brackets
  bool operator==(const Address&) const;
};

// `{a, b, _, d}`: vector operand, or a brace initializer.
struct Vector : Tagged {
  std::vector<Operand> elements;
  bool operator==(const Vector&) const;
};

// `(a, b)`: the parameter lists of `call`.
struct ParenList : Tagged {
  std::vector<Operand> elements;
  bool operator==(const ParenList&) const;
};

// `p|q`: the two predicate destinations of setp/set.
struct PredPair : Tagged {
  std::string first;
  std::string second;
  bool operator==(const PredPair&) const = default;
};

// `generic(var)` or `var+off` in an initializer (ISA 5.4.4).
struct SymbolOffset : Tagged {
  bool generic = false;
  std::string name;
  std::int64_t offset = 0;
  bool operator==(const SymbolOffset&) const = default;
};

struct Operand : Tagged,
                 x3::variant<Symbol, IntImm, FloatImm, x3::forward_ast<Address>, x3::forward_ast<Vector>,
                             x3::forward_ast<ParenList>, PredPair, SymbolOffset> {
  using base_type::base_type;
  using base_type::operator=;
  bool operator==(const Operand& other) const;
};

// ---- instructions and statements (ISA 4.2, 9.1) ----
struct Guard : Tagged {
  bool negated = false;
  std::string predicate;
  bool operator==(const Guard&) const = default;
};

struct Instruction : Tagged {
  std::optional<Guard> guard;
  std::string opcode;
  std::vector<std::string> qualifiers;  // in source order, without the leading dot (`L2::evict_last`)
  std::vector<Operand> operands;
  bool operator==(const Instruction&) const = default;
};

// `.align 8` / `.v4` / `.u32` / `.ptr` ...: one dotted word of a declaration, with its number if any.
struct DeclQualifier : Tagged {
  std::string word;
  std::optional<std::uint64_t> value;
  bool operator==(const DeclQualifier&) const = default;
};

struct Declarator : Tagged {
  std::string name;
  std::optional<std::uint32_t> range;                   // `%r<10>` declares %r0..%r9
  std::vector<std::optional<std::uint64_t>> dims;       // `[4][]`
  std::optional<Operand> init;                          // `= 5`, `= {1, 2}`
  bool operator==(const Declarator&) const = default;
};

// A state-space declaration (ISA 5.1, 5.4): `.reg .b32 %r<5>;`, `.shared .align 4 .b8 buf[64];`
struct VarDecl : Tagged {
  std::vector<std::string> linkage;  // extern / visible / weak / common
  std::string space;                 // reg, sreg, const, global, local, param, shared, tex
  std::vector<DeclQualifier> qualifiers;
  std::vector<Declarator> names;
  bool operator==(const VarDecl&) const = default;
};

// `.loc file line col [, function_name label] [, inlined_at file line col [, function_name...]]`
struct Loc : Tagged {
  std::uint32_t file = 0, line = 0, column = 0;
  std::vector<std::string> attributes;  // raw trailing `, key value...` parts, in order
  bool operator==(const Loc&) const = default;
};

// Any other directive in a body or at module level, kept as its words and operands:
// `.pragma "nounroll";`, `.branchtargets L1, L2;`, `.callprototype (...) _ (...);`, `.maxntid 1,1,1`.
struct Directive : Tagged {
  std::string name;
  std::vector<Operand> arguments;
  std::vector<std::string> strings;  // quoted string arguments
  bool operator==(const Directive&) const = default;
};

struct Label : Tagged {
  std::string name;
  bool operator==(const Label&) const = default;
};

struct Block;
struct Statement : Tagged, x3::variant<Label, Instruction, VarDecl, Loc, Directive, x3::forward_ast<Block>> {
  using base_type::base_type;
  using base_type::operator=;
  bool operator==(const Statement& other) const;
};

struct Block : Tagged {
  std::vector<Statement> statements;
  bool operator==(const Block&) const = default;
};

// A `.param`/`.reg` entry of a function's parameter or return list.
struct Param : Tagged {
  std::string space;  // param or reg
  std::vector<DeclQualifier> qualifiers;
  Declarator declarator;
  bool operator==(const Param&) const = default;
};

// ISA 11.1: `.entry`/`.func` with optional return params, params, performance directives, body.
struct Function : Tagged {
  std::vector<std::string> linkage;  // extern / visible / weak
  std::string kind;                  // entry or func
  std::optional<std::vector<Param>> returns;
  std::string name;
  std::vector<Param> params;
  std::vector<Directive> directives;  // .maxntid, .reqntid, .noreturn, .pragma ...
  std::optional<Block> body;          // none for a prototype
  bool operator==(const Function&) const = default;
};

// `.section name { raw }` (DWARF data emitted by nvcc -G); the contents are kept as written.
struct Section : Tagged {
  std::string name;
  std::string contents;
  bool operator==(const Section&) const = default;
};

// `.file N "name" [, timestamp, size]`
struct FileDirective : Tagged {
  std::uint32_t index = 0;
  std::string path;
  std::vector<std::uint64_t> extra;
  bool operator==(const FileDirective&) const = default;
};

struct Version : Tagged {
  std::uint32_t major = 0, minor = 0;
  bool operator==(const Version&) const = default;
};

struct TopLevel : Tagged, x3::variant<Version, Function, VarDecl, FileDirective, Section, Directive> {
  using base_type::base_type;
  using base_type::operator=;
  bool operator==(const TopLevel& other) const;
};

struct Module : Tagged {
  std::vector<TopLevel> items;
  bool operator==(const Module&) const = default;
};

}  // namespace ptx::ast
