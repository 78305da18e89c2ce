// Internals of the `.test` reader shared by its two units: template expansion (nvtest_template.cpp) and the
// recursive-descent parser (nvtest.cpp).
#pragma once

#include "litmus/parse/ast.hpp"
#include "semantics/support/diagnostic.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ptxcheck::litmus::nvtest {

// A test's text after template expansion; origin[i] is the offset in the file of text[i] (a substituted
// parameter maps into its row), origin.back() the file offset of the end.
struct Expanded {
  std::string text;
  std::vector<std::size_t> origin;
};

// Where a template's parts are: the body ends at the `$$` line, rows follow it.
struct Template {
  std::size_t body_end = 0;                                // offset of the `$$` line
  std::vector<std::pair<std::size_t, std::size_t>> rows;  // [begin, end) of each instance row
};
std::optional<Template> find_template(const std::string& text);

// The body with `$k` replaced by row `instance`'s k-th `|` cell (trimmed), or the whole text for instance 0.
std::optional<Expanded> expand(const std::string& text, const std::string& file, std::size_t instance,
                               std::vector<Diagnostic>& diags);

// Parses an expanded test into the AST; diagnostics point into `file_text` through `e.origin`.
std::optional<Test> parse_expanded(const Expanded& e, const std::string& file_text, const std::string& file,
                                   std::vector<Diagnostic>& diags);

// The recursive-descent parser over the expanded text (nvtest.cpp: tokens, declarations, threads;
// nvtest_access.cpp: instructions; nvtest_cond.cpp: the command and its condition).
struct Token {
  enum Kind { ident, number, punct, end } kind = end;
  std::string text;
  std::size_t pos = 0;  // offset in the expanded text
};

class Parser {
 public:
  Parser(const Expanded& e, const std::string& file_text, const std::string& file, std::vector<Diagnostic>& diags)
      : e_(e), ftext_(file_text), file_(file), diags_(diags) {}
  std::optional<Test> run();

 private:
  struct Column {
    std::string key;  // dD.bB.tT
    std::vector<Cell> cells;
  };
  struct Constraint {
    int thread;
    std::string reg;
    std::int64_t value;
    std::size_t pos;
  };
  const Expanded& e_;
  const std::string& ftext_;
  const std::string& file_;
  std::vector<Diagnostic>& diags_;
  std::vector<Token> toks_;
  std::size_t k_ = 0;
  Test t_;
  std::vector<Column> cols_;
  std::map<std::string, std::size_t> declared_;                   // address name -> position
  std::map<std::string, std::pair<int, std::size_t>> reg_def_;    // register -> (thread, position)
  std::vector<Constraint> constraints_;
  std::string command_;  // permit | assert | check
  std::size_t command_pos_ = 0;
  CondPtr cond_;

  // Offsets of the expanded text back to the file's.
  std::size_t where(std::size_t pos) const { return e_.origin[std::min(pos, e_.origin.size() - 1)]; }
  bool error(std::size_t pos, const std::string& msg) {
    diags_.push_back(make_diagnostic(ftext_, file_, where(pos), msg));
    return false;
  }
  const Token& peek(std::size_t ahead = 0) const { return toks_[std::min(k_ + ahead, toks_.size() - 1)]; }
  bool at(const char* p) const { return peek().kind != Token::end && peek().kind != Token::number && peek().text == p; }
  bool expect(const char* p, const char* what) {
    if (at(p)) return ++k_, true;
    return error(peek().pos, std::string("expected ") + what + " here");
  }
  bool expect_ident(std::string& out, const char* what) {
    if (peek().kind != Token::ident) return error(peek().pos, std::string("expected ") + what + " here");
    out = toks_[k_++].text;
    return true;
  }

  bool lex();
  bool address_decl();
  bool thread_block();
  bool instruction(int thread, Column& col);
  bool access(int thread, Column& col, const std::vector<std::string>& words, std::size_t pos);
  bool fence(Column& col, const std::vector<std::string>& words, std::size_t pos);
  bool qualifiers(const std::vector<std::string>& words, std::size_t first, bool rmw, std::size_t pos, std::string& sem,
                  std::string& scope);
  bool address(std::string& name);
  bool value(int thread, std::string& out);
  bool command();
  bool disj(CondPtr& out);
  bool conj(CondPtr& out);
  bool unary(CondPtr& out);
  bool term(Term& out);
  Test finish();
};

}  // namespace ptxcheck::litmus::nvtest
