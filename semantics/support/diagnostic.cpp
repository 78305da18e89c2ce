// Rendering of located diagnostics (see diagnostic.hpp).
#include "semantics/support/diagnostic.hpp"

#include <algorithm>
#include <cctype>

namespace ptxcheck {

std::string Diagnostic::render() const {
  std::string out = where.file;
  if (where.line) out += ":" + std::to_string(where.line) + ":" + std::to_string(where.column);
  out += ": " + severity + ": " + message;
  if (!source_line.empty()) {
    out += "\n" + source_line + "\n";
    // Keep tabs in the caret line so the caret sits under the right character.
    std::string pad;
    for (std::uint32_t i = 0; i + 1 < where.column && i < source_line.size(); ++i)
      pad += source_line[i] == '\t' ? '\t' : ' ';
    out += pad + "^";
  }
  return out;
}

LineIndex::LineIndex(std::string_view text) {
  line_starts_.push_back(0);
  for (std::size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') line_starts_.push_back(i + 1);
}

SourceLocation LineIndex::locate(std::size_t offset, const std::string& file) const {
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  std::size_t line = static_cast<std::size_t>(it - line_starts_.begin());  // 1-based
  std::size_t column = offset - line_starts_[line - 1] + 1;
  return {file, static_cast<std::uint32_t>(line), static_cast<std::uint32_t>(column)};
}

std::string LineIndex::line_text(std::string_view text, std::uint32_t line) const {
  if (line == 0 || line > line_starts_.size()) return {};
  std::size_t begin = line_starts_[line - 1];
  std::size_t end = text.find('\n', begin);
  if (end == std::string_view::npos) end = text.size();
  std::string s(text.substr(begin, end - begin));
  if (!s.empty() && s.back() == '\r') s.pop_back();
  return s;
}

std::string expected_here(const std::string& which) {
  const bool mangled = which.rfind("N5boost", 0) == 0 || which.find("spirit") != std::string::npos ||
                       (which.size() > 2 && which[0] == 'N' && std::isdigit(static_cast<unsigned char>(which[1])));
  return mangled ? "unexpected text here" : "expected " + which + " here";
}

Diagnostic make_diagnostic(std::string_view text, const std::string& file, std::size_t offset, std::string message) {
  LineIndex index(text);
  Diagnostic d;
  d.where = index.locate(std::min(offset, text.size()), file);
  d.message = std::move(message);
  d.source_line = index.line_text(text, d.where.line);
  return d;
}

}  // namespace ptxcheck
