// Internal to the chapter 1-3 check: the context the rule files report through, and the three rule families
// (declarations: 2.3 and 1.2; call sites: 2.3 against the callee; system calls: chapter 3).
#pragma once

#include "checker/abi/calling.hpp"
#include "semantics/support/diagnostic.hpp"

namespace ptxcheck::abi::calling {

struct Context {
  const ptx::ir::Module& module;
  std::string_view text;
  LineIndex lines;
  CallingReport& report;

  std::string line_text(std::uint32_t line) const { return line ? lines.line_text(text, line) : std::string(); }
  // Reports at `line`, at the column where `name` first appears on it (else its first non-blank character).
  void add(std::uint32_t line, std::string_view name, std::string rule, std::string section, std::string function,
           std::string message);
};

// `.param .align 8 .b8 name[16]`, `.reg .u16 name`: a declaration as a message quotes it.
std::string declaration(const Context& c, const ptx::ir::Variable& v);
// Whether `v` was declared with array brackets (`.b8 x[1]` is an aggregate, `.b8 x` a scalar).
bool is_array(const Context& c, const ptx::ir::Variable& v);

// 2.3 (and 1.2) on one parameter or return value `v` of `fn`; `what` names it in messages ("parameter 2").
void check_declaration(Context& c, const ptx::ir::Function& fn, const ptx::ir::Variable& v, const std::string& what);
// 2.3 on every call of `fn`'s body: .param arguments that agree with the callee's prototype.
void check_calls(Context& c, const ptx::ir::Function& fn);
// Chapter 3 on the module's vprintf, malloc, free and __assertfail prototypes.
void check_system_calls(Context& c);

}  // namespace ptxcheck::abi::calling
