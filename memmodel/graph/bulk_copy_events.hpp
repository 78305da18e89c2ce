// A bulk copy completing on an mbarrier (cp.async.bulk{.tensor}...mbarrier::complete_tx::bytes, ISA 9.7.9.25.4.1,
// 9.7.9.25.5.2) as memory events of an execution graph (memmodel/models/NOTES.md, "mbarrier" and "Async proxy"):
// its reads and writes, weak and in the async proxy; after them the implicit generic-async proxy fence that
// follows its completion (9.7.9.25.2), an event as fence.proxy.async's; then the complete-tx, an RMW pair on the
// object (mm::mbarrier_events) with ".release semantics at the .cluster scope". One definition for the litmus
// builder (litmus/build/threads.cpp `run_bulk_copy`) and the race engine's recorder
// (checker/race/execution_graph_async.cpp).
// A copy with bulk_group completion (cp.async.bulk.global.shared::cta.bulk_group, ISA 9.7.9.25.4.1, completed by
// cp.async.bulk.commit_group / wait_group, 9.7.9.25.6) is an operation thread of its own, linked to its issuer by
// split-barrier edges (async_edge_from / async_edge_to, bulk_completion_events): the same events for both users.
#pragma once

#include "memmodel/graph/mbarrier_events.hpp"

#include <array>

namespace ptxcheck::mm {

// 9.7.9.25.2: "The cp{.reduce}.async.bulk operations are performed in the asynchronous proxy"; 9.7.9.25.4.1: "The
// copy operation in cp.async.bulk is treated as a weak memory operation".
inline constexpr Proxy kBulkCopyProxy = Proxy::async;
inline constexpr Sem kBulkCopySem = Sem::weak;

// fence.proxy.async (9.7.13.4), and the implicit one of 9.7.9.25.2 ("The completion of a cp{.reduce}.async.bulk
// operation is followed by an implicit generic-async proxy fence"): a proxy fence (PROXYF) of the async proxy,
// by `thread`. It orders proxies, not threads: no release or acquire fence (weak), its scope the CTA, the place
// ptx.cat's proxy-fence-of looks for it (the async access's CTA).
inline BaseEvent async_proxy_fence(int thread) {
  BaseEvent f;
  f.kind = EvKind::fence;
  f.proxy_fence = true;
  f.proxy = Proxy::async;
  f.sem = Sem::weak;
  f.scope = Scope::cta;
  f.thread = thread;
  return f;
}

// The complete-tx's events: "the complete-tx operation on the mbarrier has .release semantics at the .cluster
// scope" (9.7.9.25.4.1; 9.7.9.25.5.2 for the tensor copies), an RMW pair split as an atom.release's (a relaxed
// read, a release write).
inline MbarrierEvents bulk_complete_tx_events() {
  return *mbarrier_events(ptx::ir::MbarrierOp::complete_tx,
                          ptx::ir::MemoryOrder{ptx::ir::MemorySemantics::release, ptx::ir::Scope::cluster, true});
}

// The two ends of a split-barrier edge (syncbar, mm::add_split_barrier_phase; 8.9.4 item 3's reading) by which an
// asynchronous operation is tied to its issuing thread. 8.9.1.1: asynchronous operations "are ordered after prior
// instructions in the same thread" but "are not part of the program order for that thread", so a copy's events are
// an operation thread of their own at the issuer's place: the issue is an edge from the issuer (async_edge_from) to
// the first event of the operation thread (async_edge_to), and a wait_group that completes the copy is an edge from
// the operation thread's completion (bulk_completion_events) to the waiting thread. Barrier events, at CTA scope
// (issuer and operation share the CTA), in no ACQ / REL set: they synchronize through syncbar only.
inline BaseEvent async_edge_from(int thread) {
  BaseEvent e;
  e.kind = EvKind::barrier;
  e.sem = Sem::release;
  e.scope = Scope::cta;
  e.thread = thread;
  return e;
}
inline BaseEvent async_edge_to(int thread) {
  BaseEvent e = async_edge_from(thread);
  e.sem = Sem::acquire;
  return e;
}

// The end of a bulk_group copy that cp.async.bulk.wait_group waits for (9.7.9.25.6.2: "Writing to their respective
// destination locations" and "Writes being made visible to the executing thread"), after its writes in the
// operation thread: the implicit generic-async proxy fence that follows the completion (9.7.9.25.2), then the edge
// to the wait (async_edge_from, whose other end async_edge_to is the wait's event in the waiting thread).
inline std::array<BaseEvent, 2> bulk_completion_events(int op_thread) {
  return {async_proxy_fence(op_thread), async_edge_from(op_thread)};
}

}  // namespace ptxcheck::mm
