// The chapter-4 table of ptx-interoperability-13.0 ("Atomics Application Binary Interface") as data:
// for each C++ operation and memory order, the PTX instruction sequences it may compile to.
#pragma once

#include "checker/abi/source_ops.hpp"
#include "semantics/ir/types.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ptxcheck::abi {

enum class PtxClass : std::uint8_t { fence, ld, st, atom };
using ptx::ir::MemorySemantics;
using ptx::ir::Scope;

// One instruction of a mapping; its scope is the operation's scope (`<scope>` in the table).
struct Step {
  PtxClass cls;
  MemorySemantics sem;
};
using Alternative = std::vector<Step>;

struct Row {
  std::string api;                        // the table's left column, e.g. "atomic_load(memory_order_seq_cst)"
  std::vector<Alternative> alternatives;  // the first one is the "(recommended)" one
};

// The row for an operation and order; nullopt where chapter 4 has none (a load with release order, a
// store with acquire order: orders C++ does not accept for them). consume is read as acquire.
std::optional<Row> table_row(OpKind kind, Order order);

// The PTX scope `<scope>` stands for: thread and block -> cta (PTX has no thread scope, ISA 8.5),
// cluster -> cluster, device -> gpu, system -> sys.
Scope ptx_scope(ThreadScope s);

// Chapter 4 note: "The memory order parameter is monotonic, and so it is valid to strengthen any such
// parameter": true when `have` is `want` or stronger (relaxed < acquire, release < acq_rel < sc).
bool at_least(MemorySemantics have, MemorySemantics want);

// `fence.sc.gpu; ld.acquire.gpu` for an alternative at a scope.
std::string render(const Alternative& alt, Scope scope, const char* rmw_suffix);

}  // namespace ptxcheck::abi
