// Per-thread instruction execution of the interpreter: operand access (registers, immediates, special
// registers ISA 10, addresses ISA 6.4), bounds-checked memory, and the dispatch of each ISA 9.7 instruction to
// its one definition in semantics/ops, instantiated with the concrete domain.
#include "semantics/interp/machine.hpp"
#include "semantics/ir/address.hpp"
#include "semantics/ir/fence_form.hpp"
#include "semantics/ops/atomic.hpp"
#include "semantics/ops/effect.hpp"
#include "semantics/ops/execute.hpp"
#include "semantics/support/names.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <set>

namespace ptx::interp {

using domain::Concrete;
using ir::Opcode;
using OK = Operand::Kind;

namespace {
Concrete C;
CV fit(CV v, unsigned width, bool is_signed) {
  if (v.w == width) return v;
  if (v.w > width) return Concrete::lit(width, v.v);
  return is_signed ? Concrete::sext(v, width) : Concrete::zext(v, width);
}
}  // namespace

// ---------------------------------------------------------------------------------------------- operands
CV& Machine::reg(Thread& t, std::int32_t r, int component) {
  const Frame& f = t.frames.back();
  return t.regs[f.reg_base + fns_[f.fn].slot[static_cast<std::size_t>(r)] + static_cast<unsigned>(component < 0 ? 0 : component)];
}

CV Machine::special(Thread& t, const Operand& o, unsigned width) {
  using ir::SpecialRegister;
  unsigned c = o.component < 0 ? 0 : static_cast<unsigned>(o.component);
  std::uint64_t v = 0;
  const auto& b = launch_.block;
  switch (o.special) {
    case SpecialRegister::tid: v = c < 3 ? t.tid[c] : 0; break;
    case SpecialRegister::ntid: v = c < 3 ? b[c] : 0; break;
    case SpecialRegister::ctaid: v = c < 3 ? cta_->ctaid[c] : 0; break;
    case SpecialRegister::nctaid: v = c < 3 ? launch_.grid[c] : 0; break;
    case SpecialRegister::laneid: v = t.lane; break;
    case SpecialRegister::warpid: v = t.warp; break;
    case SpecialRegister::nwarpid: v = cta_->warps.size(); break;
    case SpecialRegister::lanemask_eq: v = 1u << t.lane; break;
    case SpecialRegister::lanemask_le: v = static_cast<std::uint32_t>((std::uint64_t(2) << t.lane) - 1); break;
    case SpecialRegister::lanemask_lt: v = (1u << t.lane) - 1; break;
    case SpecialRegister::lanemask_ge: v = static_cast<std::uint32_t>(~((1u << t.lane) - 1)); break;
    case SpecialRegister::lanemask_gt: v = static_cast<std::uint32_t>(~((std::uint64_t(2) << t.lane) - 1)); break;
    case SpecialRegister::clock: case SpecialRegister::clock64: case SpecialRegister::globaltimer:
    case SpecialRegister::globaltimer_lo: v = clock_; break;
    case SpecialRegister::clock_hi: case SpecialRegister::globaltimer_hi: v = clock_ >> 32; break;
    case SpecialRegister::nsmid: v = 1; break;
    case SpecialRegister::dynamic_smem_size: v = launch_.dynamic_shared_bytes; break;
    case SpecialRegister::total_smem_size: case SpecialRegister::aggr_smem_size:
      v = dynamic_shared_base_ + launch_.dynamic_shared_bytes; break;
    case SpecialRegister::envreg: v = o.imm == 1 ? grid_workspace_ >> 32 : o.imm == 2 ? grid_workspace_ & 0xffffffffu : 0; break;
    default: v = cluster_special(o.special, c).value_or(0); break;  // cluster registers (cluster.cpp); smid, gridid, pm: 0
  }
  return Concrete::lit(width, v);
}

const ir::Variable& Machine::variable(Thread& t, const ir::VarRef& v) {
  const ir::Function& f = mod_.functions[t.frames.back().fn];
  switch (v.where) {
    case ir::VarRef::Where::Param: return f.params[v.index];
    case ir::VarRef::Where::Return: return f.returns[v.index];
    case ir::VarRef::Where::Local: return f.locals[v.index];
    default: return mod_.globals[v.index];
  }
}

std::pair<StateSpace, std::uint64_t> Machine::variable_address(Thread& t, const ir::VarRef& v) {
  const Frame& fr = t.frames.back();
  const FnInfo& fi = fns_[fr.fn];
  switch (v.where) {
    case ir::VarRef::Where::Param: return {StateSpace::param, fr.stack_base + fi.param_off[v.index]};
    case ir::VarRef::Where::Return: return {StateSpace::param, fr.stack_base + fi.ret_off[v.index]};
    case ir::VarRef::Where::Local: {
      const ir::Variable& var = fi.fn->locals[v.index];
      if (var.space == StateSpace::shared) return {StateSpace::shared, own_shared_base() + local_shared_[{fr.fn, v.index}]};
      return {var.space, fr.stack_base + fi.local_off[v.index]};
    }
    default: {
      const ir::Variable& var = mod_.globals[v.index];
      if (var.space == StateSpace::shared || var.space == StateSpace::shared_cluster)  // offsets of the executing CTA
        return {StateSpace::shared, own_shared_base() + global_addr_[v.index]};
      return {var.space, global_addr_[v.index]};
    }
  }
}

CV Machine::read(Thread& t, const Operand& o, unsigned width, bool is_signed, bool) {
  CV v;
  switch (o.kind) {
    case OK::Register: {
      const FnInfo& fi = fns_[t.frames.back().fn];
      unsigned n = fi.vec[static_cast<std::size_t>(o.reg)];
      if (n > 1 && o.component < 0) {  // a whole vector register: its elements, element 0 lowest
        for (unsigned k = 0; k < n; ++k) {
          CV e = reg(t, o.reg, static_cast<int>(k));
          v = k == 0 ? e : (v.w + e.w <= 128 ? Concrete::concat(e, v) : v);
        }
      } else {
        v = reg(t, o.reg, o.component);
      }
      break;
    }
    case OK::Special: v = special(t, o, width); break;
    case OK::Immediate: v = Concrete::lit(64, o.imm); is_signed = true; break;
    case OK::FloatImm: {
      domain::FpFormat from = o.is_f32 ? domain::FpFormat::f32 : domain::FpFormat::f64;
      v = Concrete::lit(o.is_f32 ? 32 : 64, o.imm);
      domain::FpFormat to = width == 64 ? domain::FpFormat::f64 : width == 16 ? domain::FpFormat::f16 : domain::FpFormat::f32;
      if (from != to && (width == 16 || width == 32 || width == 64)) v = Concrete::f2f(from, to, domain::Rnd::rn, v);
      break;
    }
    case OK::Variable: v = Concrete::lit(64, variable_address(t, o.var).second); break;
    case OK::Address: v = Concrete::lit(64, address(t, o)); break;
    case OK::Function: v = Concrete::lit(64, kFunctionBase + static_cast<std::uint64_t>(o.target)); break;
    case OK::Vector: {
      unsigned n = static_cast<unsigned>(o.elements.size());
      unsigned ew = n ? width / n : width;
      for (unsigned i = 0; i < n; ++i) {
        CV e = read(t, o.elements[i], ew);
        v = i == 0 ? e : Concrete::concat(e, v);
      }
      if (n == 0) v = Concrete::lit(width, 0);
      break;
    }
    default: v = Concrete::lit(width, 0); break;
  }
  if (o.negated) v = Concrete::lit(v.w, v.v == 0 ? 1 : 0);
  return fit(v, width, is_signed);
}

void Machine::write(Thread& t, const Operand& o, CV v, bool is_signed) {
  switch (o.kind) {
    case OK::Register: {
      const FnInfo& fi = fns_[t.frames.back().fn];
      unsigned n = fi.vec[static_cast<std::size_t>(o.reg)];
      if (n > 1 && o.component < 0) {
        unsigned ew = reg(t, o.reg, 0).w;
        for (unsigned k = 0; k < n && ew * k < v.w; ++k) reg(t, o.reg, static_cast<int>(k)) = Concrete::extract(v, std::min(v.w - 1, ew * k + ew - 1), ew * k);
        break;
      }
      CV& r = reg(t, o.reg, o.component);
      r = fit(v, r.w, is_signed);
      break;
    }
    case OK::PredPair: if (o.reg >= 0) reg(t, o.reg) = fit(v, 1, false); break;
    case OK::Vector: {
      unsigned n = static_cast<unsigned>(o.elements.size());
      unsigned ew = v.w / n;
      for (unsigned i = 0; i < n; ++i) write(t, o.elements[i], Concrete::extract(v, ew * i + ew - 1, ew * i), is_signed);
      break;
    }
    default: break;  // sink `_`
  }
}

std::uint64_t Machine::address(Thread& t, const Operand& o) {
  if (o.kind != OK::Address) return read(t, o, 64).u64();
  if (o.base_kind == Operand::BaseKind::Register) {
    const CV& base = reg(t, o.reg);
    return ir::address_sum(base.u64(), base.w, o.offset);
  }
  const std::uint64_t base = o.base_kind == Operand::BaseKind::Variable ? variable_address(t, o.var).second : 0;
  return base + static_cast<std::uint64_t>(o.offset);
}

std::uint64_t Machine::access_address(Thread& t, const Operand& o, StateSpace space) {
  const std::uint64_t a = address(t, o);
  // A variable named in a generic access stands for its generic address (ISA 6.4.1).
  if (o.kind == OK::Address && o.base_kind == Operand::BaseKind::Variable && space == StateSpace::generic)
    return Machine::to_generic(variable_address(t, o.var).first, a);
  return a;
}

std::pair<StateSpace, std::uint64_t> Machine::resolve(StateSpace space, std::uint64_t a) {
  if (space != StateSpace::generic) return {space, a};
  // ISA 6.4.1: a generic address falls in the shared, local or param window, or else is global.
  if (a >= kSharedWindow && a < kSharedWindow + kWindowSize) return {StateSpace::shared, a - kSharedWindow};
  if (a >= kLocalWindow && a < kLocalWindow + kWindowSize) return {StateSpace::local, a - kLocalWindow};
  if (a >= kParamWindow && a < kParamWindow + kWindowSize) return {StateSpace::param, a - kParamWindow};
  return {StateSpace::global, a};
}

ThreadRef Machine::thread_ref(const Thread& t) const { return thread_ref_of(cta_->ctaid, t.tid, launch_.grid, launch_.block); }
std::uint64_t Machine::cta_linear(const Cta& c) const { return thread_ref_of(c.ctaid, {0, 0, 0}, launch_.grid, launch_.block).cta; }

void Machine::observe_fence(Thread& t, const Instruction& ins) {
  using Kind = ir::FenceForm::Kind;
  const auto f = ir::fence_form(ins.op, ins.q);
  if (!f) return;
  // The memory fences, and the restricted ones the observers read as none (ir::fence_order).
  if (f->kind != Kind::proxy && f->kind != Kind::proxy_directed) return opt_.observer->fence(thread_ref(t), ins);
  // fence.proxy.async{.global,.shared::cta,.shared::cluster}: bi-directional. The uni-directional async::generic
  // forms (one way, in a release/acquire pair) and the alias and tensormap fences are not reported: the observers
  // then order less, never more.
  if (f->kind == Kind::proxy && f->proxy == ir::FenceForm::Proxy::async)
    opt_.observer->proxy_fence(thread_ref(t), ins, f->space.value_or(StateSpace::generic));
}

void Machine::observe(Thread& t, const Instruction& ins, MemoryAccess::Kind kind, StateSpace space, std::uint64_t addr,
                      std::uint32_t bytes, bool wrote, bool async) {
  MemoryAccess a = access_record(t.top->fn, ins, kind, bytes);
  a.async = async;
  a.wrote = wrote;
  std::tie(a.space, a.addr) = resolve(space, addr);
  if (a.space == StateSpace::shared || a.space == StateSpace::shared_cluster) {
    // (a generic address in the shared window may name another CTA's memory; an access outside has failed)
    const SharedTarget s = shared_target(StateSpace::shared_cluster, a.addr);
    a.owner_cta = s.cta ? cta_linear(*s.cta) : cta_linear(*cta_);
    if (s.cta) a.addr = s.offset;
    a.space = StateSpace::shared;
  }
  opt_.observer->access(thread_ref(t), a);
}

MemoryAccess Machine::access_record(std::uint32_t fn, const Instruction& ins, MemoryAccess::Kind kind, std::uint32_t bytes) const {
  MemoryAccess a;
  a.ins = &ins;
  a.fn = fn;
  a.pc = static_cast<std::uint32_t>(&ins - mod_.functions[fn].body.data());
  a.kind = kind;
  a.bytes = bytes;
  return a;
}

void Machine::observe_async(std::uint64_t op, std::uint32_t fn, const Instruction& ins, MemoryAccess::Kind kind, StateSpace space,
                            std::uint64_t addr, std::uint32_t bytes, const Cta* owner) {
  MemoryAccess a = access_record(fn, ins, kind, bytes);
  if (owner) a.owner_cta = cta_linear(*owner);
  a.space = space == StateSpace::shared_cluster ? StateSpace::shared : space;
  a.addr = addr;
  opt_.observer->async_op_access(op, a);
}

void Machine::observe_tmem(std::uint64_t op, std::uint32_t fn, const Instruction& ins, MemoryAccess::Kind kind, std::uint32_t lane,
                           std::uint32_t column, std::uint32_t cells, const Cta& owner) {
  MemoryAccess a = access_record(fn, ins, kind, cells * 4);
  a.owner_cta = cta_linear(owner);
  a.space = StateSpace::shared;  // (its CTA's; tensor_memory says which memory)
  a.tensor_memory = true;
  a.addr = (std::uint64_t(lane) * kTmemColumns + column) * 4;
  opt_.observer->async_op_access(op, a);
}

std::uint8_t* Machine::locate(Thread& t, StateSpace space, std::uint64_t addr, std::uint64_t size, bool is_write) {
  const StateSpace given = space;
  std::uint64_t a = addr;
  epoch_ += is_write;  // a write may release a spinning thread (note_failed_wait)
  std::tie(space, a) = resolve(space, addr);
  std::uint8_t* p = nullptr;
  auto describe = [&](const char* what) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(addr));
    return std::string(what) + (is_write ? " store" : " load") + " of " + std::to_string(size) + " bytes at " + buf + " (" +
           ir::state_space_name(space) + " space)";
  };
  switch (space) {
    case StateSpace::global: case StateSpace::const_: {
      auto* r = global_.find(a, size);
      if (r && is_write && r->read_only) {  // e.g. host memory registered with cudaHostRegisterReadOnly
        fail(Problem::Kind::out_of_bounds, describe("illegal") + " to read-only memory '" + ptxcheck::names::variable_title(r->name) + "'", {&t});
        return nullptr;
      }
      if (r) p = r->bytes.data() + (a - r->base);
      if (r && !r->covers(a, size) && result_.stats.overrun_accesses++ == 0)  // inside the GPU slack only
        result_.first_overrun = {Problem::Kind::out_of_bounds, describe("out-of-bounds") + " past '" + ptxcheck::names::variable_title(r->name) + "', let through by the GPU slack", {position(t)}};
      break;
    }
    case StateSpace::shared: case StateSpace::shared_cluster:  // this CTA's or, through the cluster window, another's
      p = shared_pointer(t, given, a, size);
      break;
    case StateSpace::local: case StateSpace::param:
      if (a <= t.stack.size() && size <= t.stack.size() - a) p = t.stack.data() + a;
      else if (space == StateSpace::local && a >= t.sp && a <= kAllocaTop && size <= kAllocaTop - a) p = t.alloca_mem.data() + (a - t.sp);
      break;
    default: break;
  }
  if (!p) fail(Problem::Kind::out_of_bounds, describe("out-of-bounds"), {&t});
  return p;
}

