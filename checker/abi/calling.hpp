// `ptxcheck abi`, chapters 1-3 of ptx-interoperability-13.0: every `.func` prototype and `call` of a PTX module
// against the parameter passing rules (2.3, with 1.1-1.2 sizes and alignments) and the system calls of chapter 3.
#pragma once

#include "semantics/ir/ir.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ptxcheck::abi {

// One violation, at its PTX position.
struct CallingFinding {
  std::uint32_t line = 0, column = 0;  // in the PTX text (1-based)
  std::string rule;      // stable id: "small-integer", "aggregate-align", "call-arity", "syscall-prototype", ...
  std::string section;   // the guide's section: "2", "2.3", "1.2", "3"
  std::string function;  // the function whose prototype, or whose call, it is about
  std::string message;
  std::string source_line;  // the PTX line, for the caret display
};

struct CallingReport {
  std::string ptx_file;
  std::vector<CallingFinding> findings;
  std::size_t functions = 0;  // `.func` prototypes checked
  std::size_t calls = 0;      // direct calls checked against their callee
  std::size_t indirect = 0;   // indirect calls: arguments checked, the `.callprototype` itself not (explicitly unsupported)
};

CallingReport check_calling_convention(const ptx::ir::Module& module, std::string_view ptx_text, const std::string& ptx_file);

nlohmann::json to_json(const CallingReport& r);
// `file:line:col: error: message [ptx-interoperability 2.3, rule]` with the PTX line and a caret, then a summary line.
std::string to_text(const CallingReport& r);

}  // namespace ptxcheck::abi
