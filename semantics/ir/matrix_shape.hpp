// A matrix shape qualifier `.mMnNkK` (mma, wmma, wgmma: ISA 9.7.14-15), read once for the IR checker's form rules and
// the interpreter.
#pragma once

#include <cstdio>
#include <optional>
#include <string>

namespace ptx::ir {

struct MatrixShape {
  unsigned m = 0, n = 0, k = 0;
};

// The shape a word names (`m16n8k16` -> 16, 8, 16), or nothing when the word is not exactly one.
inline std::optional<MatrixShape> matrix_shape(const std::string& word) {
  MatrixShape s;
  char end = 0;
  if (std::sscanf(word.c_str(), "m%un%uk%u%c", &s.m, &s.n, &s.k, &end) != 3) return std::nullopt;
  return s;
}

}  // namespace ptx::ir