bool Machine::aligned(Thread& t, std::uint64_t addr, std::uint64_t size, bool write) {
  if (size <= 1 || addr % size == 0) return true;
  char buf[64];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(addr));
  fail(Problem::Kind::misaligned, std::string("misaligned ") + (write ? "store" : "load") + " of " + std::to_string(size) + " bytes at " + buf +
       " (ISA 6.4.1: an address must be a multiple of the access size)", {&t});
  return false;
}

CV Machine::load(Thread& t, StateSpace space, std::uint64_t addr, unsigned bits) {
  unsigned bytes = (bits + 7) / 8;
  const std::uint8_t* p = locate(t, space, addr, bytes, false);
  domain::u128 v = 0;
  if (p)
    for (unsigned k = 0; k < bytes; ++k) v |= domain::u128(p[k]) << (8 * k);
  return Concrete::lit(bits, v);
}

void Machine::store(Thread& t, StateSpace space, std::uint64_t addr, const CV& v, unsigned bytes) {
  std::uint8_t* p = locate(t, space, addr, bytes, true);
  if (!p) return;
  for (unsigned k = 0; k < bytes; ++k) p[k] = static_cast<std::uint8_t>(v.v >> (8 * k));
}

namespace {
// The .b128 forms the interpreter runs, on 128-bit register values: ld/ldu/st of one .b128 (9.7.9.8-9.7.9.11),
// mov.b128 packing or unpacking two .b64 (9.7.9.10), and atom.cas.b128 / atom.exch.b128 (9.7.13.5, the only
// operations its syntax gives .b128).
bool b128_supported(const Instruction& ins) {
  const auto& o = ins.operands;
  switch (ins.op) {
    case Opcode::mov_: return o.size() == 2 && (o[0].kind == OK::Vector) != (o[1].kind == OK::Vector);
    case Opcode::ld_: case Opcode::ldu_: case Opcode::st_:
      return ins.q.vector_width == 1 && !ins.q.has(ir::Flag::async) && !ins.q.has(ir::Flag::bulk);
    case Opcode::atom_: return ins.q.atom_op == ir::AtomOp::cas || ins.q.atom_op == ir::AtomOp::exch;
    default: return false;
  }
}
}  // namespace

