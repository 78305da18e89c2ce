// Launch-shape spellings shared by the CLI and the corpus driver: GPUVerify's `--blockDim=64`,
// `--gridDim=[2,3]`, `{2,3}` or `2,3`, and ScoR's `2 x 33` (grid x block).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace ptxcheck::race {

inline std::optional<std::array<std::uint32_t, 3>> parse_dim(std::string s) {
  std::array<std::uint32_t, 3> d{1, 1, 1};
  std::string digits;
  int k = 0;
  for (char ch : s + ",") {
    if (ch >= '0' && ch <= '9') digits += ch;
    else if (ch == ',') {
      if (digits.empty() || k > 2) return std::nullopt;
      try { d[k++] = static_cast<std::uint32_t>(std::stoul(digits)); } catch (...) { return std::nullopt; }
      digits.clear();
    } else if (ch != '[' && ch != ']' && ch != '{' && ch != '}' && ch != ' ') return std::nullopt;
  }
  if (k == 0 || d[0] == 0 || d[1] == 0 || d[2] == 0) return std::nullopt;
  return d;
}

}  // namespace ptxcheck::race
