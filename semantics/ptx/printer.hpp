// Canonical PTX text from the AST: one statement per line, normalised spacing and literals
// (integers in decimal, floats as 0f/0d bit patterns). parse(print(ast)) == ast for every module.
#pragma once
#include "semantics/ptx/ast.hpp"
#include <string>

namespace ptx {
std::string print(const ast::Module& module);
std::string print(const ast::Operand& operand);
std::string print(const ast::Instruction& instruction);
}  // namespace ptx
