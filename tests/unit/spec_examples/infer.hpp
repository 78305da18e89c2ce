// Infers a declaration for a name a spec example uses without declaring it, from how the example's
// instructions use it (type qualifiers, operand position, brackets, state space); part of spec_examples.
#pragma once

#include "semantics/ptx/ast.hpp"

#include <map>
#include <string>
#include <vector>

namespace spec {

// Where a name occurs in one instruction.
enum class Role { Guard, PredFirst, PredSecond, Plain, VectorElem, AddressBase, AddressExtra, AddressVectorElem,
                  ParenElem, SymbolOffset };

struct Use {
  const ptx::ast::Instruction* ins = nullptr;
  Role role = Role::Plain;
  std::size_t operand = 0;   // index of the instruction operand the name is in
  std::size_t elements = 1;  // number of elements of the enclosing vector, for VectorElem
};

using UseMap = std::map<std::string, std::vector<Use>>;

// Every name every instruction of the module uses, with its roles, in source order.
UseMap collect_uses(const ptx::ast::Module& module);

// A declaration to add: at module scope, in the kernel body, as a kernel parameter, or a label at the end.
struct Declaration {
  enum class Where { Module, Body, Param, Label } where = Where::Body;
  std::string text;  // a full line (`.reg .b32 x;`), a parameter (`.param .u64 x`) or a label (`L:`)
};

// The declaration of `name` inferred from its uses (an undeclared name without uses gets a .b32 register).
Declaration infer_declaration(const std::string& name, const std::vector<Use>& uses);

}  // namespace spec
