// The `.test` grammar (NVlabs/mixedproxy src/grammar.lark, read as the facts of the format), by recursive
// descent over a small token list: address declarations, thread blocks `dD.bB.tT { ... }`, one command. The
// result is the litmus AST; what the AST cannot say is an error at its location. docs/litmus-nvtest.md.
#include "litmus/parse/nvtest_detail.hpp"

#include <cctype>
#include <map>
#include <set>

namespace ptxcheck::litmus::nvtest {
namespace {
// `d0` / `b12` / `t3`: the letter, then the number (-1 when `s` is not of that shape).
int level_index(const std::string& s, char letter) {
  if (s.size() < 2 || s[0] != letter || s.size() > 7 || s.find_first_not_of("0123456789", 1) != std::string::npos) return -1;
  return std::stoi(s.substr(1));
}
}  // namespace

bool Parser::lex() {
  const std::string& s = e_.text;
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) { ++i; continue; }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {  // `//` comment to the end of the line
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    Token t;
    t.pos = i;
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      t.kind = Token::ident;
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) t.text += s[i++];
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      t.kind = Token::number;
      while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) t.text += s[i++];
      if (t.text.size() > 18) return error(t.pos, "integer out of range");
    } else if (i + 1 < s.size() && (s.compare(i, 2, "==") == 0 || s.compare(i, 2, "!=") == 0 || s.compare(i, 2, "&&") == 0 ||
                                    s.compare(i, 2, "||") == 0)) {
      t.kind = Token::punct;
      t.text = s.substr(i, 2);
      i += 2;
    } else if (std::string(".,;[]{}()").find(c) != std::string::npos) {
      t.kind = Token::punct;
      t.text = std::string(1, c);
      ++i;
    } else if (c == '$') {
      return error(i, "template parameter outside a template (the file has no `$$` line)");
    } else {
      return error(i, std::string("unexpected character '") + c + "'");
    }
    toks_.push_back(std::move(t));
  }
  Token end;
  end.pos = s.size();
  toks_.push_back(end);
  return true;
}

// `.global x;`, `.global y physically aliases x;`, `.texref t virtually aliases x;` (also .surfref, .conref).
bool Parser::address_decl() {
  ++k_;  // the `.`
  const std::size_t pos = peek().pos;
  std::string space, name, target;
  if (!expect_ident(space, "`global`, `texref`, `surfref` or `conref`")) return false;
  if (space == "shared") return error(pos, "unsupported: `.shared` (the litmus AST has no state spaces; declare `.global`)");
  static const std::map<std::string, std::string> proxy_of = {{"texref", "texture"}, {"surfref", "surface"}, {"conref", "constant"}};
  if (space != "global" && !proxy_of.count(space)) return error(pos, "expected `global`, `texref`, `surfref` or `conref` here");
  const std::size_t name_pos = peek().pos;
  if (!expect_ident(name, "an address name")) return false;
  if (declared_.count(name)) return error(name_pos, "address '" + name + "' is declared twice");
  const bool plain = space == "global";
  if (plain && at(";")) {
    ++k_;
    declared_[name] = name_pos;
    t_.mem_init[name] = 0;
    t_.mem_order.push_back(name);
    return true;
  }
  const std::string kind = plain ? "physically" : "virtually";
  if (!at(kind.c_str())) return error(peek().pos, "expected `" + kind + " aliases NAME` here");
  ++k_;
  if (!expect("aliases", "`aliases`")) return false;
  const std::size_t target_pos = peek().pos;
  if (!expect_ident(target, "the aliased address")) return false;
  if (!declared_.count(target)) return error(target_pos, "address '" + target + "' is not declared before this alias");
  if (!expect(";", "`;`")) return false;
  declared_[name] = name_pos;
  // A physical alias is another virtual address of the same memory (the AST's generic alias); a texref /
  // surfref / conref is the target's own virtual address, named for another proxy (ISA 9.0 8.6).
  t_.aliases.push_back(Alias{name, plain ? "generic" : proxy_of.at(space), target, where(name_pos)});
  return true;
}

