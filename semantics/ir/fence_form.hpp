// The forms of membar / fence (ISA 9.0 9.7.13.4), as its syntax block lists them: what kind of fence an instruction
// is, and why one is none of them. One reading of the fence qualifiers for the IR checker (errors at file:line:col),
// memory_order.hpp's fence_order (the engines' thread fences), the interpreter's proxy fences and the litmus builder.
#pragma once

#include "semantics/ir/ir.hpp"

#include <optional>
#include <string>

namespace ptx::ir {

struct FenceForm {
  enum class Kind : std::uint8_t {
    thread,         // fence{.sem}.scope, membar.level: orders the thread's memory accesses (8.4)
    restricted,     // fence.acquire.sync_restrict::shared::cluster.cluster, fence.release.sync_restrict::shared::cta.cluster
    mbarrier_init,  // fence.mbarrier_init.release.cluster: orders only prior mbarrier.init
    proxy,          // fence.proxy.proxykind, membar.proxy.proxykind: bi-directional, generic <-> proxykind
    proxy_directed, // fence.proxy.to_proxykind::from_proxykind.{release,acquire}...: uni-directional from -> to
  };
  // The proxy a proxy fence orders the generic proxy with (for a directed one, its to_proxykind).
  enum class Proxy : std::uint8_t { none, alias, async, tensormap };

  Kind kind = Kind::thread;
  bool membar = false;
  std::optional<MemorySemantics> sem;  // as written (.sem absent: thread_semantics() gives the default)
  std::optional<Scope> scope;          // as written; membar's levels cta/gl/sys are the scopes cta/gpu/sys
  Proxy proxy = Proxy::none;
  // The state space a fence is limited to: .async.global/.shared::cta/.shared::cluster of a proxy fence, the
  // .sync_restrict window of a restricted one (shared = ::cta); nullopt: every state space.
  std::optional<StateSpace> space;

  // A thread fence's semantics: membar is fence.sc (on sm_70 and higher), `.sem` absent is `.acq_rel`.
  MemorySemantics thread_semantics() const {
    return membar ? MemorySemantics::sc : sem.value_or(MemorySemantics::acq_rel);
  }
};

// What kind of fence a membar / fence instruction's qualifiers say, reading them leniently (a missing scope stays
// unset); nullopt for other opcodes and for qualifiers that make none of the kinds (fence_form_error says why).
std::optional<FenceForm> fence_form(Opcode op, const Qualifiers& q);

// Why a membar / fence instruction is none of 9.7.13.4's forms (empty when it is one, or is no fence): a missing
// or second scope, a qualifier its kind does not take, an unknown proxykind, the operand count of its form.
std::string fence_form_error(const Instruction& in);

}  // namespace ptx::ir
