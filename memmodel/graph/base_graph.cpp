// Base sets and static relations of an execution graph (base_graph.hpp).
#include "memmodel/graph/base_graph.hpp"

namespace ptxcheck::mm {

Sem sem_of(ptx::ir::MemorySemantics s) {
  using MS = ptx::ir::MemorySemantics;
  switch (s) {
    case MS::weak: return Sem::weak;
    case MS::relaxed: return Sem::relaxed;
    case MS::acquire: return Sem::acquire;
    case MS::release: return Sem::release;
    case MS::acq_rel: return Sem::acq_rel;
    case MS::sc: return Sem::sc;
    case MS::volatile_: case MS::mmio: return Sem::volatile_;
  }
  return Sem::weak;
}

Scope scope_of(ptx::ir::Scope s) {
  switch (s) {
    case ptx::ir::Scope::cta: return Scope::cta;
    case ptx::ir::Scope::cluster: return Scope::cluster;
    case ptx::ir::Scope::gpu: return Scope::gpu;
    case ptx::ir::Scope::sys: return Scope::sys;
  }
  return Scope::sys;
}

std::optional<RmwSems> rmw_sems(Sem s) {
  switch (s) {
    case Sem::relaxed: return RmwSems{Sem::relaxed, Sem::relaxed};
    case Sem::acquire: return RmwSems{Sem::acquire, Sem::relaxed};
    case Sem::release: return RmwSems{Sem::relaxed, Sem::release};
    case Sem::acq_rel: return RmwSems{Sem::acquire, Sem::release};
    default: return std::nullopt;
  }
}

ptx::ir::Nearness nearness(const ThreadPlace& a, const ThreadPlace& b) {
  using N = ptx::ir::Nearness;
  if (a.gpu != b.gpu) return N::other_gpu;
  // CTA indices count within a cluster when the test names clusters.
  if (a.cta == b.cta && a.cluster == b.cluster) return N::same_cta;
  // A thread naming no cluster is alone with its CTA in an implicit 1x1x1 cluster (ISA 2.2.2).
  return a.cluster >= 0 && a.cluster == b.cluster ? N::same_cluster : N::same_gpu;
}

bool scope_includes(Scope s, const std::vector<ThreadPlace>& threads, int a, int b) {
  if (a < 0 || b < 0 || s == Scope::none) return false;
  const ptx::ir::Scope scope = s == Scope::cta       ? ptx::ir::Scope::cta
                               : s == Scope::cluster ? ptx::ir::Scope::cluster
                               : s == Scope::gpu     ? ptx::ir::Scope::gpu
                                                     : ptx::ir::Scope::sys;
  return ptx::ir::scope_includes(scope, nearness(threads[static_cast<std::size_t>(a)], threads[static_cast<std::size_t>(b)]));
}

namespace {
void add_sets(Execution& x, const std::vector<BaseEvent>& ev) {
  const int n = x.n;
  auto mkset = [&](auto pred) {
    Set s(n);
    for (int i = 0; i < n; ++i)
      if (pred(ev[static_cast<std::size_t>(i)])) s.add(i);
    return s;
  };
  using E = const BaseEvent&;
  auto memory = [](E e) { return e.kind == EvKind::read || e.kind == EvKind::write; };
  x.sets["R"] = mkset([](E e) { return e.kind == EvKind::read; });
  x.sets["W"] = mkset([](E e) { return e.kind == EvKind::write; });
  x.sets["M"] = mkset(memory);
  x.sets["F"] = mkset([](E e) { return e.kind == EvKind::fence || e.kind == EvKind::barrier; });
  x.sets["BAR"] = mkset([](E e) { return e.kind == EvKind::barrier; });
  x.sets["IW"] = mkset([](E e) { return e.thread < 0; });
  x.sets["RMW"] = mkset([](E e) { return e.rmw; });
  x.sets["RED"] = mkset([](E e) { return e.kind == EvKind::read && e.red; });
  x.sets["RLX"] = mkset([](E e) { return e.sem == Sem::relaxed || e.sem == Sem::volatile_; });
  x.sets["VOL"] = mkset([](E e) { return e.sem == Sem::volatile_; });
  // fence.acquire / fence.release (ISA 9.7.13.4) are F & ACQ / F & REL, as models/NOTES.md says. A barrier is a
  // synchronizing operation but no memory fence (8.4, Table 20): bar.arrive is in no ACQ / REL, as bar.sync is in
  // no ACQ_REL, or ptx.cat would read it as a release fence (8.8 form 3).
  x.sets["ACQ"] = mkset([](E e) { return e.kind != EvKind::barrier && e.sem == Sem::acquire; });
  x.sets["REL"] = mkset([](E e) { return e.kind != EvKind::barrier && e.sem == Sem::release; });
  x.sets["ACQ_REL"] = mkset([](E e) { return e.kind == EvKind::fence && !e.proxy_fence && e.sem == Sem::acq_rel; });
  x.sets["SC"] = mkset([](E e) { return e.kind == EvKind::fence && e.sem == Sem::sc; });
  x.sets["WEAK"] = mkset([&](E e) { return memory(e) && e.sem == Sem::weak; });
  x.sets["GEN"] = mkset([](E e) { return e.proxy == Proxy::generic; });
  x.sets["SUR"] = mkset([](E e) { return e.proxy == Proxy::surface; });
  x.sets["TEX"] = mkset([](E e) { return e.proxy == Proxy::texture; });
  x.sets["CON"] = mkset([](E e) { return e.proxy == Proxy::constant; });
  x.sets["ASYNC"] = mkset([](E e) { return e.proxy == Proxy::async; });
  x.sets["ALIAS"] = mkset([](E e) { return e.alias_fence; });
  x.sets["PROXYF"] = mkset([](E e) { return e.proxy_fence; });
  x.sets["CTA"] = mkset([](E e) { return e.scope == Scope::cta; });
  x.sets["CLUSTER"] = mkset([](E e) { return e.scope == Scope::cluster; });
  x.sets["GPU"] = mkset([](E e) { return e.scope == Scope::gpu; });
  x.sets["SYS"] = mkset([](E e) { return e.scope == Scope::sys; });
}
}  // namespace

Execution base_execution(const std::vector<BaseEvent>& ev, const std::vector<ThreadPlace>& threads,
                         const std::vector<std::pair<int, int>>& rmw_pairs) {
  Execution x;
  const int n = static_cast<int>(ev.size());
  x.n = n;
  add_sets(x, ev);
  Rel po(n), loc(n), vloc(n), rmw(n), sr(n), incl(n), scta(n), intr(n);
  for (int a = 0; a < n; ++a) {
    const BaseEvent& ea = ev[static_cast<std::size_t>(a)];
    const bool ma = ea.kind == EvKind::read || ea.kind == EvKind::write;
    for (int b = 0; b < n; ++b) {
      const BaseEvent& eb = ev[static_cast<std::size_t>(b)];
      const bool mb = eb.kind == EvKind::read || eb.kind == EvKind::write;
      if (ea.thread >= 0 && ea.thread == eb.thread) {
        intr.add(a, b);
        if (a < b) po.add(a, b);
      }
      if (ma && mb && ea.loc == eb.loc) loc.add(a, b);
      if (ma && mb && ea.va == eb.va) vloc.add(a, b);
      if (scope_includes(ea.scope, threads, ea.thread, eb.thread)) incl.add(a, b);
      if (scope_includes(Scope::cta, threads, ea.thread, eb.thread)) scta.add(a, b);
    }
  }
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      if (incl.has(a, b) && incl.has(b, a)) sr.add(a, b);
  for (auto [r, w] : rmw_pairs) rmw.add(r, w);
  x.rels["po"] = po;
  x.rels["loc"] = loc;
  x.rels["vloc"] = vloc;
  Rel poloc = po;
  poloc &= loc;
  x.rels["po-loc"] = poloc;
  x.rels["rmw"] = rmw;
  x.rels["sr"] = sr;
  x.rels["incl"] = incl;
  x.rels["scta"] = scta;
  x.rels["int"] = intr;
  Rel ext = Rel::identity(n).complement();
  ext.minus(intr);
  x.rels["ext"] = ext;
  x.rels["id"] = Rel::identity(n);
  for (const char* empty : {"addr", "data", "ctrl", "rf", "co", "syncbar", "sync_fence"}) x.rels[empty] = Rel(n);
  return x;
}

Rel fence_sc_order(const std::vector<int>& order, const Rel& sr) {
  Rel r(sr.size());
  for (std::size_t a = 0; a < order.size(); ++a)
    for (std::size_t b = a + 1; b < order.size(); ++b)
      if (sr.has(order[a], order[b])) r.add(order[a], order[b]);
  return r;
}

}  // namespace ptxcheck::mm
