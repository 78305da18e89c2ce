// What an mbarrier arrive-on or wait means to the memory model, with the ISA's defaults for absent qualifiers (next
// to memory_order.hpp's access_order and fence_order; one definition for every reader of these instructions).
#pragma once

#include "semantics/ir/memory_order.hpp"

namespace ptx::ir {

// An arrive-on or a wait as a memory operation on the mbarrier object (ISA 8.8 names `mbarrier.arrive.release [M]` a
// release operation and `mbarrier.test_wait.acquire [M]` an acquire operation on M): mbarrier.arrive's `.sem` absent
// is `.release` (9.7.13.15.13), test_wait / try_wait's is `.acquire` (9.7.13.15.16); `.scope` absent is `.cta` for
// both; `.relaxed` "does not provide any memory ordering semantics" but is no weak operation. nullopt for the other
// mbarrier operations and every other instruction.
inline std::optional<MemoryOrder> mbarrier_order(const Instruction& in) {
  const MbarrierOp op = mbarrier_op(in);
  if (in.op != Opcode::mbarrier_ || (op != MbarrierOp::arrive && op != MbarrierOp::wait)) return std::nullopt;
  MemoryOrder m;
  m.strong = true;
  m.sem = in.q.semantics.value_or(op == MbarrierOp::arrive ? MemorySemantics::release : MemorySemantics::acquire);
  m.scope = in.q.scope.value_or(Scope::cta);
  return m;
}

// barrier.cluster.arrive / .wait (ISA 9.7.13.3, 8.9.4 item 3) with the defaults of 9.7.13.3: "If the optional .sem
// qualifier is absent for barrier.cluster.arrive, .release is assumed by default. If the optional .acquire qualifier
// is absent for barrier.cluster.wait, .acquire is assumed by default"; the barrier spans the cluster. What the
// semantics mean (a .relaxed arrive orders nothing before it) is memmodel/models/ptx.cat's `sync-barrier`. nullopt
// for every other instruction.
inline std::optional<MemoryOrder> cluster_barrier_order(const Instruction& in) {
  if (!is_cluster_barrier(in)) return std::nullopt;
  MemoryOrder m;
  m.strong = true;
  m.sem = in.q.semantics.value_or(in.q.has(Flag::arrive) ? MemorySemantics::release : MemorySemantics::acquire);
  m.scope = Scope::cluster;
  return m;
}

}  // namespace ptx::ir
