// See names.hpp (cuda_parameter_names): a kernel's parameter names read from its CUDA declaration, so reports can say
// `argument 2 (out)`. A light scan, not a C++ parser: comments are skipped, brackets balanced.
#include "semantics/support/names.hpp"

#include <cctype>
#include <set>

namespace ptxcheck::names {
namespace {

bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The text with comments blanked out (positions kept).
std::string without_comments(std::string_view in) {
  std::string s(in);
  for (std::size_t i = 0; i + 1 < s.size(); ++i) {
    if (s[i] == '/' && s[i + 1] == '/') {
      while (i < s.size() && s[i] != '\n') s[i++] = ' ';
    } else if (s[i] == '/' && s[i + 1] == '*') {
      const std::size_t end = s.find("*/", i + 2);
      const std::size_t stop = end == std::string::npos ? s.size() : end + 2;
      for (; i < stop; ++i) if (s[i] != '\n') s[i] = ' ';
      --i;
    }
  }
  return s;
}

// The index after the bracket group opening at `i` (`<...>`, `(...)`), or npos when it does not close.
std::size_t after_group(const std::string& s, std::size_t i, char open, char close) {
  int depth = 0;
  for (; i < s.size(); ++i) {
    depth += (s[i] == open) - (s[i] == close);
    if (depth == 0) return i + 1;
  }
  return std::string::npos;
}

std::size_t skip_space(const std::string& s, std::size_t i) {
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return i;
}

// Whether the declaration that the name at `at` belongs to says `__global__` (between the previous ';', '{' or '}'
// and the name).
bool declared_global(const std::string& s, std::size_t at) {
  const std::size_t start = s.find_last_of(";{}", at);
  const std::string_view prefix = std::string_view(s).substr(start == std::string::npos ? 0 : start, at - (start == std::string::npos ? 0 : start));
  return prefix.find("__global__") != std::string_view::npos;
}

// A parameter's name: its last identifier after a type, without a default value or array bounds; "" when unnamed.
std::string parameter_name(std::string p) {
  int depth = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    depth += (p[i] == '(' || p[i] == '<' || p[i] == '[') - (p[i] == ')' || p[i] == '>' || p[i] == ']');
    if (p[i] == '=' && depth == 0) {
      p.erase(i);
      break;
    }
  }
  while (!p.empty() && (std::isspace(static_cast<unsigned char>(p.back())) || p.back() == ']')) {
    if (p.back() == ']') p.erase(p.rfind('['));
    else p.pop_back();
  }
  std::size_t begin = p.size();
  while (begin > 0 && name_char(p[begin - 1])) --begin;
  const std::string name = p.substr(begin);
  static const std::set<std::string> not_names{"int",   "char",  "float", "double",   "long",     "short",        "unsigned",
                                               "signed", "bool", "void",  "const",    "volatile", "__restrict__", "restrict",
                                               "auto",  "size_t"};
  const bool has_type = p.find_first_not_of(" \t\n", 0) < begin;
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])) || !has_type || not_names.count(name)) return "";
  return name;
}

// The parameters of the list whose '(' is at `open` (split at top-level commas).
std::vector<std::string> parameter_names_at(const std::string& s, std::size_t open, std::size_t close) {
  std::vector<std::string> out;
  std::string current;
  int depth = 0;
  for (std::size_t i = open + 1; i < close; ++i) {
    const char c = s[i];
    depth += (c == '(' || c == '<' || c == '[' || c == '{') - (c == ')' || c == '>' || c == ']' || c == '}');
    if (c == ',' && depth == 0) {
      out.push_back(parameter_name(current));
      current.clear();
    } else {
      current += c;
    }
  }
  const std::size_t first = current.find_first_not_of(" \t\n");
  const bool empty_list = out.empty() && (first == std::string::npos || current.substr(first, current.find_last_not_of(" \t\n") + 1 - first) == "void");
  if (!empty_list) out.push_back(parameter_name(current));
  return out;
}

}  // namespace

std::vector<std::string> cuda_parameter_names(std::string_view source, std::string_view base_name, std::size_t count) {
  if (base_name.empty()) return {};
  const std::string s = without_comments(source);
  for (std::size_t at = s.find(base_name); at != std::string::npos; at = s.find(base_name, at + 1)) {
    const std::size_t end = at + base_name.size();
    if ((at > 0 && name_char(s[at - 1])) || (end < s.size() && name_char(s[end]))) continue;
    std::size_t i = skip_space(s, end);
    if (i < s.size() && s[i] == '<') i = skip_space(s, after_group(s, i, '<', '>'));  // an explicit instance's arguments
    if (i >= s.size() || s[i] != '(' || !declared_global(s, at)) continue;
    const std::size_t close_after = after_group(s, i, '(', ')');
    if (close_after == std::string::npos) continue;
    std::vector<std::string> names = parameter_names_at(s, i, close_after - 1);
    if (names.size() != count) continue;
    for (const auto& n : names)
      if (!n.empty()) return names;
  }
  return {};
}

}  // namespace ptxcheck::names
