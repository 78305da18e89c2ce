// Located diagnostics shared by every front end (PTX, cat, litmus): `file:line:col: error: ...`
// followed by the source line and a caret, as compilers print them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ptxcheck {

struct SourceLocation {
  std::string file;
  std::uint32_t line = 0;    // 1-based; 0 = unknown
  std::uint32_t column = 0;  // 1-based
};

struct Diagnostic {
  SourceLocation where;
  std::string message;
  std::string source_line;  // the text of the line, for the caret display; may be empty
  std::string severity = "error";

  // `file:line:col: error: message` + source line + caret (no trailing newline).
  std::string render() const;
};

// Maps byte offsets of one text to line/column, and extracts lines for display.
class LineIndex {
 public:
  LineIndex() = default;
  explicit LineIndex(std::string_view text);
  SourceLocation locate(std::size_t offset, const std::string& file) const;
  std::string line_text(std::string_view text, std::uint32_t line) const;

 private:
  std::vector<std::size_t> line_starts_;
};

// The message of a parser's expectation failure, "expected WHAT here". X3 names an unnamed sub-parser by its C++
// type (a mangled name), which tells a user nothing: then the message names no token.
std::string expected_here(const std::string& which);

// Convenience: a diagnostic at `offset` of `text`.
Diagnostic make_diagnostic(std::string_view text, const std::string& file, std::size_t offset, std::string message);

}  // namespace ptxcheck