// Whether the interpreter runs `ins`: a register-value form semantics/ops/execute.hpp models, or one of the forms
// exec_lane, the warp and barrier steps (machine.cpp) and mbarrier.cpp run.
bool instruction_supported(const Instruction& ins) {
  switch (ops::value_form(ins)) {
    case ops::ValueForm::modelled: return true;
    case ops::ValueForm::unmodelled: return false;
    case ops::ValueForm::none: break;
  }
  if (ins.op == Opcode::mma_) return mma_sync_supported(ins);  // 9.7.14.5.14 (mma_sync.cpp)
  if (ins.op == Opcode::wmma_) return wmma_supported(ins);  // 9.7.14.4 (wmma.cpp)
  if (ins.op == Opcode::ldmatrix_ || ins.op == Opcode::stmatrix_ || ins.op == Opcode::movmatrix_)
    return warp_matrix_supported(ins);  // 9.7.14.5.15-17 (warp_matrix.cpp)
  if (ins.op == Opcode::wgmma_) return wgmma_supported(ins);  // 9.7.15 (wgmma.cpp)
  if (ins.op == Opcode::tcgen05_) return tcgen05_supported(ins);  // 9.7.16 (tcgen05.cpp)
  if (ins.op == Opcode::tex_ || ins.op == Opcode::tld4_ || ins.op == Opcode::txq_ || ins.op == Opcode::istypep_)
    return texture_supported(ins);  // 9.7.10 (texture.cpp)
  if (ins.op == Opcode::suld_ || ins.op == Opcode::sust_ || ins.op == Opcode::sured_ || ins.op == Opcode::suq_)
    return surface_supported(ins);  // 9.7.11 (surface.cpp)
  if (ins.op == Opcode::tensormap_) return tensormap_supported(ins);  // 9.7.9.26, 9.7.13.16 (tensormap.cpp)
  if (ins.op == Opcode::clusterlaunchcontrol_) return cluster_launch_control_supported(ins);  // 9.7.13.17-18
  if (ins.q.types.size() == 1 && ins.q.types[0].scalar == ir::ScalarType::b128) return b128_supported(ins);
  for (const auto& t : ins.q.types)
    if (ops::exotic_type(t.scalar)) return false;
  // By kind (semantics/ops/effect.hpp); the matrix, texture, tensormap and cluster-launch-control forms were asked
  // above.
  switch (ops::effect_of(ins.op)) {
    case ops::Effect::value:  // mov of vectors (value_form: the engine's storage)
    case ops::Effect::memory: case ops::Effect::fence: case ops::Effect::hint:
    case ops::Effect::warp: case ops::Effect::barrier:  // machine.cpp; setmaxnreg (a hint) too, the warp's rendezvous
    case ops::Effect::control:  // machine.cpp; brx's list resolved by the builder
    case ops::Effect::stack:    // 9.7.17 (stack.cpp)
    case ops::Effect::address:  // cvta, isspacep (exec.cpp), mapa, getctarank (cluster.cpp)
      break;
    case ops::Effect::async_copy:
      if (ins.q.has_word("bulk")) return bulk_copy_supported(ins);  // 9.7.9.25.4-6 (bulk_copy.cpp)
      // The copy runs when it is issued, one of the executions the spec allows (reading the destination before
      // the wait is undefined behaviour, 9.7.9.25.1); an observer is told it is in flight until its group completes.
      return ir::async_copy_role(ins) != ir::AsyncCopyRole::none || ir::mbarrier_op(ins) == ir::MbarrierOp::copy_arrive;
    case ops::Effect::mbarrier:  // every form (mbarrier.cpp), on this CTA's objects or, where allowed, another's
      return true;
    default:  // multimem
      return false;
  }
  // Forms of supported opcodes that are not modelled.
  if (ins.op == Opcode::fence_ && ins.q.has(ir::Flag::proxy)) return true;
  // st.bulk (9.7.9.13) and the mbarrier-completed st.async / red.async (9.7.9.12, 9.7.13.7): async_store.cpp.
  if (async_store_form(ins)) return async_store_supported(ins);
  const auto access = ops::memory_access(ins);
  if (ops::memory_access_opcode(ins.op) && !access) return false;  // red.cas, red.exch (9.7.13.6)
  // An st.async / red.async without the operands of its form: a .weak one without [mbar], a .release one with one.
  if (access && access->asynchronous && !access->operand_count_matches(ins)) return false;
  if ((ins.op == Opcode::st_ || ins.op == Opcode::red_) && ins.q.has(ir::Flag::mbarrier_complete_tx_bytes)) return false;
  return true;
}

