// Boost.Fusion adaptation of the PTX AST, so that X3 sequences fill the structs member by member.
#pragma once
#include "semantics/ptx/ast.hpp"
#include <boost/fusion/include/adapt_struct.hpp>

BOOST_FUSION_ADAPT_STRUCT(ptx::ast::Symbol, negated, name)
BOOST_FUSION_ADAPT_STRUCT(ptx::ast::IntImm, negative, magnitude)
BOOST_FUSION_ADAPT_STRUCT(ptx::ast::FloatImm, is_f32, bits)
BOOST_FUSION_ADAPT_STRUCT(ptx::ast::Address, base, offset, extra)
BOOST_FUSION_ADAPT_STRUCT(ptx::ast::PredPair, first, second)
BOOST_FUSION_ADAPT_STRUCT(ptx::ast::SymbolOffset, generic, name, offset)
BOOST_FUSION_ADAPT_STRUCT(ptx::ast::Guard, negated, predicate)
BOOST_FUSION_ADAPT_STRUCT(ptx::ast::Instruction, guard, opcode, qualifiers, operands)
BOOST_FUSION_ADAPT_STRUCT(ptx::ast::DeclQualifier, word, value)
BOOST_FUSION_ADAPT_STRUCT(ptx::ast::Declarator, name, range, dims, init)
BOOST_FUSION_ADAPT_STRUCT(ptx::ast::VarDecl, linkage, space, qualifiers, names)
BOOST_FUSION_ADAPT_STRUCT(ptx::ast::Loc, file, line, column, attributes)
BOOST_FUSION_ADAPT_STRUCT(ptx::ast::Directive, name, arguments, strings)
BOOST_FUSION_ADAPT_STRUCT(ptx::ast::Param, space, qualifiers, declarator)
BOOST_FUSION_ADAPT_STRUCT(ptx::ast::Function, linkage, kind, returns, name, params, directives, body)
BOOST_FUSION_ADAPT_STRUCT(ptx::ast::Section, name, contents)
BOOST_FUSION_ADAPT_STRUCT(ptx::ast::FileDirective, index, path, extra)
BOOST_FUSION_ADAPT_STRUCT(ptx::ast::Version, major, minor)
