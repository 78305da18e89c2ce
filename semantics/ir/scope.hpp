// ISA 8.5 (Table 21): which threads a scope includes. One definition, read by the litmus graph builder (several
// GPUs, threads placed by CTA, cluster and GPU: memmodel/graph/base_graph.cpp) and by both race engines (one GPU,
// the symbolic one over Z3 booleans: checker/race/strength.hpp).
#pragma once

#include "semantics/ir/types.hpp"

#include <cstdint>

namespace ptx::ir {

// Where another thread runs, seen from the thread that specifies a scope, nearest first. A CTA lies in one cluster
// (an implicit 1x1x1 one when the launch names none, ISA 2.2.2) and a cluster on one GPU.
enum class Nearness : std::uint8_t { same_cta, same_cluster, same_gpu, other_gpu };

// The same facts in a boolean domain (bool, z3::expr), for an engine that does not know the other thread's place.
// They nest (same_cta implies same_cluster implies same_gpu); `always` is the domain's true.
template <class Bool> struct Placement {
  Bool same_cta, same_cluster, same_gpu, always;
};

// Table 21: .cta is the threads of the current thread's CTA, .cluster those of its cluster, .gpu those of the
// current program on its compute device (other grids on it included), .sys every thread of the current program,
// on every device and the host.
template <class Bool> Bool scope_includes(Scope scope, const Placement<Bool>& p) {
  if (scope == Scope::cta) return p.same_cta;
  if (scope == Scope::cluster) return p.same_cluster;
  return scope == Scope::gpu ? p.same_gpu : p.always;
}

inline Placement<bool> placement(Nearness n) {
  return Placement<bool>{n == Nearness::same_cta, n <= Nearness::same_cluster, n <= Nearness::same_gpu, true};
}
inline bool scope_includes(Scope scope, Nearness n) { return scope_includes(scope, placement(n)); }

}  // namespace ptx::ir
