// A bulk copy completing on an mbarrier (cp.async.bulk{.tensor}...mbarrier::complete_tx::bytes, ISA 9.7.9.25.4.1,
// 9.7.9.25.5.2) as memory events of an execution graph (memmodel/models/NOTES.md, "mbarrier" and "Async proxy"):
// its reads and writes, weak and in the async proxy; after them the implicit generic-async proxy fence that
// follows its completion (9.7.9.25.2), an event as fence.proxy.async's; then the complete-tx, an RMW pair on the
// object (mm::mbarrier_events) with ".release semantics at the .cluster scope". One definition for the litmus
// builder (litmus/build/threads.cpp `run_bulk_copy`) and the race engine's recorder
// (checker/race/execution_graph_async.cpp).
#pragma once

#include "memmodel/graph/mbarrier_events.hpp"

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

}  // namespace ptxcheck::mm
