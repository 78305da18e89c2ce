// The membar / fence forms of fence_form.hpp, from ISA 9.0 9.7.13.4's syntax block:
//   fence{.sem}.scope;                                       .sem = { .sc, .acq_rel, .acquire, .release }
//   fence.acquire.sync_restrict::shared::cluster.cluster;    .scope = { .cta, .cluster, .gpu, .sys }
//   fence.release.sync_restrict::shared::cta.cluster;
//   fence.op_restrict.release.cluster;                       .op_restrict = { .mbarrier_init }
//   fence.proxy.proxykind;                                   .proxykind = { .alias, .async, .async.global,
//   fence.proxy.to_proxykind::from_proxykind.release.scope;                 .async.shared::{cta, cluster} }
//   fence.proxy.to_proxykind::from_proxykind.acquire.scope [addr], size;   (.tensormap::generic)
//   fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;
//   fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;
//   membar.level;  membar.proxy.proxykind;                   .level = { .cta, .gl, .sys }
#include "semantics/ir/fence_form.hpp"


namespace ptx::ir {

namespace {
using Kind = FenceForm::Kind;
using Proxy = FenceForm::Proxy;

// The flags a form of this kind may carry besides its semantics, scope and state space.
bool flag_allowed(const FenceForm& f, Flag flag) {
  switch (f.kind) {
    case Kind::thread: return f.membar && flag == Flag::gl;
    case Kind::restricted: return flag == Flag::sync_restrict_shared_cta || flag == Flag::sync_restrict_shared_cluster;
    case Kind::mbarrier_init: return flag == Flag::mbarrier_init;
    case Kind::proxy: return flag == Flag::proxy || flag == Flag::alias || flag == Flag::async;
    case Kind::proxy_directed:
      if (flag == Flag::proxy) return true;
      if (f.proxy == Proxy::tensormap) return flag == Flag::tensormap_generic;
      return flag == Flag::async_generic || flag == Flag::sync_restrict_shared_cta || flag == Flag::sync_restrict_shared_cluster;
  }
  return false;
}

std::string thread_fence_error(const FenceForm& f, const Qualifiers& q) {
  if (f.membar) {
    // ".level = { .cta, .gl, .sys }" ("synonymous with the fence scopes cta, gpu and sys").
    if (f.sem) return "membar takes no .sem; it is fence.sc (ISA 9.7.13.4)";
    if (!f.scope || (f.scope == Scope::gpu && !q.has(Flag::gl)) || f.scope == Scope::cluster)
      return "membar needs one .level of .cta, .gl and .sys (ISA 9.7.13.4)";
    return {};
  }
  if (!f.scope) return "fence needs a .scope: .cta, .cluster, .gpu or .sys (ISA 9.7.13.4)";
  return {};
}

std::string restricted_error(const FenceForm& f, const Qualifiers& q) {
  if (f.kind == Kind::mbarrier_init) {
    if (f.sem != MemorySemantics::release || f.scope != Scope::cluster)
      return "fence.mbarrier_init takes .release and .cluster: fence.mbarrier_init.release.cluster (ISA 9.7.13.4)";
    return {};
  }
  // "When .sync_restrict is .sync_restrict::shared::cta, .sem must be .release ... when .sync_restrict::shared::cluster,
  // .sem must be .acquire ... the .scope must be specified as .cluster."
  const bool cta = q.has(Flag::sync_restrict_shared_cta), cluster = q.has(Flag::sync_restrict_shared_cluster);
  if (cta == cluster) return "a fence takes one .sync_restrict (ISA 9.7.13.4)";
  if (cta && f.sem != MemorySemantics::release) return ".sync_restrict::shared::cta needs .release (ISA 9.7.13.4)";
  if (cluster && f.sem != MemorySemantics::acquire) return ".sync_restrict::shared::cluster needs .acquire (ISA 9.7.13.4)";
  if (f.scope != Scope::cluster) return ".sync_restrict needs the scope .cluster (ISA 9.7.13.4)";
  return {};
}

std::string proxy_error(const FenceForm& f, const Instruction& in) {
  const Qualifiers& q = in.q;
  if (f.kind == Kind::proxy) {
    if (f.sem || f.scope) return "a bi-directional proxy fence takes no .sem and no .scope (ISA 9.7.13.4)";
    if (f.proxy == Proxy::alias && f.space) return "fence.proxy.alias takes no state space (ISA 9.7.13.4)";
    // ".async.global, .async.shared::{cta, cluster}": one space, named as the syntax names it.
    if (f.space && (q.space2 || q.has_word("shared") ||
                    (f.space != StateSpace::global && f.space != StateSpace::shared && f.space != StateSpace::shared_cluster)))
      return "fence.proxy.async takes one of .global, .shared::cta and .shared::cluster, or none (ISA 9.7.13.4)";
    return {};
  }
  if (f.proxy == Proxy::async) {  // the two async::generic forms, each with its one window, at .cluster scope
    const bool release = f.sem == MemorySemantics::release, acquire = f.sem == MemorySemantics::acquire;
    if (!(release && q.has(Flag::sync_restrict_shared_cta) && !q.has(Flag::sync_restrict_shared_cluster)) &&
        !(acquire && q.has(Flag::sync_restrict_shared_cluster) && !q.has(Flag::sync_restrict_shared_cta)))
      return "fence.proxy.async::generic is .release.sync_restrict::shared::cta or .acquire.sync_restrict::shared::cluster "
             "(ISA 9.7.13.4)";
    if (f.scope != Scope::cluster) return "fence.proxy.async::generic needs the scope .cluster (ISA 9.7.13.4)";
    return {};
  }
  if (f.sem != MemorySemantics::release && f.sem != MemorySemantics::acquire)
    return "a uni-directional proxy fence takes .release or .acquire (ISA 9.7.13.4)";
  if (!f.scope) return "a uni-directional proxy fence needs a .scope: .cta, .cluster, .gpu or .sys (ISA 9.7.13.4)";
  // The .acquire form names the range [addr, addr+size-1]: "The only supported value for the size operand is 128,
  // which must be a constant integer literal."
  const bool acquire = f.sem == MemorySemantics::acquire;
  if (in.operands.size() != (acquire ? 2u : 0u))
    return acquire ? "fence.proxy.tensormap::generic.acquire takes [addr], size (ISA 9.7.13.4)"
                   : "fence.proxy.tensormap::generic.release takes no operands (ISA 9.7.13.4)";
  if (acquire && (in.operands[1].kind != Operand::Kind::Immediate || in.operands[1].imm != 128))
    return "the size of fence.proxy.tensormap::generic.acquire must be the literal 128 (ISA 9.7.13.4)";
  return {};
}
}  // namespace

std::optional<FenceForm> fence_form(Opcode op, const Qualifiers& q) {
  if (op != Opcode::fence_ && op != Opcode::membar_) return std::nullopt;
  FenceForm f;
  f.membar = op == Opcode::membar_;
  f.sem = q.semantics;
  f.scope = q.scope;
  f.space = q.space;
  if (q.has(Flag::proxy)) {
    const bool directed = q.has(Flag::tensormap_generic) || q.has(Flag::async_generic);
    f.kind = directed ? Kind::proxy_directed : Kind::proxy;
    if (q.has(Flag::tensormap_generic)) f.proxy = Proxy::tensormap;
    else if (q.has(Flag::async_generic) || q.has(Flag::async)) f.proxy = Proxy::async;
    else if (q.has(Flag::alias)) f.proxy = Proxy::alias;
    else return std::nullopt;  // no proxykind
    if (q.has(Flag::async_generic))
      f.space = q.has(Flag::sync_restrict_shared_cluster) ? StateSpace::shared_cluster : StateSpace::shared;
    return f;
  }
  if (q.has(Flag::mbarrier_init)) f.kind = Kind::mbarrier_init;
  else if (q.has(Flag::sync_restrict_shared_cta) || q.has(Flag::sync_restrict_shared_cluster)) {
    f.kind = Kind::restricted;
    f.space = q.has(Flag::sync_restrict_shared_cluster) ? StateSpace::shared_cluster : StateSpace::shared;
  }
  return f;
}

std::string fence_form_error(const Instruction& in) {
  if (in.op != Opcode::fence_ && in.op != Opcode::membar_) return {};
  const Qualifiers& q = in.q;
  const std::string name = in.op == Opcode::membar_ ? "membar" : "fence";
  const auto f = fence_form(in.op, q);
  if (!f) return name + ".proxy needs a proxykind: .alias, .async{.global, .shared::cta, .shared::cluster}, or "
                        ".tensormap::generic / .async::generic (ISA 9.7.13.4)";
  if (!q.types.empty() || q.vector_width != 1) return name + " takes no type (ISA 9.7.13.4)";
  if (!f->membar && q.has(Flag::gl)) return "'.gl' is a level of membar; fence takes the scope .gpu (ISA 9.7.13.4)";
  for (const Flag flag : q.flags)
    if (!flag_allowed(*f, flag))
      return "'." + std::string(flag_name(flag)) + "' is no qualifier of " + opcode_text(in) + " (ISA 9.7.13.4)";
  if (f->membar && f->kind != Kind::thread && f->kind != Kind::proxy)
    return "membar is membar.level or membar.proxy.proxykind (ISA 9.7.13.4)";
  if (f->kind != Kind::proxy_directed && !in.operands.empty()) return opcode_text(in) + " takes no operands (ISA 9.7.13.4)";
  if (f->kind != Kind::proxy && q.space) return opcode_text(in) + " takes no state space (ISA 9.7.13.4)";
  switch (f->kind) {
    case Kind::thread: return thread_fence_error(*f, q);
    case Kind::restricted: case Kind::mbarrier_init: return restricted_error(*f, q);
    case Kind::proxy: case Kind::proxy_directed: return proxy_error(*f, in);
  }
  return {};
}

}  // namespace ptx::ir