// `dD.bB.tT { instruction+ }`: device = GPU, block = CTA (ISA 9.0 8.5 scopes); a second block with the same
// name continues that thread, as the format's tool does.
bool Parser::thread_block() {
  const std::size_t pos = peek().pos;
  std::string d, b, th;
  if (!expect_ident(d, "a thread `dD.bB.tT`") || !expect(".", "`.`") || !expect_ident(b, "a block `bB`") ||
      !expect(".", "`.`") || !expect_ident(th, "a thread `tT`"))
    return false;
  const int di = level_index(d, 'd'), bi = level_index(b, 'b'), ti = level_index(th, 't');
  if (di < 0 || bi < 0 || ti < 0) return error(pos, "expected a thread name `dD.bB.tT` (device, block, thread) here");
  const std::string key = d + "." + b + "." + th;
  int id = -1;
  for (std::size_t i = 0; i < cols_.size(); ++i)
    if (cols_[i].key == key) id = static_cast<int>(i);
  if (id < 0) {
    id = static_cast<int>(cols_.size());
    cols_.push_back(Column{key, {}});
    ThreadDecl decl;
    decl.id = id;
    decl.place = {{"gpu", di}, {"cta", bi}};
    decl.offset = where(pos);
    t_.threads.push_back(decl);
  }
  if (!expect("{", "`{`")) return false;
  if (at("}")) return error(peek().pos, "expected an instruction here (a thread has at least one)");
  while (!at("}")) {
    if (peek().kind == Token::end) return error(peek().pos, "expected `}` here");
    if (!instruction(id, cols_[static_cast<std::size_t>(id)])) return false;
  }
  ++k_;
  return true;
}

bool Parser::instruction(int thread, Column& col) {
  const std::size_t pos = peek().pos;
  std::vector<std::string> words(1);
  if (!expect_ident(words[0], "an instruction")) return false;
  while (at(".")) {
    ++k_;
    words.emplace_back();
    if (!expect_ident(words.back(), "a qualifier")) return false;
  }
  const std::string& op = words[0];
  if (op == "fence") return fence(col, words, pos);
  if (op == "suatom" || op == "sured")
    return error(pos, "unsupported: '" + op + "' (surface-proxy atomics: the litmus engines know generic atom/red only)");
  static const std::set<std::string> ops = {"ld", "tld", "suld", "ldc", "st", "sust", "atom", "red"};
  if (!ops.count(op)) return error(pos, "unknown instruction '" + op + "' (the format has ld, tld, suld, ldc, st, sust, atom, red, fence)");
  return access(thread, col, words, pos);
}

std::optional<Test> Parser::run() {
  if (!lex()) return std::nullopt;
  while (at("."))
    if (!address_decl()) return std::nullopt;
  auto at_thread = [&] { return peek().kind == Token::ident && level_index(peek().text, 'd') >= 0; };
  if (!at_thread()) {
    error(peek().pos, "expected a thread `dD.bB.tT { ... }` here");
    return std::nullopt;
  }
  while (at_thread())
    if (!thread_block()) return std::nullopt;
  if (!at("permit") && !at("assert") && !at("check")) {
    error(peek().pos, "expected a command `permit (...) as NAME;` or `assert (...) as NAME;` here (a test without one has no verdict)");
    return std::nullopt;
  }
  if (!command()) return std::nullopt;
  if (at("permit") || at("assert") || at("check")) {
    error(peek().pos, "unsupported: a second command (the litmus AST holds one condition per test; write one file per command)");
    return std::nullopt;
  }
  if (peek().kind != Token::end) {
    error(peek().pos, "expected the end of the test here");
    return std::nullopt;
  }
  return finish();
}

// Thread columns become rows; the command and the load-value constraints become one condition. The format's
// tool runs `permit (C)` / `check (C)` as "some execution satisfies the constraints and C" and `assert (C)` as
// "every execution satisfying the constraints satisfies C" (src/alloy_emitter.py `command`): here
// `exists (K /\ C)` and `forall (~K \/ C)` over the final registers, K the constraints' conjunction.
Test Parser::finish() {
  std::size_t depth = 0;
  for (auto& c : cols_) depth = std::max(depth, c.cells.size());
  for (std::size_t i = 0; i < depth; ++i) {
    std::vector<Cell> row;
    for (auto& c : cols_) row.push_back(i < c.cells.size() ? c.cells[i] : Cell{});
    t_.rows.push_back(std::move(row));
  }
  const bool assert_ = command_ == "assert";
  CondPtr cond = cond_;
  for (auto it = constraints_.rbegin(); it != constraints_.rend(); ++it) {
    Cond c;
    c.kind = assert_ ? Cond::ne : Cond::eq;
    c.lhs = Term{Term::reg, it->thread, it->reg, 0, where(it->pos)};
    c.rhs = Term{Term::imm, -1, "", it->value, where(it->pos)};
    cond = std::make_shared<Cond>(Cond{assert_ ? Cond::or_ : Cond::and_, std::make_shared<Cond>(c), cond, {}, {}});
  }
  t_.cond = cond;
  t_.quantifier = assert_ ? Quantifier::forall : Quantifier::exists;
  return std::move(t_);
}

std::optional<Test> parse_expanded(const Expanded& e, const std::string& file_text, const std::string& file,
                                   std::vector<Diagnostic>& diags) {
  Parser p(e, file_text, file, diags);
  auto t = p.run();
  if (!t) return std::nullopt;
  t->file = file;
  t->text = file_text;
  t->arch = "PTX";
  return t;
}

}  // namespace ptxcheck::litmus::nvtest
