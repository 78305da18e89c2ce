// What an instruction means to the memory model (ISA 8.4 operation types, 8.5 scopes), with the defaults the
// ISA states for absent qualifiers. One definition, read by the race checker and by the litmus builder.
#pragma once

#include "semantics/ir/fence_form.hpp"
#include "semantics/ir/ir.hpp"

#include <optional>

namespace ptx::ir {

struct MemoryOrder {
  MemorySemantics sem = MemorySemantics::weak;
  Scope scope = Scope::sys;  // meaningful when strong
  bool strong = false;       // ISA 8.4: relaxed, acquire, release, acq_rel, volatile, mmio; every atom/red
};

// A load, store or read-modify-write. `atomic`: the operation is atom/red (or a form the caller treats as one).
//  - atom/red: `.sem` absent is `.relaxed`, `.scope` absent is `.gpu` (ISA 9.7.13.5 atom, 9.7.13.6 red).
//  - ld/st: `.weak` when none of `.weak/.volatile/.relaxed/.acquire/.release` is given (9.7.9.8 ld, 9.7.9.10 st).
//  - `.volatile` is relaxed at system scope (8.4.2); `.mmio` is `.relaxed.sys` too (9.7.9.8).
//  - `.relaxed/.acquire/.release` require `.scope` in ld/st's syntax, but the text's own example in 9.7.16.11.1
//    writes `st.relaxed.b32` and a litmus cell may omit it too: a form without it is taken at `.sys`, the widest
//    scope, which orders no less than any scope the writer may have meant.
inline MemoryOrder access_order(const Qualifiers& q, bool atomic) {
  using MS = MemorySemantics;
  MemoryOrder m;
  m.sem = q.semantics.value_or(atomic ? MS::relaxed : MS::weak);
  m.strong = atomic || m.sem != MS::weak;
  const bool system = m.sem == MS::volatile_ || m.sem == MS::mmio;
  m.scope = system ? Scope::sys : q.scope.value_or(atomic ? Scope::gpu : Scope::sys);
  return m;
}
inline MemoryOrder access_order(const Instruction& in) {
  return access_order(in.q, in.op == Opcode::atom_ || in.op == Opcode::red_);
}

// Qualifiers of ld/st/atom/red that are performance hints only: cache operators (ISA 9.7.9.1: "does not change the
// memory consistency behavior of the program"), eviction priorities (9.7.9.2), prefetch sizes and cache policies
// (9.7.9.8). Any other flag (.nc, .async, .bulk, ...) changes what the access means.
inline bool performance_hint(Flag f) {
  switch (f) {
    case Flag::ca: case Flag::cg: case Flag::cs: case Flag::lu: case Flag::cv: case Flag::wb: case Flag::wt:
    case Flag::L1_evict_normal: case Flag::L1_evict_unchanged: case Flag::L1_evict_first: case Flag::L1_evict_last:
    case Flag::L1_no_allocate: case Flag::L2_evict_normal: case Flag::L2_evict_first: case Flag::L2_evict_last:
    case Flag::L2_evict_unchanged: case Flag::L2_cache_hint: case Flag::L2_64B: case Flag::L2_128B: case Flag::L2_256B:
      return true;
    default: return false;
  }
}

// A memory fence (ISA 9.7.13.4, the forms of fence_form.hpp): `.sem` absent is `.acq_rel`; membar is fence.sc and
// its levels cta, gl and sys are the scopes cta, gpu and sys (on sm_70 and higher). Proxy fences (fence.proxy.*,
// membar.proxy) order proxies, not threads, and are no memory fence (8.4): nullopt for them and for every other
// instruction. fence.mbarrier_init orders only prior mbarrier.init operations, and a .sync_restrict fence only
// operations on one shared-memory window: read as full fences they would order more than the spec says, so they
// are none here either (engines that need them refuse or ignore them, ordering less: never a missed race). A scope
// the form lacks (the IR checker refuses it; a litmus cell may omit it) is .sys, the widest.
inline std::optional<MemoryOrder> fence_order(Opcode op, const Qualifiers& q) {
  const auto f = fence_form(op, q);
  if (!f || f->kind != FenceForm::Kind::thread) return std::nullopt;
  MemoryOrder m;
  m.strong = true;
  m.sem = f->thread_semantics();
  m.scope = f->scope.value_or(Scope::sys);
  return m;
}
inline std::optional<MemoryOrder> fence_order(const Instruction& in) { return fence_order(in.op, in.q); }

}  // namespace ptx::ir
