// The IR checker's errors and warnings on a module text, for the tests of its rules.
#pragma once

#include "semantics/ir/build.hpp"

#include <string>
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

}  // namespace ptx::ir::testing
