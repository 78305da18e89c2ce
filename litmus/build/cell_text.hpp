// Reading the text of a litmus cell: the words of a dotted opcode, integer literals, `[name]` operands. One copy
// for the thread builder and the mbarrier and async-proxy cells.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace ptxcheck::litmus {

// "atom.acq_rel.gpu.add" -> {"atom", "acq_rel", "gpu", "add"}.
inline std::vector<std::string> split_dots(const std::string& s) {
  std::vector<std::string> v;
  std::size_t a = 0;
  for (;;) {
    auto b = s.find('.', a);
    v.push_back(s.substr(a, b - a));
    if (b == std::string::npos) return v;
    a = b + 1;
  }
}

// A decimal integer, optionally negative.
inline bool is_integer(const std::string& s) {
  std::size_t i = !s.empty() && s[0] == '-' ? 1 : 0;
  if (i == s.size()) return false;
  for (; i < s.size(); ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

// "[x]" -> "x"; anything else unchanged.
inline std::string strip_brackets(const std::string& s) {
  return s.size() >= 2 && s.front() == '[' && s.back() == ']' ? s.substr(1, s.size() - 2) : s;
}

}  // namespace ptxcheck::litmus
