// `.test` instructions as litmus cells: loads (ld, tld, suld, ldc), stores (st, sust), atom / red (`.add`, the
// format's one operation) and fences, with their qualifiers checked as the format's tool checks them
// (src/litmus_parser.py) and a load-value constraint `== N` kept for the condition.
#include "litmus/parse/nvtest_detail.hpp"

#include <set>

namespace ptxcheck::litmus::nvtest {
namespace {
bool is_reg(const std::string& s) {
  return s.size() > 1 && s[0] == 'r' && s.size() < 12 && s.find_first_not_of("0123456789", 1) == std::string::npos;
}
const std::set<std::string> kSems = {"weak", "relaxed", "acquire", "release", "acq_rel", "sc", "volatile"};
const std::set<std::string> kScopes = {"cta", "gpu", "sys"};
}  // namespace

// `words[first..]` = {.sem}{.scope}, in that order (grammar.lark `sem scope`). `.weak` / `.volatile` take no
// scope (the tool's "illegal encoding"); a strong access needs one: the tool's model reads a missing scope as
// the thread scope, which PTX does not have (ISA 9.0 8.5), so that is unsupported here, not guessed.
bool Parser::qualifiers(const std::vector<std::string>& words, std::size_t first, bool rmw, std::size_t pos,
                        std::string& sem, std::string& scope) {
  std::size_t i = first;
  if (i < words.size() && kSems.count(words[i])) sem = words[i++];
  if (i < words.size() && kScopes.count(words[i])) scope = words[i++];
  if (i < words.size()) return error(pos, "unexpected qualifier '." + words[i] + "' (expected {.sem}{.scope} in that order)");
  if ((sem == "weak" || sem == "volatile") && !scope.empty())
    return error(pos, "illegal encoding: ." + sem + " accesses take no scope");
  if (rmw && (sem == "weak" || sem == "volatile")) return error(pos, "illegal modifier ." + sem + " on '" + words[0] + "'");
  if (rmw && sem.empty()) sem = "relaxed";  // ISA 9.0 9.7.13.5 / 9.7.13.6: without .sem, .relaxed is assumed
  const bool strong = !sem.empty() && sem != "weak" && sem != "volatile";
  if (strong && scope.empty())
    return error(pos, "unsupported: ." + sem + " without a scope (the format's model reads it as thread scope, which PTX has not)");
  return true;
}

// `[name]` of a declared address.
bool Parser::address(std::string& name) {
  if (!expect("[", "an address `[x]`")) return false;
  const std::size_t pos = peek().pos;
  if (!expect_ident(name, "an address name")) return false;
  if (!declared_.count(name)) return error(pos, "address '" + name + "' is not declared (`.global " + name + ";`)");
  return expect("]", "`]`");
}

// An integer, or a register this thread wrote before (the format's registers are test-wide names, but a
// thread cannot read another thread's register).
bool Parser::value(int thread, std::string& out) {
  const Token& tk = peek();
  if (tk.kind == Token::number) return out = toks_[k_++].text, true;
  if (tk.kind == Token::ident && is_reg(tk.text)) {
    auto it = reg_def_.find(tk.text);
    if (it == reg_def_.end() || it->second.first != thread)
      return error(tk.pos, "register '" + tk.text + "' is read before this thread writes it");
    return out = toks_[k_++].text, true;
  }
  return error(tk.pos, "expected an integer or a register here");
}

bool Parser::access(int thread, Column& col, const std::vector<std::string>& words, std::size_t pos) {
  const std::string& op = words[0];
  const bool load = op == "ld" || op == "tld" || op == "suld" || op == "ldc";
  const bool rmw = op == "atom" || op == "red";
  std::size_t first = 1;
  if (rmw) {
    if (words.size() < 2 || words[1] != "add") return error(pos, "expected '." + std::string("add") + "' after '" + op + "' (the format's one atomic operation)");
    first = 2;
  }
  std::string sem, scope;
  if (!qualifiers(words, first, rmw, pos, sem, scope)) return false;
  if ((op == "tld" || op == "ldc") && ((!sem.empty() && sem != "weak") || !scope.empty()))
    return error(pos, "'" + op + "' takes `.weak` only (grammar.lark)");
  Cell cell;
  cell.has_instr = true;
  cell.offset = cell.instr.offset = where(pos);
  // The AST's dialect: `cold` is the constant-proxy load, the atomic operation comes last (`atom.acq_rel.gpu.add`).
  std::string opcode = op == "ldc" ? "cold" : op;
  if (!sem.empty()) opcode += "." + sem;
  if (!scope.empty()) opcode += "." + scope;
  if (rmw) opcode += ".add";
  cell.instr.opcode = opcode;
  std::string reg, addr, val;
  std::size_t reg_pos = 0;
  if (load || op == "atom") {
    reg_pos = peek().pos;
    if (peek().kind != Token::ident || !is_reg(peek().text)) return error(reg_pos, "expected a register `rN` here");
    reg = toks_[k_++].text;
    if (!expect(",", "`,`")) return false;
  }
  if (!address(addr)) return false;
  if (!load) {
    if (!expect(",", "`,`") || !value(thread, val)) return false;
  }
  if (!reg.empty()) cell.instr.operands.push_back(reg);
  cell.instr.operands.push_back(addr);
  if (!val.empty()) cell.instr.operands.push_back(val);
  if (!reg.empty()) {
    if (auto it = reg_def_.find(reg); it != reg_def_.end())
      return error(reg_pos, "register '" + reg + "' is written twice (the format's registers are test-wide names)");
    reg_def_[reg] = {thread, reg_pos};
  }
  if (at("==")) {  // load-value constraint: only executions where the register reads N count
    const std::size_t cpos = peek().pos;
    ++k_;
    if (reg.empty()) return error(cpos, "a value constraint `== N` needs a register result");
    if (peek().kind != Token::number) return error(peek().pos, "expected an integer here");
    constraints_.push_back(Constraint{thread, reg, std::stoll(toks_[k_++].text), reg_pos});
  }
  if (!expect(";", "`;`")) return false;
  col.cells.push_back(std::move(cell));
  return true;
}

// `fence.sem.scope`, `fence.proxy.P` (P = surface, texture, constant, alias) and `fence.alias` (the tool's
// spelling of the alias proxy fence).
bool Parser::fence(Column& col, const std::vector<std::string>& words, std::size_t pos) {
  Cell cell;
  cell.has_instr = true;
  cell.offset = cell.instr.offset = where(pos);
  if (words.size() >= 2 && (words[1] == "proxy" || words[1] == "alias")) {
    std::string proxy = words[1] == "alias" ? "alias" : words.size() > 2 ? words[2] : "";
    const std::size_t want = words[1] == "alias" ? 2 : 3;
    if (words.size() != want || (proxy != "surface" && proxy != "texture" && proxy != "constant" && proxy != "alias"))
      return error(pos, "unsupported proxy fence (the engines know fence.proxy.{surface,texture,constant,alias}, one proxy each)");
    cell.instr.opcode = "fence.proxy." + proxy;
  } else {
    std::string sem, scope;
    std::size_t i = 1;
    if (i < words.size() && kSems.count(words[i])) sem = words[i++];
    if (i < words.size() && kScopes.count(words[i])) scope = words[i++];
    if (i < words.size()) return error(pos, "unexpected qualifier '." + words[i] + "' on fence");
    if (!sem.empty() && sem != "sc" && sem != "acq_rel") return error(pos, "illegal fence semantics '." + sem + "' (the format has .sc and .acq_rel)");
    if (scope.empty()) return error(pos, "unsupported: a fence without a scope (the format's model reads it as thread scope, which PTX has not)");
    cell.instr.opcode = "fence" + (sem.empty() ? "" : "." + sem) + "." + scope;
  }
  if (!expect(";", "`;`")) return false;
  col.cells.push_back(std::move(cell));
  return true;
}

}  // namespace ptxcheck::litmus::nvtest
