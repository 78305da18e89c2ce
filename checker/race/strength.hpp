// ISA 8.4 operation types and 8.5 scopes as both race engines (symbolic and dynamic) read them from an instruction:
// whether a memory operation is strong, the scope it specifies, and which threads that scope includes.
#pragma once

#include "semantics/ir/ir.hpp"
#include "semantics/ir/memory_order.hpp"
#include "semantics/ir/scope.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>

namespace ptxcheck::race {

struct Strength {
  bool strong = false;
  ptx::ir::Scope scope = ptx::ir::Scope::sys;  // meaningful when strong
};

// ISA 8.4: whether a memory operation is strong and its scope, as semantics/ir/memory_order.hpp defines them.
inline Strength strength_of(const ptx::ir::Instruction& in, bool atomic) {
  const ptx::ir::MemoryOrder m = ptx::ir::access_order(in.q, atomic);
  return Strength{m.strong, m.scope};
}

// ISA 8.5: which threads a scope includes is semantics/ir/scope.hpp's. Both race engines check one launch on one
// GPU: the other thread is at most Nearness::same_gpu, and .gpu and .sys include every thread of the launch.
using ptx::ir::Nearness;
using ptx::ir::scope_includes;
// How far a scope reaches in the launch: 0 its CTA only, 1 its cluster, 2 every thread.
inline std::size_t reach(ptx::ir::Scope scope) {
  return scope_includes(scope, Nearness::same_gpu) ? 2 : scope_includes(scope, Nearness::same_cluster) ? 1 : 0;
}

// Which operations and fences release and acquire (ISA 8.8) is the model's: checker/race/model_rules.hpp.

// ISA 8.9.5: what causality order from an access x of one thread to an access y of another needs of the two
// programs. Either base causality order crosses the threads through synchronization (8.9.4: it leaves x's thread at
// or after x and enters y's at or before y), or x is a strong write that a strong read observes (8.9.2) and the read
// precedes y in base causality order (causality order item 2): a strong read of x's location by y's thread before y
// (a read observes writes of its own location only), or a third thread's read and a synchronization entering y's
// thread at or before y. Where this is false, no execution orders
// x before y (bounded theorem model.race_needs_an_ordering in proofs/).
struct OrderingContext {
  bool sync_at_or_after_x = false;     // a fence, release/acquire operation or partial barrier
  bool x_strong_write = false;
  bool sync_at_or_before_y = false;
  bool strong_read_before_y = false;   // a strong ld, or an atom/red (which reads), that may access x's location
};
inline bool may_order(const OrderingContext& o) {
  return (o.sync_at_or_after_x && o.sync_at_or_before_y) || (o.x_strong_write && (o.strong_read_before_y || o.sync_at_or_before_y));
}

struct Fence {
  ptx::ir::MemorySemantics sem = ptx::ir::MemorySemantics::acq_rel;
  ptx::ir::Scope scope = ptx::ir::Scope::sys;
};
// A memory fence's semantics and scope (semantics/ir/memory_order.hpp); nullopt for proxy fences and every other
// instruction.
inline std::optional<Fence> memory_fence(const ptx::ir::Instruction& in) {
  const auto m = ptx::ir::fence_order(in);
  if (!m) return std::nullopt;
  return Fence{m->sem, m->scope};
}

}  // namespace ptxcheck::race
