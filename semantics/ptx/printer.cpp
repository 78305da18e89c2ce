// Canonical PTX printer (see printer.hpp).
#include "semantics/ptx/printer.hpp"

#include <boost/variant/apply_visitor.hpp>
#include <fmt/format.h>

namespace ptx {
namespace {
using boost::spirit::x3::forward_ast;

std::string join(const std::vector<ast::Operand>& ops) {
  std::string out;
  for (std::size_t i = 0; i < ops.size(); ++i) out += (i ? ", " : "") + print(ops[i]);
  return out;
}
std::string offset_text(std::int64_t off) { return off == 0 ? "" : off > 0 ? fmt::format("+{}", off) : fmt::format("+{}", off); }
std::string quoted(const std::string& s) { return "\"" + s + "\""; }

std::string decl_qualifiers(const std::vector<ast::DeclQualifier>& qs) {
  std::string out;
  for (const auto& q : qs) out += " ." + q.word + (q.value ? fmt::format(" {}", *q.value) : "");
  return out;
}
std::string declarator(const ast::Declarator& d) {
  std::string out = d.name;
  if (d.range) out += fmt::format("<{}>", *d.range);
  for (const auto& dim : d.dims) out += dim ? fmt::format("[{}]", *dim) : "[]";
  if (d.init) out += " = " + print(*d.init);
  return out;
}
std::string var_decl(const ast::VarDecl& v) {
  std::string out;
  for (const auto& l : v.linkage) out += "." + l + " ";
  out += "." + v.space + decl_qualifiers(v.qualifiers) + " ";
  for (std::size_t i = 0; i < v.names.size(); ++i) out += (i ? ", " : "") + declarator(v.names[i]);
  return out + ";";
}
std::string directive(const ast::Directive& d, bool terminate) {
  std::string out = "." + d.name;
  if (d.name == "callprototype") return out + " " + (d.strings.empty() ? "" : d.strings[0]) + ";";
  if (!d.arguments.empty()) out += " " + join(d.arguments);
  for (const auto& s : d.strings) out += " " + quoted(s);
  return terminate ? out + ";" : out;
}
std::string params(const std::vector<ast::Param>& ps) {
  std::string out = "(";
  for (std::size_t i = 0; i < ps.size(); ++i)
    out += (i ? ", " : "") + ("." + ps[i].space) + decl_qualifiers(ps[i].qualifiers) + " " + declarator(ps[i].declarator);
  return out + ")";
}

void print_block(const ast::Block& b, std::string& out, int depth);

void print_statement(const ast::Statement& st, std::string& out, int depth) {
  std::string indent(static_cast<std::size_t>(depth) * 4, ' ');
  struct Visitor {
    std::string& out;
    const std::string& indent;
    int depth;
    void operator()(const ast::Label& l) const { out += l.name + ":\n"; }
    void operator()(const ast::Instruction& i) const { out += indent + print(i) + "\n"; }
    void operator()(const ast::VarDecl& v) const { out += indent + var_decl(v) + "\n"; }
    void operator()(const ast::Loc& l) const {
      out += indent + fmt::format(".loc {} {} {}", l.file, l.line, l.column);
      for (const auto& a : l.attributes) out += "," + a;
      out += "\n";
    }
    void operator()(const ast::Directive& d) const { out += indent + directive(d, true) + "\n"; }
    void operator()(const forward_ast<ast::Block>& b) const { print_block(b.get(), out, depth); }
  };
  boost::apply_visitor(Visitor{out, indent, depth}, st.get());
}

void print_block(const ast::Block& b, std::string& out, int depth) {
  std::string indent(static_cast<std::size_t>(depth > 0 ? depth - 1 : 0) * 4, ' ');
  out += indent + "{\n";
  for (const auto& st : b.statements) print_statement(st, out, depth + 1);
  out += indent + "}\n";
}

struct TopVisitor {
  std::string& out;
  void operator()(const ast::Version& v) const { out += fmt::format(".version {}.{}\n", v.major, v.minor); }
  void operator()(const ast::Directive& d) const { out += directive(d, false) + "\n"; }
  void operator()(const ast::FileDirective& f) const {
    out += fmt::format(".file {} {}", f.index, quoted(f.path));
    for (auto e : f.extra) out += fmt::format(", {}", e);
    out += "\n";
  }
  void operator()(const ast::Section& s) const { out += ".section " + s.name + " {" + s.contents + "}\n"; }
  void operator()(const ast::VarDecl& v) const { out += var_decl(v) + "\n"; }
  void operator()(const ast::Function& f) const {
    out += "\n";
    for (const auto& l : f.linkage) out += "." + l + " ";
    out += "." + f.kind + " ";
    if (f.returns) out += params(*f.returns) + " ";
    out += f.name + params(f.params);
    for (const auto& d : f.directives) out += "\n" + directive(d, false);
    if (!f.body) {
      out += ";\n";
      return;
    }
    out += "\n";
    print_block(*f.body, out, 1);
  }
};
}  // namespace

std::string print(const ast::Operand& operand) {
  struct Visitor {
    std::string operator()(const ast::Symbol& s) const {
      return (s.negated ? "!" : "") + std::string(s.minus ? "-" : "") + s.name + (s.select.empty() ? "" : "." + s.select);
    }
    std::string operator()(const ast::IntImm& n) const { return fmt::format("{}{}", n.negative ? "-" : "", n.magnitude); }
    std::string operator()(const ast::FloatImm& f) const {
      return f.is_f32 ? fmt::format("0f{:08X}", f.bits) : fmt::format("0d{:016X}", f.bits);
    }
    std::string operator()(const forward_ast<ast::Address>& a) const {
      const auto& addr = a.get();
      std::string out = "[" + (addr.base.empty() ? fmt::format("{}", addr.offset) : addr.base + offset_text(addr.offset));
      for (const auto& e : addr.extra) out += ", " + print(e);
      return out + "]";
    }
    std::string operator()(const forward_ast<ast::Vector>& v) const { return "{" + join(v.get().elements) + "}"; }
    std::string operator()(const forward_ast<ast::ParenList>& p) const { return "(" + join(p.get().elements) + ")"; }
    std::string operator()(const ast::PredPair& p) const { return p.first + "|" + p.second; }
    std::string operator()(const ast::SymbolOffset& s) const {
      return (s.generic ? "generic(" + s.name + ")" : s.name) + (s.offset ? offset_text(s.offset) : (s.generic ? "" : "+0"));
    }
  };
  return boost::apply_visitor(Visitor{}, operand.get());
}

std::string print(const ast::Instruction& i) {
  std::string out;
  if (i.guard) out += "@" + std::string(i.guard->negated ? "!" : "") + i.guard->predicate + " ";
  out += i.opcode;
  for (const auto& q : i.qualifiers) out += "." + q;
  if (!i.operands.empty()) out += " " + join(i.operands);
  return out + ";";
}

std::string print(const ast::Module& module) {
  std::string out;
  for (const auto& item : module.items) boost::apply_visitor(TopVisitor{out}, item.get());
  return out;
}

}  // namespace ptx
