// The IR checker's errors and warnings on a module text, and the module and checks the tests of its rules share.
#pragma once

#include "semantics/ir/build.hpp"

#include <doctest/doctest.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace ptx::ir::testing {

struct Diagnostics {
  std::vector<std::string> errors, warnings;
};

inline Diagnostics diagnostics_of(const std::string& text) {
  const auto r = load_ptx(text, "t.ptx");
  Diagnostics d;
  for (const auto& e : r.errors) d.errors.push_back(e.message);
  for (const auto& w : r.warnings) d.warnings.push_back(w.message);
  return d;
}

// A module of `header` and one kernel `k` that declares `declarations` and runs `body`.
inline std::string kernel_module(const std::string& header, const std::string& declarations, const std::string& body) {
  return header + ".visible .entry k()\n{\n" + declarations + body + "\n ret;\n}\n";
}

// Each instruction of `bad` is refused by `errors_of` with exactly one error, its message.
template <class ErrorsOf, class Text, class Why, std::size_t N>
void expect_one_error_each(ErrorsOf errors_of, const std::pair<Text, Why> (&bad)[N]) {
  for (const auto& [text, why] : bad) {
    const auto e = errors_of(text);
    CHECK_MESSAGE(e.size() == 1, text);
    if (!e.empty()) CHECK(e[0] == why);
  }
}

}  // namespace ptx::ir::testing
