// Calls for the symbolic race engine: the kernel rebuilt with the body of every called function spliced in at
// its call (registers and local variables renamed per call; `.param` arguments and results stay the call site's
// variables, which private.hpp turns into registers), indirect calls as a branch over their possible targets, and
// calls of functions without a body kept as they are: unsupported, or (by option) pure.
#pragma once

#include "semantics/ir/ir.hpp"

#include <map>
#include <string>
#include <vector>

namespace ptxcheck::race {

struct InlineOptions {
  bool assume_pure_externs = false;  // a bodiless function returns fresh values, writes nothing, has no barrier
  unsigned max_depth = 8;            // nested calls deeper than this stay unsupported
  std::size_t max_instructions = 50000;  // the inlined kernel's size cap
};

struct Inlined {
  ptx::ir::Function function;                       // the kernel with calls spliced in
  std::map<std::uint32_t, std::string> unsupported;  // call instruction left in `function` -> why not modelled
  std::vector<std::string> notes;                   // the assumptions the inlining made (for the report)
};

Inlined inline_calls(const ptx::ir::Module& m, const ptx::ir::Function& kernel, const InlineOptions& o);

// The driver's system calls (PTX interoperability guide, chapter 3) whose only effect is output: vprintf and
// __assertfail read their arguments and write no memory the kernel can observe.
bool output_only_system_call(const std::string& name);

}  // namespace ptxcheck::race