std::string instruction_unsupported_reason(const Instruction& ins) {
  std::string why;
  if (ins.op == Opcode::tex_ || ins.op == Opcode::tld4_ || ins.op == Opcode::txq_ || ins.op == Opcode::istypep_) texture_supported(ins, &why);
  if (ins.op == Opcode::suld_ || ins.op == Opcode::sust_ || ins.op == Opcode::sured_ || ins.op == Opcode::suq_) surface_supported(ins, &why);
  if (ins.op == Opcode::tcgen05_ || ins.op == Opcode::mma_) why = matrix_unsupported_reason(ins);
  if (ins.op == Opcode::wgmma_) why = wgmma_unsupported_reason(ins);
  // ISA 8.2.3: a multimem address "points to multiple distinct memory locations across devices", created by
  // the CUDA driver's multicast objects; a launch here runs on one device and has none.
  if (ins.op == Opcode::multimem_)
    why = ir::opcode_text(ins) + ": multimem addresses point to memory on several devices (ISA 8.2.3, 9.7.9.14), made by the "
          "driver's multicast objects; the interpreter runs one device and a launch has no multicast object";
  if (ins.op == Opcode::clusterlaunchcontrol_)
    why = "not a clusterlaunchcontrol form of ISA 9.7.13.17-18 (try_cancel.async{.shared::cta}.mbarrier::complete_tx::bytes"
          "{.multicast::cluster::all}.b128, query_cancel.is_canceled.pred.b128, .get_first_ctaid.v4.b32.b128, .get_first_ctaid::{x,y,z}.b32.b128)";
  return why.empty() ? "not executed by the interpreter" : ins.op == Opcode::tex_ || ins.op == Opcode::tld4_ ? ir::opcode_text(ins) + ": " + why : why;
}

