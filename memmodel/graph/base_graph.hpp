// The base sets and static relations of an execution graph (memmodel/models/NOTES.md, "Base vocabulary") built
// from its events: one definition for every producer of graphs, the litmus engine's candidates
// (litmus/enumerate/graph_builder.cpp) and the dynamic race engine's recorded runs (checker/race/execution_graph).
#pragma once

#include "memmodel/graph/execution.hpp"
#include "semantics/ir/ir.hpp"
#include "semantics/ir/scope.hpp"

#include <optional>
#include <utility>
#include <vector>

namespace ptxcheck::mm {

enum class EvKind { read, write, fence, barrier };
enum class Sem { weak, relaxed, acquire, release, acq_rel, sc, volatile_ };
enum class Scope { none, cta, cluster, gpu, sys };
// async: cp{.reduce}.async.bulk and the other operations ISA 9.7.9.25.2 puts in the asynchronous proxy.
enum class Proxy { generic, surface, texture, constant, async };

// An instruction's ISA 8.4 semantics and 8.5 scope as the graph tags them: .mmio is relaxed at system scope like
// .volatile (8.4.2, 9.7.9.8).
Sem sem_of(ptx::ir::MemorySemantics s);
Scope scope_of(ptx::ir::Scope s);

// The read and the write of an atom / red of semantics `s` (ISA 8.4: an acq_rel atomic's read acquires and its
// write releases; an acquire one's write and a release one's read are relaxed). nullopt: no atomic has `s`.
struct RmwSems {
  Sem read = Sem::relaxed, write = Sem::relaxed;
};
std::optional<RmwSems> rmw_sems(Sem s);

// A CTA barrier's arrival (ISA 9.7.13.1): every form makes the thread's prior accesses performed for the
// participants when the barrier completes; bar.sync / bar.red also hold its later ones back until then, bar.arrive
// does not wait. At CTA scope.
inline Sem barrier_sem(bool arrive) { return arrive ? Sem::release : Sem::acq_rel; }

// Where a thread runs, for scopes (ISA 8.5): cluster -1 when the test names none (.cluster is then the CTA, an
// implicit cluster of one CTA, ISA 2.2.2). A CTA is (gpu, cluster, cta): with a cluster named, `cta` is the CTA's
// identifier within its cluster (2.2.2: "Each CTA in a cluster has a unique CTA identifier within its cluster").
struct ThreadPlace {
  int cta = 0, cluster = -1, gpu = 0;
};
// Where `b` runs seen from `a`, for ir::scope_includes (semantics/ir/scope.hpp).
ptx::ir::Nearness nearness(const ThreadPlace& a, const ThreadPlace& b);
// Whether scope `s`, specified by thread `a`, includes thread `b` (ISA 8.5, ir::scope_includes); never for a weak
// access (Scope::none) nor for -1, the initial writes' "thread".
bool scope_includes(Scope s, const std::vector<ThreadPlace>& threads, int a, int b);

struct BaseEvent {
  EvKind kind = EvKind::read;
  Sem sem = Sem::weak;
  Scope scope = Scope::none;  // none: a weak access
  Proxy proxy = Proxy::generic;
  int thread = -1;            // index into the threads; -1: an initial write
  int loc = -1, va = -1;      // a memory event's physical location and virtual address
  bool rmw = false;           // the read or write of an atom / red (ISA 9.7.13.5-6)
  bool red = false;           // the read of a red: 8.8 forms no acquire pattern with it
  bool alias_fence = false;   // fence.proxy.alias
  bool proxy_fence = false;   // any fence.proxy.*
};

// The graph of these events (event i of the list is event i of the graph; a thread's events in program order by
// index): every base set, and the relations po, int, ext, id, loc, vloc, po-loc, incl (the event's scope includes
// the other's thread), sr (both ways), scta, and rmw from `rmw_pairs` (read, write). addr, data, ctrl, rf, co,
// syncbar and sync_fence are empty, for the caller to fill.
Execution base_execution(const std::vector<BaseEvent>& events, const std::vector<ThreadPlace>& threads,
                         const std::vector<std::pair<int, int>>& rmw_pairs);

// ISA 8.9.4 item 2: in one phase of a barrier, each arrival synchronizes with the arrivals that wait (bar.sync,
// bar.red; not bar.arrive), `waits(event)`.
template <class Waits> void add_barrier_phase(Rel& syncbar, const std::vector<int>& phase, const Waits& waits) {
  for (int a : phase)
    for (int b : phase)
      if (a != b && waits(b)) syncbar.add(a, b);
}

// ISA 8.9.4 item 3: in one phase of a split barrier (barrier.cluster, 9.7.13.3), each arrival that releases
// synchronizes with each wait; an arrival is no wait, and what a thread does between its arrive and its wait is
// ordered by neither ("There is no memory ordering and visibility guarantee for memory accesses requested by the
// executing thread, in program order, after barrier.cluster.arrive and prior to barrier.cluster.wait").
inline void add_split_barrier_phase(Rel& syncbar, const std::vector<int>& arrivals, const std::vector<int>& waits) {
  for (int a : arrivals)
    for (int b : waits) syncbar.add(a, b);
}

// ISA 8.9.3: Fence-SC order is a total order of the fence.sc operations; it relates (sync_fence) the pairs that
// are morally strong, those each in the other's scope (sr). `order`: the fence.sc events, first to last.
Rel fence_sc_order(const std::vector<int>& order, const Rel& sr);

}  // namespace ptxcheck::mm
