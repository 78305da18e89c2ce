// ISA 8.4 operation types and 8.5 scopes as both race engines (symbolic and dynamic) read them from an instruction:
// whether a memory operation is strong, the scope it specifies, and which threads that scope includes.
#pragma once

#include "semantics/ir/ir.hpp"

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

}  // namespace ptxcheck::race
