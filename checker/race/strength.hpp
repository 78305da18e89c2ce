// ISA 8.4 operation types and 8.5 scopes as both race engines (symbolic and dynamic) read them from an instruction:
// whether a memory operation is strong, the scope it specifies, and which threads that scope includes.
#pragma once

#include "semantics/ir/ir.hpp"

#include <optional>

namespace ptxcheck::race {

struct Strength {
  bool strong = false;
  ptx::ir::Scope scope = ptx::ir::Scope::sys;  // meaningful when strong
};

// ISA 8.4: atom/red and .relaxed/.acquire/.release/.acq_rel/.volatile/.mmio operations are strong. A scope
// left out means .gpu for atom/red (ISA 9.7.13.5) and .sys for volatile (8.4.2: relaxed at system scope).
inline Strength strength_of(const ptx::ir::Instruction& in, bool atomic) {
  using MS = ptx::ir::MemorySemantics;
  auto sem = in.q.semantics;
  Strength s;
  s.strong = atomic || (sem && *sem != MS::weak);
  s.scope = in.q.scope.value_or(sem == MS::volatile_ ? ptx::ir::Scope::sys : atomic ? ptx::ir::Scope::gpu : ptx::ir::Scope::sys);
  return s;
}

// ISA 8.5: whether `scope`, specified by one thread, includes another thread. Without cluster dimensions at
// launch every CTA is a cluster of its own (ISA 2.2.2: an implicit 1x1x1 cluster), so .cluster is .cta here;
// there is one device, so .gpu and .sys include every thread of the launch.
template <class Bool> Bool scope_includes(ptx::ir::Scope scope, Bool same_cta, Bool always) {
  return scope == ptx::ir::Scope::cta || scope == ptx::ir::Scope::cluster ? same_cta : always;
}

// ISA 8.4: acquire and release operations, and the memory fences that act as both (membar, fence.sc, fence.acq_rel).
inline bool acquires(ptx::ir::MemorySemantics s) {
  using MS = ptx::ir::MemorySemantics;
  return s == MS::acquire || s == MS::acq_rel || s == MS::sc;
}
inline bool releases(ptx::ir::MemorySemantics s) {
  using MS = ptx::ir::MemorySemantics;
  return s == MS::release || s == MS::acq_rel || s == MS::sc;
}

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
// A memory fence's semantics and scope (ISA 9.7.13.4): membar.{cta,gl,sys} is fence.sc.{cta,gpu,sys}; a fence
// without .sem is fence.acq_rel. Proxy fences (fence.proxy.*, which order proxies, not threads) are not memory
// fences (8.4); nullopt for them and for every other instruction.
inline std::optional<Fence> memory_fence(const ptx::ir::Instruction& in) {
  using ptx::ir::Opcode;
  if (in.op != Opcode::fence_ && in.op != Opcode::membar_) return std::nullopt;
  if (in.q.has(ptx::ir::Flag::proxy)) return std::nullopt;
  const bool membar = in.op == Opcode::membar_;
  Fence f;
  f.sem = membar ? ptx::ir::MemorySemantics::sc : in.q.semantics.value_or(ptx::ir::MemorySemantics::acq_rel);
  f.scope = in.q.scope.value_or(ptx::ir::Scope::sys);
  if (membar && in.q.has(ptx::ir::Flag::gl)) f.scope = ptx::ir::Scope::gpu;
  return f;
}

}  // namespace ptxcheck::race