std::vector<Unsupported> find_unsupported(const ir::Module& module, const ir::Function& kernel) {
  std::vector<Unsupported> out;
  std::set<const ir::Function*> seen;
  std::vector<const ir::Function*> todo{&kernel};
  while (!todo.empty()) {
    const ir::Function* f = todo.back();
    todo.pop_back();
    if (!seen.insert(f).second) continue;
    for (const auto& ins : f->body) {
      if (!instruction_supported(ins)) out.push_back({ir::opcode_text(ins), ins.loc.ptx_line});
      if (ins.op == Opcode::call_) {
        for (const auto& o : ins.operands) {
          if (o.kind != OK::Function) continue;
          const ir::Function& callee = module.functions[static_cast<std::size_t>(o.target)];
          if (!callee.has_body && callee.name != "vprintf" && callee.name != "__assertfail" && callee.name != "cudaGraphSetConditional") out.push_back({"call " + callee.name + " (no body in this module)", ins.loc.ptx_line});
          todo.push_back(&callee);
        }
      }
      // Functions whose address is taken may be called indirectly.
      for (const auto& o : ins.operands)
        if (o.kind == OK::Function && ins.op != Opcode::call_) todo.push_back(&module.functions[static_cast<std::size_t>(o.target)]);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------- dispatch
// The interpreter's registers as semantics/ops/execute.hpp's frame: one thread's, concrete values.
struct Machine::ValueFrame {
  static constexpr bool models_float = true;
  Machine& m;
  Thread& t;
  CV read(const Operand& o, unsigned width, bool is_signed) { return m.read(t, o, width, is_signed); }
  void write(const Operand& o, const CV& v, bool is_signed) { m.write(t, o, v, is_signed); }
  void write_register(std::int32_t r, const CV& v) { m.reg(t, r) = v; }
  CV carry() const { return t.carry; }
  void set_carry(const CV& c) { t.carry = c; }
};

// mov with a vector on either side (9.7.9.10): unpack, element-wise, pack.
void Machine::exec_vector_mov(Thread& t, const Instruction& ins, const Decoded& d) {
  const auto& o = ins.operands;
  const unsigned w = d.w0;
  const unsigned total = w * (ins.q.vector_width > 1 ? ins.q.vector_width : 1);
  if (o[0].kind == OK::Vector && o[1].kind != OK::Vector && ins.q.vector_width == 1) {
    write(t, o[0], read(t, o[1], w));  // mov.b64 {a, b}, x: unpack
  } else if (o[0].kind == OK::Vector && o[1].kind == OK::Vector) {
    std::vector<CV> vals;  // all sources are read before any destination is written
    for (std::size_t k = 0; k < o[1].elements.size(); ++k) vals.push_back(read(t, o[1].elements[k], w));
    for (std::size_t k = 0; k < o[0].elements.size() && k < vals.size(); ++k) write(t, o[0].elements[k], vals[k]);
  } else if (o[0].kind == OK::Register && o[0].component < 0 && ins.q.vector_width > 1) {
    // mov.v4.u32 v, {a,b,c,d} or v, w: element-wise over the vector register's slots
    const auto& r = mod_.functions[t.frames.back().fn].registers[static_cast<std::size_t>(o[0].reg)];
    if (o[1].kind == OK::Vector) {
      for (std::size_t k = 0; k < o[1].elements.size() && k < r.type.vector; ++k) reg(t, o[0].reg, static_cast<int>(k)) = fit(read(t, o[1].elements[k], w), w, false);
    } else if (o[1].kind == OK::Register) {
      for (unsigned k = 0; k < r.type.vector; ++k) reg(t, o[0].reg, static_cast<int>(k)) = reg(t, o[1].reg, static_cast<int>(k));
    }
  } else {
    write(t, o[0], read(t, o[1], total), d.s0);  // mov.b64 d, {a, b}: pack (read() concatenates the elements, a lowest)
  }
}

// cvta.space.size d, a: space address -> generic; cvta.to.space.size d, a: generic -> space address.
void Machine::exec_cvta(Thread& t, const Instruction& ins, const Decoded& d) {
  const auto& o = ins.operands;
  const unsigned w = d.w0;
  StateSpace s = ins.q.space.value_or(StateSpace::global);
  std::uint64_t a = read(t, o[1], 64).u64();
  if (o[1].kind == OK::Variable) a = variable_address(t, o[1].var).second;
  std::uint64_t base = Machine::to_generic(s, 0);
  std::uint64_t r = ins.q.has(ir::Flag::to) ? a - base : a + base;
  write(t, o[0], Concrete::lit(w, r));
}

// isspacep.space p, a: whether the generic address a lies in the space's window.
void Machine::exec_isspacep(Thread& t, const Instruction& ins) {
  const auto& o = ins.operands;
  StateSpace s = ins.q.space.value_or(StateSpace::global);
  std::uint64_t a = read(t, o[1], 64).u64();
  // .shared::cta: the executing CTA's window; .shared::cluster: any CTA of the cluster (ISA 5.1.4, cluster.cpp).
  bool in_shared = in_shared_window(s == StateSpace::shared ? StateSpace::shared : StateSpace::shared_cluster, a);
  bool in_local = a >= kLocalWindow && a < kLocalWindow + kWindowSize;
  bool in_param = a >= kParamWindow && a < kParamWindow + kWindowSize;
  bool r = s == StateSpace::shared || s == StateSpace::shared_cluster ? in_shared : s == StateSpace::local ? in_local : s == StateSpace::param ? in_param
         : !((a >= kSharedWindow && a < kSharedWindow + kWindowSize) || in_local || in_param);
  write(t, o[0], Concrete::boolean(r));
}

// ld, ldu and st, scalar or vector (ops::memory_access: which operand is the address and which the value, the
// element width and count): one access of the element width per element.
void Machine::exec_load_store(Thread& t, const Instruction& ins, const Decoded& d, const ops::MemoryAccessForm& f) {
  const auto& o = ins.operands;
  const unsigned w = f.element_bits;
  const bool is_st = f.kind == ops::AccessKind::store;
  const Operand& addr_op = o[f.address];
  const Operand& val = o[static_cast<std::size_t>(is_st ? f.source : f.destination)];
  StateSpace space = d.space;
  const std::uint64_t a = access_address(t, addr_op, space);
  const unsigned eb = f.element_bytes();
  const unsigned n = f.count;
  if (!aligned(t, a, f.bytes(), is_st)) return;
  if (opt_.observer) observe(t, ins, is_st ? MemoryAccess::Kind::write : MemoryAccess::Kind::read, space, a, f.bytes());
  if (n > 1 || val.kind == OK::Vector) {
    for (unsigned k = 0; k < n && k < val.elements.size(); ++k) {
      // `_` in the vector: "no data is being written at the corresponding destination address" (9.7.9.11), "data
      // from corresponding memory location is not read" (9.7.9.8).
      if (val.elements[k].kind == OK::Sink) continue;
      if (is_st) store(t, space, a + k * eb, read(t, val.elements[k], w, d.s0), eb);
      else {
        CV v = load(t, space, a + k * eb, w);
        if (!stop_) write(t, val.elements[k], v, d.s0);
      }
    }
    if (val.kind != OK::Vector && val.kind == OK::Register) {  // a .v register as a whole
      for (unsigned k = 0; k < n; ++k) {
        if (is_st) store(t, space, a + k * eb, reg(t, val.reg, static_cast<int>(k)), eb);
        else {
          CV v = load(t, space, a + k * eb, w);
          if (!stop_) reg(t, val.reg, static_cast<int>(k)) = fit(v, reg(t, val.reg, static_cast<int>(k)).w, d.s0);
        }
      }
    }
    return;
  }
  if (is_st) store(t, space, a, read(t, val, w, d.s0), eb);
  else {
    CV v = load(t, space, a, w);
    if (!stop_) write(t, val, v, d.s0);
  }
}

// ISA 9.7.13.5 atom / 9.7.13.6 red: the interpreter runs one thread at a time, so read-modify-write is
// atomic by construction. A vector form (.v2/.v4/.v8) applies the operation to each element, element k of d and b
// at a + k * element size ("accesses adjacent scalar elements in memory").
void Machine::exec_atomic(Thread& t, const Instruction& ins, const Decoded& d, const ops::MemoryAccessForm& f) {
  const auto& o = ins.operands;
  const unsigned w = f.element_bits;
  StateSpace space = d.space;
  const std::uint64_t a = access_address(t, o[f.address], space);
  const unsigned eb = f.element_bytes();
  if (!aligned(t, a, f.bytes(), true)) return;
  ops::AtomicForm form = ops::atomic_form(ins);
  form.f32_ftz = resolve(space, a).first != StateSpace::shared;  // a generic address may point to shared memory
  auto element = [&](int operand, unsigned k) -> const Operand& {
    const Operand& x = o[static_cast<std::size_t>(operand)];
    return x.kind == OK::Vector && k < x.elements.size() ? x.elements[k] : x;
  };
  std::vector<CV> old, written;
  bool wrote = false;
  for (unsigned k = 0; k < f.count; ++k) {
    old.push_back(load(t, space, a + k * eb, w));
    if (stop_) return;
    const CV b = read(t, element(f.source, k), w, d.s0);
    written.push_back(ops::atomic_written(C, form, old[k], b, f.swap >= 0 ? read(t, element(f.swap, k), w) : b));
    wrote = wrote || ops::atomic_writes(C, form, old[k], b).v != 0;
  }
  if (opt_.observer)
    observe(t, ins, f.returns_value() ? MemoryAccess::Kind::atomic : MemoryAccess::Kind::reduction, space, a, f.bytes(), wrote);
  for (unsigned k = 0; k < f.count; ++k) store(t, space, a + k * eb, written[k], eb);
  for (unsigned k = 0; k < f.count && f.returns_value() && !stop_; ++k) write(t, element(f.destination, k), old[k], d.s0);
}

// cp.async (below), cp.async.mbarrier.arrive (mbarrier.cpp), its commits and waits, and the bulk copies.
void Machine::exec_async_copy(Thread& t, const Instruction& ins) {
  const auto& o = ins.operands;
  if (ins.q.has_word("bulk")) {  // ISA 9.7.9.25.4-6: bulk_copy.cpp
    exec_bulk(t, ins);
    return;
  }
  // ISA 9.7.9.25.3.1 cp.async [dst], [src], cp-size{, src-size | ignore-src}{, cache-policy}: cp-size bytes of
  // shared memory at dst get the first src-size bytes at src (all of them without src-size, none when
  // ignore-src is true) and zeros after. Completed at issue (see instruction_supported()); an observer hears of the copy as asynchronous and of the
  // commits and waits that complete it.
  if (ir::mbarrier_op(ins) == ir::MbarrierOp::copy_arrive) {
    exec_mbarrier(t, ins);
    return;
  }
  if (ir::async_copy_role(ins) != ir::AsyncCopyRole::copy) {
    if (opt_.observer) opt_.observer->async_group(thread_ref(t), ins);
    return;
  }
  const std::uint64_t dst = address(t, o[0]), src = address(t, o[1]);
  const std::uint64_t cp_size = read(t, o[2], 32).u64();
  std::uint64_t src_size = cp_size;
  if (const ir::AsyncCopySource source = ir::async_copy_source(mod_.functions[t.frames.back().fn], ins); source.operand >= 0) {
    const auto k = static_cast<std::size_t>(source.operand);
    src_size = source.ignore_src ? (read(t, o[k], 1).u64() ? 0 : cp_size) : std::min(cp_size, read(t, o[k], 32).u64());  // above cp-size: undefined
  }
  if (opt_.observer) {
    if (src_size) observe(t, ins, MemoryAccess::Kind::read, StateSpace::global, src, static_cast<std::uint32_t>(src_size), true, true);
    observe(t, ins, MemoryAccess::Kind::write, StateSpace::shared, dst, static_cast<std::uint32_t>(cp_size), true, true);
  }
  for (std::uint64_t k = 0; k < cp_size && !stop_; ++k)
    store(t, StateSpace::shared, dst + k, k < src_size ? load(t, StateSpace::global, src + k, 8) : Concrete::lit(8, 0), 1);
}

bool Machine::exec_lane(Thread& t, const Instruction& ins, const Decoded& d) {
  ValueFrame frame{*this, t};
  switch (ops::execute_value(C, frame, ins, d)) {
    case ops::Executed::done: return true;
    case ops::Executed::unmodelled: return false;
    case ops::Executed::other: break;
  }
  // By kind (semantics/ops/effect.hpp). Warp exchanges, barriers, control flow and the warp-collective matrix forms
  // ran per warp (machine.cpp) and do not come here.
  switch (ops::effect_of(ins.op)) {
    case ops::Effect::value: exec_vector_mov(t, ins, d); return true;  // scalar moves are execute_value's
    case ops::Effect::address:
      if (ins.op == Opcode::cvta_) exec_cvta(t, ins, d);
      else if (ins.op == Opcode::isspacep_) exec_isspacep(t, ins);
      else if (ins.op == Opcode::mapa_) exec_mapa(t, ins, d);
      else exec_getctarank(t, ins, d);
      return true;
    case ops::Effect::memory:
      if (async_store_form(ins)) exec_async_store(t, ins, d);  // st.async / red.async with [mbar], st.bulk
      else if (const auto f = ops::memory_access(ins); !f) return false;
      else if (f->atomic()) exec_atomic(t, ins, d, *f);
      else exec_load_store(t, ins, d, *f);
      return true;
    case ops::Effect::async_copy: exec_async_copy(t, ins); return true;
    case ops::Effect::mbarrier: exec_mbarrier(t, ins); return true;
    case ops::Effect::texture:
      if (ins.op == Opcode::tex_ || ins.op == Opcode::tld4_ || ins.op == Opcode::txq_ || ins.op == Opcode::istypep_) exec_texture(t, ins);
      else exec_surface(t, ins);
      return true;
    case ops::Effect::tensormap: exec_tensormap(t, ins); return true;
    case ops::Effect::cluster_launch_control: exec_cluster_launch_control(t, ins); return true;
    case ops::Effect::matrix:
      if (ins.op == Opcode::wgmma_) exec_wgmma_lane(t, ins);
      else if (ins.op == Opcode::tcgen05_) exec_tcgen05_lane(t, ins);
      else return false;
      return true;
    case ops::Effect::stack: exec_stack(t, ins, d); return true;
    case ops::Effect::fence:
      if (opt_.observer) observe_fence(t, ins);
      return true;
    case ops::Effect::hint:
      // Memory ordering is trivially satisfied by one-at-a-time execution; hints have no functional effect. A cache
      // policy (createpolicy) is an opaque value: 0. (setmaxnreg ran per warpgroup, machine.cpp.)
      if (ins.op == Opcode::createpolicy_) write(t, ins.operands[0], Concrete::lit(64, 0));
      return true;
    default:  // multimem
      return false;
  }
}

}  // namespace ptx::interp
