// NVIDIA's mixed-proxy litmus format (`.test`, the ISCA'22 mixed-proxy PTX model's repository) read into the
// litmus AST of ast.hpp, so every engine runs it unchanged. docs/litmus-nvtest.md has the format and the mapping.
#pragma once

#include "litmus/parse/ast.hpp"
#include "semantics/support/diagnostic.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace ptxcheck::litmus {

// A `.test` file path, bare (`CoWR.test`) or naming one template instance (`CoWR.test#3`).
bool is_nvtest_path(const std::string& path);

// Template instances of a `.test` text: the rows after its `$$` line (blank lines and `#` lines skipped);
// nullopt when the text has no `$$` line (one test).
std::optional<std::size_t> nvtest_instances(const std::string& text);

// The test of `text`, or of its template row `instance` (1-based; 0 when the text is no template). Locations
// in diagnostics and in the AST are offsets of `text` itself (a substituted parameter points into its row), and
// `Test::text` is `text`. The test is named after `file`'s last path component, with `#k` for an instance.
std::optional<Test> parse_nvtest(const std::string& text, const std::string& file, std::size_t instance,
                                 std::vector<Diagnostic>& diags);

// Reads `path` (`FILE.test` or `FILE.test#k`).
std::optional<Test> load_nvtest(const std::string& path, std::vector<Diagnostic>& diags);

}  // namespace ptxcheck::litmus
