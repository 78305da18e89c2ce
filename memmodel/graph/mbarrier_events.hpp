// An mbarrier operation as memory events of an execution graph (memmodel/models/NOTES.md, "mbarrier (ISA 9.7.13.15)
// as synchronisation"): the object is one location holding its state. mbarrier.init is a weak write of it
// (9.7.13.15.9); an arrive-on, expect-tx or complete-tx an atomic read-modify-write (9.7.13.15.5-.7, ISA 8.8 item 1
// names `mbarrier.arrive.release [M]` a release operation on M; expect_tx and complete_tx are relaxed, 9.7.13.15.11-
// .12, and a bulk copy's complete-tx is .release at .cluster scope, 9.7.9.25.4.1), its read and write split as an
// atom's (rmw_sems); a test_wait / try_wait a read (8.8 names `mbarrier.test_wait.acquire [M]` an acquire operation
// on M). Semantics and
// scope are ir::mbarrier_order's (semantics/ir/mbarrier_order.hpp, with the ISA's defaults). One definition for
// the litmus builder (litmus/build/threads.cpp) and the race engine's recorder (checker/race/execution_graph.cpp).
#pragma once

#include "memmodel/graph/base_graph.hpp"
#include "semantics/ir/mbarrier_order.hpp"

#include <optional>

namespace ptxcheck::mm {

struct MbarrierEvents {
  std::optional<Sem> read, write;  // the operation's read and write of the object, in that order; absent: none
  Scope scope = Scope::none;       // none: weak (the init)
};

// The events of mbarrier operation `op` of memory order `order` (ir::mbarrier_order for arrive and wait; the
// caller's for expect_tx and complete_tx, which it has none for; unused for an init). nullopt: an operation with no
// such reading (inval, pending_count, cp.async.mbarrier.arrive), or semantics no atomic has.
inline std::optional<MbarrierEvents> mbarrier_events(ptx::ir::MbarrierOp op, const ptx::ir::MemoryOrder& order) {
  using ptx::ir::MbarrierOp;
  MbarrierEvents e;
  if (op == MbarrierOp::init) {
    e.write = Sem::weak;
    return e;
  }
  if (op != MbarrierOp::arrive && op != MbarrierOp::wait && op != MbarrierOp::expect_tx && op != MbarrierOp::complete_tx)
    return std::nullopt;
  e.scope = scope_of(order.scope);
  if (op == MbarrierOp::wait) {
    e.read = sem_of(order.sem);
    return e;
  }
  const auto sems = rmw_sems(sem_of(order.sem));
  if (!sems) return std::nullopt;
  e.read = sems->read;
  e.write = sems->write;
  return e;
}

}  // namespace ptxcheck::mm
