// The `.test` command: `permit (C) as NAME;`, `assert (C) as NAME;` or `check (C) as NAME;` with C over
// registers and integers: `||` below `&&` below `not` / comparison (grammar.lark `condition`).
#include "litmus/parse/nvtest_detail.hpp"

namespace ptxcheck::litmus::nvtest {

bool Parser::command() {
  command_pos_ = peek().pos;
  command_ = toks_[k_++].text;
  if (!expect("(", "`(`")) return false;
  CondPtr c;
  if (!disj(c)) return false;
  std::string name;
  if (!expect(")", "`)`") || !expect("as", "`as NAME`") || !expect_ident(name, "the command's name") || !expect(";", "`;`"))
    return false;
  cond_ = c;
  t_.docs.push_back(command_ + " as " + name);
  return true;
}

bool Parser::disj(CondPtr& out) {
  if (!conj(out)) return false;
  while (at("||")) {
    ++k_;
    CondPtr b;
    if (!conj(b)) return false;
    out = std::make_shared<Cond>(Cond{Cond::or_, out, b, {}, {}});
  }
  return true;
}

bool Parser::conj(CondPtr& out) {
  if (!unary(out)) return false;
  while (at("&&")) {
    ++k_;
    CondPtr b;
    if (!unary(b)) return false;
    out = std::make_shared<Cond>(Cond{Cond::and_, out, b, {}, {}});
  }
  return true;
}

// `not` negates what follows it up to the next `&&` / `||` (a comparison, a parenthesised condition or another
// `not`); parentheses inside a condition are an extension (the grammar has them only around the whole).
bool Parser::unary(CondPtr& out) {
  if (at("not")) {
    ++k_;
    CondPtr a;
    if (!unary(a)) return false;
    out = std::make_shared<Cond>(Cond{Cond::not_, a, {}, {}, {}});
    return true;
  }
  if (at("(")) {
    ++k_;
    return disj(out) && expect(")", "`)`");
  }
  Cond c;
  if (!term(c.lhs)) return false;
  if (at("==")) c.kind = Cond::eq;
  else if (at("!=")) c.kind = Cond::ne;
  else return error(peek().pos, "expected `==` or `!=` here");
  ++k_;
  if (!term(c.rhs)) return false;
  out = std::make_shared<Cond>(c);
  return true;
}

// A register some thread writes (its thread is the one the AST names), or an integer.
bool Parser::term(Term& out) {
  const Token& tk = peek();
  out = Term{};
  out.offset = where(tk.pos);
  if (tk.kind == Token::number) {
    out.kind = Term::imm;
    out.value = std::stoll(tk.text);
    ++k_;
    return true;
  }
  if (tk.kind == Token::ident) {
    auto it = reg_def_.find(tk.text);
    if (it == reg_def_.end()) return error(tk.pos, "'" + tk.text + "' is no register any thread writes");
    out.kind = Term::reg;
    out.thread = it->second.first;
    out.name = tk.text;
    ++k_;
    return true;
  }
  return error(tk.pos, "expected a register or an integer here");
}

}  // namespace ptxcheck::litmus::nvtest
