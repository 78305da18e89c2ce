// Extracts the `Examples` blocks of a chapter 9 section from the PTX ISA text (see extract.hpp): headings give
// the section number and title, fenced blocks after an `Examples` line give the code.
#include "extract.hpp"

#include <regex>
#include <sstream>

namespace spec {
namespace {

std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t' || s[b] == '\r')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r')) --e;
  return std::string(s.substr(b, e - b));
}

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    auto nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    lines.emplace_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

// The wrap marks of the PDF-to-text conversion: U+21AA, U+21B3, U+2194.
const char* const kWrapMarks[] = {"\xE2\x86\xAA", "\xE2\x86\xB3", "\xE2\x86\x94"};

bool strip_wrap_mark(std::string& t) {
  for (const char* mark : kWrapMarks) {
    const std::string m(mark);
    if (t.rfind(m, 0) == 0) {
      t = trim(std::string_view(t).substr(m.size()));
      return true;
    }
  }
  return false;
}

std::string clean_title(std::string title) {
  std::string out;
  for (char c : title)
    if (c != '`' && c != '*') out += c;
  return trim(out);
}

}  // namespace

std::string join_wrapped_lines(const std::vector<std::string>& lines) {
  std::vector<std::string> out;
  for (const auto& raw : lines) {
    std::string t = trim(raw);
    if (strip_wrap_mark(t) && !out.empty()) {
      // A word cut by the wrap (`cache-` / `policy`, `complete_` / `tx::bytes`) is rejoined without a blank.
      std::string& prev = out.back();
      while (!prev.empty() && (prev.back() == ' ' || prev.back() == '\t')) prev.pop_back();
      const bool glue = !prev.empty() && std::string_view("_.-:").find(prev.back()) != std::string_view::npos;
      prev += (glue || t.empty() ? "" : " ") + t;
      continue;
    }
    if (!t.empty() && t.find_first_not_of('.') == std::string::npos && t.size() >= 2) continue;  // elision
    out.push_back(raw);
  }
  std::string text;
  for (const auto& l : out) text += l + "\n";
  return text;
}

std::vector<ExampleBlock> extract_examples(std::string_view spec_text, std::string_view prefix) {
  const auto lines = split_lines(spec_text);
  const std::string start_heading = std::string(prefix) + ". ";
  std::size_t i = 0;
  while (i < lines.size() && lines[i].rfind(start_heading, 0) != 0) ++i;
  std::string escaped;
  for (char c : prefix) escaped += c == '.' ? std::string("\\.") : std::string(1, c);
  const std::regex heading("^(" + escaped + "(?:\\.[0-9]+)+)\\.? +(\\S.*)$");
  std::vector<ExampleBlock> blocks;
  std::string section, title;
  for (; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    if (l.rfind("Chapter ", 0) == 0) break;
    std::smatch m;
    if (std::regex_match(l, m, heading)) {
      section = m[1];
      title = clean_title(m[2]);
      continue;
    }
    if (trim(l) != "Examples") continue;
    std::size_t j = i + 1;
    while (j < lines.size() && trim(lines[j]).empty()) ++j;
    if (j >= lines.size() || lines[j].rfind("```", 0) != 0) continue;
    std::size_t k = j + 1;
    while (k < lines.size() && lines[k].rfind("```", 0) != 0) ++k;
    ExampleBlock b;
    b.section = section;
    b.title = title;
    b.line = static_cast<unsigned>(j + 2);
    b.code = join_wrapped_lines(std::vector<std::string>(lines.begin() + j + 1, lines.begin() + k));
    blocks.push_back(std::move(b));
    i = k;
  }
  return blocks;
}

}  // namespace spec
