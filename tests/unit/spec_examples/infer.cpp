// Declaration inference for spec examples (see infer.hpp): one pass collects each name's uses from the AST,
// then a fixed order of rules picks a declaration: function, label, predicate, texture handle, variable, register.
#include "infer.hpp"

#include "semantics/ir/types.hpp"

#include <algorithm>
#include <set>

namespace spec {
namespace ast = ptx::ast;
namespace x3 = boost::spirit::x3;

namespace {

void collect_operand(const ast::Operand& op, const ast::Instruction& ins, std::size_t index, Role role,
                     std::size_t elements, UseMap& uses) {
  const auto& v = op.get();
  auto add = [&](const std::string& name, Role r, std::size_t n) {
    if (!name.empty() && name != "_") uses[name].push_back({&ins, r, index, n});
  };
  if (auto* s = boost::get<ast::Symbol>(&v)) {
    add(s->name, role, elements);
  } else if (auto* so = boost::get<ast::SymbolOffset>(&v)) {
    add(so->name, Role::SymbolOffset, 1);
  } else if (auto* pp = boost::get<ast::PredPair>(&v)) {
    add(pp->first, Role::PredFirst, 1);
    add(pp->second, Role::PredSecond, 1);
  } else if (auto* a = boost::get<x3::forward_ast<ast::Address>>(&v)) {
    add(a->get().base, Role::AddressBase, 1);
    for (const auto& e : a->get().extra) collect_operand(e, ins, index, Role::AddressExtra, 1, uses);
  } else if (auto* vec = boost::get<x3::forward_ast<ast::Vector>>(&v)) {
    const auto& el = vec->get().elements;
    const Role r = role == Role::AddressExtra ? Role::AddressVectorElem : Role::VectorElem;
    for (const auto& e : el) collect_operand(e, ins, index, r, el.size(), uses);
  } else if (auto* list = boost::get<x3::forward_ast<ast::ParenList>>(&v)) {
    for (const auto& e : list->get().elements) collect_operand(e, ins, index, Role::ParenElem, 1, uses);
  }
}

void collect_block(const ast::Block& block, UseMap& uses) {
  for (const auto& st : block.statements) {
    const auto& v = st.get();
    if (auto* ins = boost::get<ast::Instruction>(&v)) {
      if (ins->guard) uses[ins->guard->predicate].push_back({ins, Role::Guard, 0, 1});
      for (std::size_t i = 0; i < ins->operands.size(); ++i)
        collect_operand(ins->operands[i], *ins, i, Role::Plain, 1, uses);
    } else if (auto* nested = boost::get<x3::forward_ast<ast::Block>>(&v)) {
      collect_block(nested->get(), uses);
    }
  }
}

bool has_word(const ast::Instruction& ins, std::string_view w) {
  return std::find(ins.qualifiers.begin(), ins.qualifiers.end(), w) != ins.qualifiers.end();
}

std::vector<std::string> type_words(const ast::Instruction& ins) {
  std::vector<std::string> out;
  for (const auto& q : ins.qualifiers)
    if (ptx::ir::scalar_type_from_name(q)) out.push_back(q);
  return out;
}

unsigned bits_of(const std::string& word) {
  auto t = ptx::ir::scalar_type_from_name(word);
  return t ? ptx::ir::scalar_bits(*t) : 32;
}

// A register type for a type qualifier: the fundamental types as they are, other formats as .bN (N >= 8).
std::string reg_type(const std::string& word) {
  static const std::set<std::string> plain = {"pred", "b8",  "b16", "b32", "b64", "b128", "u8",  "u16", "u32",
                                              "u64",  "s8",  "s16", "s32", "s64", "f16",  "f32", "f64"};
  if (plain.count(word)) return "." + word;
  return ".b" + std::to_string(std::max(8u, bits_of(word)));
}

std::string bit_type(unsigned bits) { return ".b" + std::to_string(std::clamp(bits, 8u, 128u)); }

// The type word of operand `index` of an instruction (ISA 9.7: each instruction's operand types).
std::string operand_type(const ast::Instruction& ins, std::size_t index) {
  const auto t = type_words(ins);
  const std::string& op = ins.opcode;
  const std::size_t last = ins.operands.empty() ? 0 : ins.operands.size() - 1;
  const bool bool_op = has_word(ins, "and") || has_word(ins, "or") || has_word(ins, "xor");
  if (op == "testp" || op == "isspacep" || op == "istypep") return index == 0 ? "pred" : "u64";
  if (op == "setp") return index == 0 || (bool_op && index == last) ? "pred" : t.empty() ? "b32" : t.back();
  if (op == "set" && bool_op && index == last) return "pred";
  if (op == "selp" && index == 3) return "pred";
  if (op == "vote") return has_word(ins, "ballot") && index == 0 ? "b32" : index <= 1 ? "pred" : "b32";
  if (t.empty()) return "b32";
  if ((op == "popc" || op == "clz" || op == "bfind") && index == 0) return "u32";
  if ((op == "bfe" && index >= 2) || (op == "bfi" && index >= 3) || ((op == "shl" || op == "shr") && index == 2))
    return "u32";
  if (has_word(ins, "wide") && (index == 0 || (op == "mad" && index == 3)))
    return "b" + std::to_string(2 * bits_of(t.back()));
  if (op == "cvt" || op == "set") return index == 0 ? t.front() : t.back();
  if (op == "slct") return index == 3 ? t.back() : t.front();
  if (op == "dp4a" || op == "dp2a") return "b32";
  return t.front();
}

std::vector<std::string> state_spaces(const ast::Instruction& ins) {
  static const std::set<std::string> spaces = {"global",      "shared", "shared::cta",  "shared::cluster", "const",
                                               "local",       "param",  "param::entry", "param::func"};
  std::vector<std::string> out;
  for (const auto& q : ins.qualifiers)
    if (spaces.count(q)) out.push_back(q.substr(0, q.find(':')));
  return out;
}

std::string variable(const std::string& space, const std::string& name, Declaration::Where& where) {
  where = space == "local" ? Declaration::Where::Body : Declaration::Where::Module;
  if (space == "param") {
    where = Declaration::Where::Param;
    return ".param .u64 " + name;
  }
  return "." + space + " .align 16 .b8 " + name + "[1024];";
}

}  // namespace

UseMap collect_uses(const ast::Module& module) {
  UseMap uses;
  for (const auto& item : module.items)
    if (auto* f = boost::get<ast::Function>(&item.get()); f && f->body) collect_block(*f->body, uses);
  return uses;
}

namespace {

// `call (r), f, (a, b)`: an .extern prototype with one .b32 parameter per argument (ISA 9.7.12.5, 7.1).
std::string function_prototype(const std::string& name, const ast::Instruction& call) {
  auto list_size = [](const ast::Operand& o) -> long {
    auto* l = boost::get<x3::forward_ast<ast::ParenList>>(&o.get());
    return l ? static_cast<long>(l->get().elements.size()) : -1;
  };
  auto params = [](long n, const char* prefix) {
    std::string s = "(";
    for (long i = 0; i < n; ++i) s += (i ? ", " : "") + std::string(".param .b32 ") + prefix + std::to_string(i);
    return s + ")";
  };
  const auto& ops = call.operands;
  std::size_t callee = 0;
  while (callee < ops.size() && list_size(ops[callee]) >= 0) ++callee;
  const long rets = callee > 0 ? list_size(ops[0]) : -1;
  const long args = callee + 1 < ops.size() ? list_size(ops[callee + 1]) : -1;
  return ".extern .func " + (rets >= 0 ? params(rets, "r") + " " : std::string()) + name + " " +
         params(std::max(args, 0L), "a") + ";";
}

// Matrix fragments are .b32 registers (packed halves or bytes) unless the element type is 64-bit (ISA 9.7.14-16).
bool is_matrix(const std::string& op) {
  return op == "wmma" || op == "mma" || op == "wgmma" || op == "ldmatrix" || op == "stmatrix" || op == "tcgen05" ||
         op == "movmatrix";
}
bool is_texture(const std::string& op) { return op == "tex" || op == "tld4" || op == "txq" || op == "istypep"; }
bool is_surface(const std::string& op) { return op == "suld" || op == "sust" || op == "sured" || op == "suq"; }

// Names inside brackets: a variable of the instruction's state space when every bracketed use names the same
// single space and the name is never a plain register operand; a .u64 register otherwise.
Declaration address_declaration(const std::string& name, const std::vector<Use>& uses) {
  std::set<std::string> spaces;
  bool plain = false, unresolved = false;
  for (const auto& u : uses) {
    if (u.role != Role::AddressBase) {
      plain = true;
      continue;
    }
    const auto s = state_spaces(*u.ins);
    if (s.size() == 1) spaces.insert(s[0]);
    else unresolved = true;
  }
  Declaration d;
  if (!plain && !unresolved && spaces.size() == 1 && *spaces.begin() != "param") {
    d.text = variable(*spaces.begin(), name, d.where);
    return d;
  }
  d.text = ".reg .u64 " + name + ";";
  return d;
}

}  // namespace

Declaration infer_declaration(const std::string& name, const std::vector<Use>& uses) {
  Declaration d;
  auto reg = [&](const std::string& type) {
    d.where = Declaration::Where::Body;
    d.text = ".reg " + type + " " + name + ";";
    return d;
  };
  for (const auto& u : uses) {
    const std::string& op = u.ins->opcode;
    if (op == "call" && u.role == Role::Plain) {
      d.where = Declaration::Where::Module;
      d.text = function_prototype(name, *u.ins);
      return d;
    }
    if ((op == "bra" || op == "brx") && u.role == Role::Plain) {
      d.where = Declaration::Where::Label;
      d.text = name + ":";
      return d;
    }
  }
  for (const auto& u : uses) {
    const bool pred = u.role == Role::Guard || u.role == Role::PredSecond ||
                      (u.role == Role::PredFirst && u.ins->opcode == "setp") ||
                      (u.role == Role::Plain && operand_type(*u.ins, u.operand) == "pred");
    if (pred) return reg(".pred");
  }
  for (const auto& u : uses) {
    const std::string& op = u.ins->opcode;
    d.where = Declaration::Where::Module;
    const char* handle = u.role == Role::AddressBase && is_texture(op)   ? ".texref"
                         : u.role == Role::AddressBase && is_surface(op) ? ".surfref"
                         : u.role == Role::AddressExtra && is_texture(op) ? ".samplerref"
                                                                          : nullptr;
    if (handle) {
      d.text = std::string(".global ") + handle + " " + name + ";";
      return d;
    }
    const auto spaces = state_spaces(*u.ins);
    const bool cvta_source = op == "cvta" && u.operand == 1 && !has_word(*u.ins, "to");
    if ((u.role == Role::SymbolOffset || (cvta_source && u.role == Role::Plain)) && spaces.size() <= 1) {
      d.text = variable(spaces.empty() ? "global" : spaces[0], name, d.where);
      return d;
    }
  }
  if (std::any_of(uses.begin(), uses.end(), [](const Use& u) { return u.role == Role::AddressBase; }))
    return address_declaration(name, uses);
  for (const auto& u : uses) {
    const std::string t = operand_type(*u.ins, u.operand);
    if (u.role == Role::VectorElem && u.ins->opcode == "mov")
      return reg(bit_type(bits_of(t) / static_cast<unsigned>(u.elements)));
    if (u.role == Role::VectorElem && is_matrix(u.ins->opcode)) return reg(bits_of(t) == 64 ? ".b64" : ".b32");
    if (u.role == Role::AddressVectorElem) return reg(reg_type(type_words(*u.ins).empty() ? "b32" : type_words(*u.ins).back()));
    // the data operand of ld / ldu / st .vN written as one name: a register of the vector type (ISA 5.4.2)
    for (const char* vec : {"v2", "v4", "v8"})
      if (u.role == Role::Plain && (u.ins->opcode == "ld" || u.ins->opcode == "ldu" || u.ins->opcode == "st") && has_word(*u.ins, vec))
        return reg("." + std::string(vec) + " " + reg_type(t));
    if (u.role == Role::Plain || u.role == Role::VectorElem || u.role == Role::PredFirst) return reg(reg_type(t));
    if (u.role == Role::ParenElem) return reg(".b32");
  }
  return reg(".b32");
}

}  // namespace spec
