// Per-thread instruction execution of the interpreter: operand access (registers, immediates, special
// registers ISA 10, addresses ISA 6.4), bounds-checked memory, and the dispatch of each ISA 9.7 instruction to
// its one definition in semantics/ops, instantiated with the concrete domain.
#include "semantics/interp/machine.hpp"
#include "semantics/ir/address.hpp"
#include "semantics/ops/atomic.hpp"
#include "semantics/ops/compare.hpp"
#include "semantics/ops/convert.hpp"
#include "semantics/ops/logic.hpp"
#include "semantics/ops/minifloat.hpp"
#include "semantics/ops/video.hpp"

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
      if (var.space == StateSpace::shared) return {StateSpace::shared, local_shared_[{fr.fn, v.index}]};
      return {var.space, fr.stack_base + fi.local_off[v.index]};
    }
    default: {
      const ir::Variable& var = mod_.globals[v.index];
      return {var.space == StateSpace::shared_cluster ? StateSpace::shared : var.space, global_addr_[v.index]};
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
    case OK::PredPair: reg(t, o.reg) = fit(v, 1, false); break;
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

void Machine::observe(Thread& t, const Instruction& ins, MemoryAccess::Kind kind, StateSpace space, std::uint64_t addr,
                      std::uint32_t bytes, bool wrote, bool async) {
  MemoryAccess a;
  a.async = async;
  a.ins = &ins;
  a.fn = t.top->fn;
  a.pc = static_cast<std::uint32_t>(&ins - mod_.functions[a.fn].body.data());
  a.kind = kind;
  a.wrote = wrote;
  std::tie(a.space, a.addr) = resolve(space, addr);
  if (a.space == StateSpace::shared_cluster) a.space = StateSpace::shared;
  a.bytes = bytes;
  opt_.observer->access(thread_ref(t), a);
}

std::uint8_t* Machine::locate(Thread& t, StateSpace space, std::uint64_t addr, std::uint64_t size, bool is_write) {
  const StateSpace given = space;
  std::uint64_t a = addr;
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
      if (r) p = r->bytes.data() + (a - r->base);
      if (r && !r->covers(a, size) && result_.stats.overrun_accesses++ == 0)  // inside the GPU slack only
        result_.first_overrun = {Problem::Kind::out_of_bounds, describe("out-of-bounds") + " past '" + r->name + "', let through by the GPU slack", {position(t)}};
      break;
    }
    case StateSpace::shared: case StateSpace::shared_cluster:  // this CTA's or, through the cluster window, another's
      p = shared_pointer(t, given, a, size);
      break;
    case StateSpace::local: case StateSpace::param:
      if (a <= t.stack.size() && size <= t.stack.size() - a) p = t.stack.data() + a;
      break;
    default: break;
  }
  if (!p) fail(Problem::Kind::out_of_bounds, describe("out-of-bounds"), {&t});
  return p;
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

// ---------------------------------------------------------------------------------------------- support
namespace {
bool exotic_type(ir::ScalarType s) {
  using ir::ScalarType;
  switch (s) {
    case ScalarType::tf32: case ScalarType::e4m3: case ScalarType::e5m2: case ScalarType::e4m3x2: case ScalarType::e5m2x2:
    case ScalarType::e2m1x2: case ScalarType::e2m3x2: case ScalarType::e3m2x2: case ScalarType::ue8m0x2: case ScalarType::e4m3x4:
    case ScalarType::e5m2x4: case ScalarType::e2m3x4: case ScalarType::e3m2x4: case ScalarType::e2m1x4: case ScalarType::s16x2:
    case ScalarType::u16x2: case ScalarType::s8x4: case ScalarType::u8x4: case ScalarType::texref: case ScalarType::samplerref:
    case ScalarType::surfref: case ScalarType::b128:
      return true;
    default: return false;
  }
}

// cvt to and from the narrow float pairs of ISA 5.2.5 (9.7.9.21) beyond e4m3x2/e5m2x2 -> f16x2: two f32 (or one
// f16x2) -> .e4m3x2/.e5m2x2/.e2m1x2/.e2m3x2/.e3m2x2 with .rn.satfinite, and .f16x2 <- .e2m1x2/.e2m3x2/.e3m2x2 with .rn.
enum class NarrowCvt { to_pair, from_pair };
const ops::MiniFormat* mini_format(ir::ScalarType t) {
  switch (t) {
    case ir::ScalarType::e4m3x2: return &ops::kE4M3;
    case ir::ScalarType::e5m2x2: return &ops::kE5M2;
    case ir::ScalarType::e2m1x2: return &ops::kE2M1;
    case ir::ScalarType::e2m3x2: return &ops::kE2M3;
    case ir::ScalarType::e3m2x2: return &ops::kE3M2;
    case ir::ScalarType::e4m3x4: return &ops::kE4M3;
    case ir::ScalarType::e5m2x4: return &ops::kE5M2;
    case ir::ScalarType::e2m3x4: return &ops::kE2M3;
    case ir::ScalarType::e3m2x4: return &ops::kE3M2;
    case ir::ScalarType::e2m1x4: return &ops::kE2M1;
    case ir::ScalarType::f16x2: return &ops::kF16;
    case ir::ScalarType::bf16x2: return &ops::kBF16;
    default: return nullptr;
  }
}
bool is_x2_narrow(ir::ScalarType t) {
  using ST = ir::ScalarType;
  return t == ST::e4m3x2 || t == ST::e5m2x2 || t == ST::e2m1x2 || t == ST::e2m3x2 || t == ST::e3m2x2;
}
std::optional<NarrowCvt> narrow_cvt(const Instruction& ins) {
  const auto& t = ins.q.types;
  if (ins.op != Opcode::cvt_ || t.size() != 2 || ins.q.rounding != ir::Rounding::rn) return std::nullopt;
  const ir::ScalarType dt = t[0].scalar, at = t[1].scalar;
  if (is_x2_narrow(dt) && ins.q.has(ir::Flag::satfinite) && !ins.q.has(ir::Flag::ftz)) {
    if (at == ir::ScalarType::f32 && ins.operands.size() == 3) return NarrowCvt::to_pair;
    if (at == ir::ScalarType::f16x2 && ins.operands.size() == 2 && (dt == ir::ScalarType::e4m3x2 || dt == ir::ScalarType::e5m2x2))
      return NarrowCvt::to_pair;
  }
  if (dt == ir::ScalarType::f16x2 && ins.operands.size() == 2 &&
      (at == ir::ScalarType::e2m1x2 || at == ir::ScalarType::e2m3x2 || at == ir::ScalarType::e3m2x2))
    return NarrowCvt::from_pair;
  return std::nullopt;
}
// d[hi] = convert(a), d[lo] = convert(b); 6-bit values sit in bytes with 2 zero MSBs. From .f16x2: a's halves, each
// widened to f32 first (exact, so the rounding is the direct one).
CV cvt_to_narrow_pair(const Concrete& C, const Instruction& ins, bool relu, CV a, CV b) {
  const ops::MiniFormat& f = *mini_format(ins.q.types[0].scalar);
  if (ins.q.types[1].scalar == ir::ScalarType::f16x2) {
    const ops::FpMods exact{};
    b = ops::cvt_f2f(C, domain::FpFormat::f16, domain::FpFormat::f32, exact, Concrete::extract(a, 15, 0));
    a = ops::cvt_f2f(C, domain::FpFormat::f16, domain::FpFormat::f32, exact, Concrete::extract(a, 31, 16));
  }
  const unsigned lane = f.bits == 4 ? 4 : 8;
  CV hi = Concrete::zext(ops::f32_to_mini(C, f, relu, a), lane), lo = Concrete::zext(ops::f32_to_mini(C, f, relu, b), lane);
  return Concrete::concat(hi, lo);
}
CV cvt_from_narrow_pair(const Concrete& C, const Instruction& ins, bool relu, CV a) {
  const ops::MiniFormat& f = *mini_format(ins.q.types[1].scalar);
  const unsigned lane = f.bits == 4 ? 4 : 8;
  CV hi = Concrete::extract(a, 2 * lane - 1, lane), lo = Concrete::extract(a, lane - 1, 0);
  auto one = [&](CV x) { return ops::mini_to_f16(C, f, relu, Concrete::extract(x, f.bits - 1, 0)); };
  return Concrete::concat(one(hi), one(lo));
}


// cvt.rs{.relu}.satfinite.{e4m3x4,e5m2x4,e2m3x4,e3m2x4,e2m1x4}.f32 d, {a, b, e, f}, rbits and
// cvt.rs{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b, rbits (9.7.9.21; .satfinite is mandatory for the x4 formats).
bool stochastic_cvt(const Instruction& ins) {
  using ST = ir::ScalarType;
  const auto& t = ins.q.types;
  if (ins.op != Opcode::cvt_ || ins.q.rounding != ir::Rounding::rs || t.size() != 2 || t[1].scalar != ST::f32 ||
      ins.q.has(ir::Flag::ftz) || ins.q.has(ir::Flag::sat) || !mini_format(t[0].scalar) || is_x2_narrow(t[0].scalar))
    return false;
  const auto& o = ins.operands;
  if (t[0].scalar == ST::f16x2 || t[0].scalar == ST::bf16x2) return o.size() == 4;
  return ins.q.has(ir::Flag::satfinite) && o.size() == 3 && o[1].kind == OK::Vector && o[1].elements.size() == 4;
}
// The random bits of element i (0..3 = a, b, e, f) from rbits, 9.7.9.21: .f16x2 a: the 13 LSBs of rbits[31:16], b: of
// rbits[15:0]; .bf16x2 a: rbits[31:16], b: rbits[15:0]; .e4m3x4/.e5m2x4/.e2m3x4/.e3m2x4 "lower 16-bits are used for
// operands e, f and upper 16 bits are used for operands a, b": read as written, a and b each use all of rbits[31:16]
// and e and f all of rbits[15:0]; .e2m1x4 "upper 8-bits from both 16-bits half ... for operands a, b" and the lower
// 8 bits for e, f: a: rbits[31:24], b: rbits[15:8], e: rbits[23:16], f: rbits[7:0]. Figures 40 and 41, which draw
// these layouts, are pictures the text does not carry; which upper byte goes to a and which to b is chosen here
// (a from the upper half, in the order the operands are written).
CV stochastic_bits(ir::ScalarType dt, unsigned i, const CV& rbits) {
  using ST = ir::ScalarType;
  switch (dt) {  // f16x2/bf16x2: i = 0 (a) or 1 (b)
    case ST::f16x2: return Concrete::extract(rbits, i == 0 ? 28 : 12, i == 0 ? 16 : 0);
    case ST::bf16x2: return Concrete::extract(rbits, i == 0 ? 31 : 15, i == 0 ? 16 : 0);
    case ST::e2m1x4: {
      const unsigned lsb = (i < 2 ? 8u : 0u) + (i == 0 || i == 2 ? 16u : 0u);
      return Concrete::extract(rbits, lsb + 7, lsb);
    }
    default: return Concrete::extract(rbits, i < 2 ? 31 : 15, i < 2 ? 16 : 0);
  }
}
// d: the converted elements from the most significant end (9.7.9.21 semantics): a, b for the x2 types, a, b, e, f for
// the x4 types in 8-bit lanes (6-bit formats with two zero MSBs) or, for e2m1x4, 4-bit lanes of a 16-bit d.
CV cvt_stochastic(const Concrete& C, const Instruction& ins, const std::vector<CV>& src, const CV& rbits) {
  const ir::ScalarType dt = ins.q.types[0].scalar;
  const ops::MiniFormat& f = *mini_format(dt);
  const bool relu = ins.q.has(ir::Flag::relu), satfinite = ins.q.has(ir::Flag::satfinite);
  const unsigned lane = f.bits == 4 ? 4 : f.bits == 16 ? 16 : 8;
  CV d;
  for (unsigned i = 0; i < src.size(); ++i) {
    CV e = Concrete::zext(ops::f32_to_mini_rs(C, f, relu, satfinite, src[i], stochastic_bits(dt, i, rbits)), lane);
    d = i == 0 ? e : Concrete::concat(d, e);
  }
  return d;
}

// cvt.{rz,rp}{.satfinite}.ue8m0x2.f32 d, a, b; cvt.{rz,rp}{.satfinite}.ue8m0x2.bf16x2 d, a; cvt.rn.bf16x2.ue8m0x2 d, a
// (9.7.9.21; ptxas 13.0 rejects .relu and other roundings on all three, as the syntax block has it).
enum class Ue8m0Cvt { from_f32, from_bf16x2, to_bf16x2 };
std::optional<Ue8m0Cvt> ue8m0_cvt(const Instruction& ins) {
  using ST = ir::ScalarType;
  const auto& t = ins.q.types;
  if (ins.op != Opcode::cvt_ || t.size() != 2 || !ins.q.rounding || ins.q.has(ir::Flag::relu) || ins.q.has(ir::Flag::ftz) ||
      ins.q.has(ir::Flag::sat))
    return std::nullopt;
  const auto r = *ins.q.rounding;
  const std::size_t n = ins.operands.size();
  if (t[0].scalar == ST::ue8m0x2 && (r == ir::Rounding::rz || r == ir::Rounding::rp)) {
    if (t[1].scalar == ST::f32 && n == 3) return Ue8m0Cvt::from_f32;
    if (t[1].scalar == ST::bf16x2 && n == 2) return Ue8m0Cvt::from_bf16x2;
  }
  if (t[0].scalar == ST::bf16x2 && t[1].scalar == ST::ue8m0x2 && r == ir::Rounding::rn && n == 2 &&
      !ins.q.has(ir::Flag::satfinite))
    return Ue8m0Cvt::to_bf16x2;
  return std::nullopt;
}
// d[15:8] from a (or a's upper bf16), d[7:0] from b (or a's lower bf16); bf16 -> f32 is exact (bits << 16).
// From .ue8m0x2: d[31:16] from a[15:8], d[15:0] from a[7:0].
CV cvt_ue8m0(const Concrete& C, const Instruction& ins, Ue8m0Cvt form, const CV& a, const CV& b) {
  if (form == Ue8m0Cvt::to_bf16x2)
    return Concrete::concat(ops::ue8m0_to_bf16(C, Concrete::extract(a, 15, 8)), ops::ue8m0_to_bf16(C, Concrete::extract(a, 7, 0)));
  const bool up = ins.q.rounding == ir::Rounding::rp, satfinite = ins.q.has(ir::Flag::satfinite);
  CV hi = a, lo = b;
  if (form == Ue8m0Cvt::from_bf16x2) {
    hi = Concrete::concat(Concrete::extract(a, 31, 16), Concrete::lit(16, 0));
    lo = Concrete::concat(Concrete::extract(a, 15, 0), Concrete::lit(16, 0));
  }
  return Concrete::concat(ops::f32_to_ue8m0(C, up, satfinite, hi), ops::f32_to_ue8m0(C, up, satfinite, lo));
}

}  // namespace

bool instruction_supported(const Instruction& ins) {
  if (narrow_cvt(ins) || stochastic_cvt(ins) || ue8m0_cvt(ins)) return true;
  if (ins.op == Opcode::mma_) {
    // mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}.{f16,bf16}.f32 and .m16n8k32.row.col.s32.{s8,u8}.{s8,u8}.s32
    auto has = [&](const char* w) { return ins.q.has_word(w); };
    const auto& t = ins.q.types;
    if (t.size() != 4 || !has("row") || !has("col") || has("satfinite") || ins.operands.size() != 4) return false;
    using ST = ir::ScalarType;
    if (has("m16n8k16")) return t[0].scalar == ST::f32 && t[3].scalar == ST::f32 && t[1].scalar == t[2].scalar &&
                                (t[1].scalar == ST::f16 || t[1].scalar == ST::bf16);
    if (has("m16n8k32")) return t[0].scalar == ST::s32 && t[3].scalar == ST::s32 && (t[1].scalar == ST::s8 || t[1].scalar == ST::u8) &&
                                (t[2].scalar == ST::s8 || t[2].scalar == ST::u8) && t[1].scalar == t[2].scalar;
    return false;
  }
  if (ins.op == Opcode::cvt_ && ins.q.has(ir::Flag::pack)) return ir::cvt_pack_form(ins).has_value();
  if (ins.op == Opcode::cvt_ && ins.q.types.size() == 2 && ins.q.types[0].scalar == ir::ScalarType::f16x2 &&
      (ins.q.types[1].scalar == ir::ScalarType::e4m3x2 || ins.q.types[1].scalar == ir::ScalarType::e5m2x2))
    return true;
  for (const auto& t : ins.q.types)
    if (exotic_type(t.scalar)) return false;
  switch (ins.op) {
    case Opcode::add_: case Opcode::sub_: case Opcode::mul_: case Opcode::mad_: case Opcode::mul24_: case Opcode::mad24_:
    case Opcode::sad_: case Opcode::div_: case Opcode::rem_: case Opcode::abs_: case Opcode::neg_: case Opcode::min_:
    case Opcode::max_: case Opcode::popc_: case Opcode::clz_: case Opcode::bfind_: case Opcode::brev_: case Opcode::bfe_:
    case Opcode::bfi_: case Opcode::szext_: case Opcode::bmsk_: case Opcode::dp4a_: case Opcode::dp2a_: case Opcode::addc_:
    case Opcode::subc_: case Opcode::madc_: case Opcode::testp_: case Opcode::copysign_: case Opcode::fma_: case Opcode::rcp_:
    case Opcode::sqrt_: case Opcode::rsqrt_: case Opcode::sin_: case Opcode::cos_: case Opcode::lg2_: case Opcode::ex2_:
    case Opcode::tanh_: case Opcode::set_: case Opcode::setp_: case Opcode::selp_: case Opcode::slct_: case Opcode::and_:
    case Opcode::or_: case Opcode::xor_: case Opcode::not_: case Opcode::cnot_: case Opcode::lop3_: case Opcode::shf_:
    case Opcode::shl_: case Opcode::shr_: case Opcode::mov_: case Opcode::shfl_: case Opcode::prmt_: case Opcode::ld_:
    case Opcode::ldu_: case Opcode::st_: case Opcode::prefetch_: case Opcode::prefetchu_: case Opcode::isspacep_:
    case Opcode::cvta_: case Opcode::cvt_: case Opcode::bra_: case Opcode::call_: case Opcode::ret_: case Opcode::exit_:
    case Opcode::bar_: case Opcode::barrier_: case Opcode::membar_: case Opcode::fence_: case Opcode::atom_: case Opcode::red_:
    case Opcode::vote_: case Opcode::match_: case Opcode::activemask_: case Opcode::redux_: case Opcode::elect_:
    case Opcode::nanosleep_: case Opcode::trap_: case Opcode::brkpt_: case Opcode::pmevent_: case Opcode::createpolicy_:
    case Opcode::applypriority_: case Opcode::discard_: case Opcode::griddepcontrol_:
      break;
    case Opcode::cp_:
      // The copy runs when it is issued, one of the executions the spec allows (reading the destination before
      // the wait is undefined behaviour, 9.7.9.25.1); an observer is told it is in flight until its group completes.
      return ir::async_copy_role(ins) != ir::AsyncCopyRole::none || ir::mbarrier_op(ins) == ir::MbarrierOp::copy_arrive;
    case Opcode::mbarrier_:  // every form (mbarrier.cpp), on this CTA's objects or, where allowed, another's
    case Opcode::mapa_: case Opcode::getctarank_:  // cluster.cpp
      return true;
    case Opcode::ldmatrix_: {
      // the b16 m8n8 shapes (ISA 9.7.14.5.15); the .b8 m16n16 / m8n16 forms of sm_100 are not modelled
      return ins.q.has_word("m8n8") && ins.q.has_word("b16");
    }
    case Opcode::vadd_: case Opcode::vsub_: case Opcode::vabsdiff_: case Opcode::vmin_: case Opcode::vmax_:
    case Opcode::vshl_: case Opcode::vshr_:
      // the full-word forms (no .b0-.h1 selectors, which the IR does not decode)
      return ins.q.types.size() == 3 && (ins.operands.size() == 3 || (ins.operands.size() == 4 && ins.q.atom_op));
    default:
      return false;
  }
  // Forms of supported opcodes that are not modelled.
  if (ins.op == Opcode::fence_ && ins.q.has(ir::Flag::proxy)) return true;
  if (ins.op == Opcode::cvt_ && ins.q.rounding == ir::Rounding::rs) return false;
  // st.bulk (9.7.9.13) and the mbarrier-completed st.async / red.async (9.7.9.12, 9.7.13.7: a complete-tx on the
  // mbarrier when the store lands) are not executed as the plain store they would otherwise run as.
  if ((ins.op == Opcode::st_ || ins.op == Opcode::red_) && (ins.q.has(ir::Flag::bulk) || ins.q.has(ir::Flag::mbarrier_complete_tx_bytes)))
    return false;
  return true;
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
          if (!callee.has_body && callee.name != "vprintf" && callee.name != "__assertfail") out.push_back({"call " + callee.name + " (no body in this module)", ins.loc.ptx_line});
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
bool Machine::exec_lane(Thread& t, const Instruction& ins, const Decoded& d) {
  const auto& o = ins.operands;
  const unsigned w = d.w0;
  auto R = [&](std::size_t i, unsigned width, bool s = false) { return read(t, o[i], width, s); };
  auto W = [&](std::size_t i, CV v, bool s = false) { write(t, o[i], v, s); };
  const domain::FpFormat fmt = d.fmt0;
  ops::FpMods mods = d.mods;
  // Apply a scalar float operation to a packed .f16x2/.bf16x2 value, or directly.
  auto fp2 = [&](auto&& fn) {
    if (d.packed) return ops::packed2(C, R(1, 32), R(2, 32), fn);
    return fn(R(1, w), R(2, w));
  };
  auto fp3 = [&](auto&& fn) {
    if (d.packed) return ops::packed3(C, R(1, 32), R(2, 32), R(3, 32), fn);
    return fn(R(1, w), R(2, w), R(3, w));
  };
  switch (ins.op) {
    // ---- 9.7.1 / 9.7.2 integer, 9.7.3-5 float arithmetic
    case Opcode::add_: case Opcode::sub_: {
      const bool sub = ins.op == Opcode::sub_;
      if (d.f0 && ins.q.types.size() == 2) {  // add/sub.f32.{f16,bf16} d, a, c (ISA 9.7.5.1-2)
        W(0, ops::fadd_mixed(C, d.fmt1, mods, sub, R(1, 16), R(2, 32)));
      } else if (d.f0) {
        W(0, fp2([&](CV a, CV b) { return sub ? ops::fsub(C, fmt, mods, a, b) : ops::fadd(C, fmt, mods, a, b); }));
      } else if (ins.q.has(ir::Flag::cc)) {
        auto r = sub ? ops::sub_carry(C, R(1, w), R(2, w), Concrete::lit(1, 1)) : ops::add_carry(C, R(1, w), R(2, w), Concrete::lit(1, 0));
        W(0, r.value);
        t.carry = r.carry;
      } else if (d.mods.sat) {
        W(0, ops::add_sat_s(C, R(1, w, true), R(2, w, true), sub));
      } else {
        W(0, sub ? ops::sub(C, R(1, w), R(2, w)) : ops::add(C, R(1, w), R(2, w)), d.s0);
      }
      return true;
    }
    case Opcode::addc_: case Opcode::subc_: {
      auto r = ins.op == Opcode::subc_ ? ops::sub_carry(C, R(1, w), R(2, w), t.carry) : ops::add_carry(C, R(1, w), R(2, w), t.carry);
      W(0, r.value);
      if (ins.q.has(ir::Flag::cc)) t.carry = r.carry;
      return true;
    }
    case Opcode::mul_: {
      if (d.f0) {
        W(0, fp2([&](CV a, CV b) { return ops::fmul(C, fmt, mods, a, b); }));
      } else if (ins.q.has(ir::Flag::wide)) {
        W(0, ops::mul_wide(C, d.s0, R(1, w, d.s0), R(2, w, d.s0)));
      } else if (ins.q.has(ir::Flag::hi)) {
        W(0, ops::mul_hi(C, d.s0, R(1, w, d.s0), R(2, w, d.s0)));
      } else {
        W(0, ops::mul_lo(C, R(1, w), R(2, w)), d.s0);
      }
      return true;
    }
    case Opcode::mad_: case Opcode::madc_: case Opcode::fma_: {
      if (d.f0 && ins.q.types.size() == 2) {  // fma.rnd.f32.{f16,bf16} d, a, b, c (ISA 9.7.5.3)
        W(0, ops::ffma_mixed(C, d.fmt1, mods, R(1, 16), R(2, 16), R(3, 32)));
        return true;
      }
      if (d.f0) {
        W(0, fp3([&](CV a, CV b, CV c) { return ops::ffma(C, fmt, mods, a, b, c); }));
        return true;
      }
      ops::MulPart part = ins.q.has(ir::Flag::wide) ? ops::MulPart::wide : ins.q.has(ir::Flag::hi) ? ops::MulPart::hi : ops::MulPart::lo;
      CV p = ops::mul_part(C, part, d.s0, R(1, w, d.s0), R(2, w, d.s0));
      CV c = R(3, p.w, d.s0);
      if (ins.op == Opcode::madc_ || ins.q.has(ir::Flag::cc)) {
        auto r = ops::add_carry(C, p, c, ins.op == Opcode::madc_ ? t.carry : Concrete::lit(1, 0));
        W(0, r.value);
        if (ins.q.has(ir::Flag::cc)) t.carry = r.carry;
      } else if (d.mods.sat && part == ops::MulPart::hi) {
        W(0, ops::add_sat_s(C, p, c));
      } else {
        W(0, ops::add(C, p, c), d.s0);
      }
      return true;
    }
    case Opcode::mul24_: case Opcode::mad24_: {
      CV r = ops::mul24(C, d.s0, ins.q.has(ir::Flag::hi), R(1, 32), R(2, 32));
      if (ins.op == Opcode::mad24_) r = d.mods.sat ? ops::add_sat_s(C, r, R(3, 32)) : ops::add(C, r, R(3, 32));
      W(0, r);
      return true;
    }
    case Opcode::sad_: W(0, ops::sad(C, d.s0, R(1, w), R(2, w), R(3, w))); return true;
    case Opcode::div_:
      if (d.f0) {
        if (ins.q.has(ir::Flag::approx) || ins.q.has(ir::Flag::full) || (!d.has_rounding && fmt == domain::FpFormat::f32))
          W(0, ops::fapprox(C, domain::Approx::div, fmt, mods, R(1, w), R(2, w)));
        else
          W(0, ops::fdiv(C, fmt, mods, R(1, w), R(2, w)));
      } else {
        W(0, ops::div(C, d.s0, R(1, w), R(2, w)));
      }
      return true;
    case Opcode::rem_: W(0, ops::rem(C, d.s0, R(1, w), R(2, w))); return true;
    case Opcode::abs_: case Opcode::neg_: {
      const bool is_abs = ins.op == Opcode::abs_;
      if (d.f0) {
        auto f1 = [&](CV a) { return is_abs ? ops::fabs(C, fmt, mods.ftz, a) : ops::fneg(C, fmt, mods.ftz, a); };
        if (d.packed) {
          CV a = R(1, 32);
          W(0, Concrete::concat(f1(Concrete::extract(a, 31, 16)), f1(Concrete::extract(a, 15, 0))));
        } else {
          W(0, f1(R(1, w)));
        }
      } else {
        W(0, is_abs ? ops::abs(C, R(1, w)) : ops::neg(C, R(1, w)));
      }
      return true;
    }
    case Opcode::min_: case Opcode::max_: {
      const bool is_max = ins.op == Opcode::max_;
      if (d.f0) {
        ops::MinMaxMods mm{mods.ftz, ins.q.has(ir::Flag::NaN), ins.q.has(ir::Flag::abs), ins.q.has(ir::Flag::xorsign)};
        CV r = fp2([&](CV a, CV b) { return ops::fminmax(C, fmt, is_max, mm, a, b); });
        if (o.size() == 4) r = ops::fminmax(C, fmt, is_max, mm, r, R(3, w));
        W(0, r);
      } else {
        CV r = is_max ? ops::max(C, d.s0, R(1, w), R(2, w)) : ops::min(C, d.s0, R(1, w), R(2, w));
        if (o.size() == 4) r = is_max ? ops::max(C, d.s0, r, R(3, w)) : ops::min(C, d.s0, r, R(3, w));
        if (ins.q.has(ir::Flag::relu)) r = ops::max(C, true, r, Concrete::lit(w, 0));
        W(0, r);
      }
      return true;
    }
    case Opcode::popc_: W(0, ops::popc(C, R(1, w))); return true;
    case Opcode::clz_: W(0, ops::clz(C, R(1, w))); return true;
    case Opcode::bfind_: W(0, ops::bfind(C, d.s0, ins.q.has(ir::Flag::shiftamt), R(1, w))); return true;
    case Opcode::brev_: W(0, ops::brev(C, R(1, w))); return true;
    case Opcode::bfe_: W(0, ops::bfe(C, d.s0, R(1, w), R(2, 32), R(3, 32))); return true;
    case Opcode::bfi_: W(0, ops::bfi(C, R(1, w), R(2, w), R(3, 32), R(4, 32))); return true;
    case Opcode::szext_: W(0, ops::szext(C, d.s0, ins.q.has(ir::Flag::clamp), R(1, 32), R(2, 32))); return true;
    case Opcode::bmsk_: W(0, ops::bmsk(C, ins.q.has(ir::Flag::clamp), R(1, 32), R(2, 32))); return true;
    case Opcode::dp4a_: W(0, ops::dp4a(C, d.s0, d.s1, R(1, 32), R(2, 32), R(3, 32))); return true;
    case Opcode::dp2a_: W(0, ops::dp2a(C, d.s0, d.s1, ins.q.has(ir::Flag::hi), R(1, 32), R(2, 32), R(3, 32))); return true;
    case Opcode::testp_: {
      ops::TestpOp op = ins.q.has(ir::Flag::finite) ? ops::TestpOp::finite : ins.q.has(ir::Flag::infinite) ? ops::TestpOp::infinite
                      : ins.q.has(ir::Flag::number) ? ops::TestpOp::number : ins.q.has(ir::Flag::notanumber) ? ops::TestpOp::notanumber
                      : ins.q.has(ir::Flag::normal) ? ops::TestpOp::normal : ops::TestpOp::subnormal;
      W(0, ops::testp(C, fmt, op, R(1, w)));
      return true;
    }
    case Opcode::copysign_: W(0, ops::copysign(C, fmt, R(1, w), R(2, w))); return true;
    case Opcode::rcp_: case Opcode::sqrt_: case Opcode::rsqrt_: case Opcode::sin_: case Opcode::cos_: case Opcode::lg2_:
    case Opcode::ex2_: case Opcode::tanh_: {
      domain::Approx k = ins.op == Opcode::rcp_ ? domain::Approx::rcp : ins.op == Opcode::sqrt_ ? domain::Approx::sqrt
                       : ins.op == Opcode::rsqrt_ ? domain::Approx::rsqrt : ins.op == Opcode::sin_ ? domain::Approx::sin
                       : ins.op == Opcode::cos_ ? domain::Approx::cos : ins.op == Opcode::lg2_ ? domain::Approx::lg2
                       : ins.op == Opcode::ex2_ ? domain::Approx::ex2 : domain::Approx::tanh;
      auto one = [&](CV a) {
        if (ins.q.has(ir::Flag::approx) || !d.has_rounding) return ops::fapprox(C, k, fmt, mods, a, a);
        return ins.op == Opcode::rcp_ ? ops::frcp(C, fmt, mods, a) : ops::fsqrt(C, fmt, mods, a);
      };
      if (d.packed) {
        CV a = R(1, 32);
        W(0, Concrete::concat(one(Concrete::extract(a, 31, 16)), one(Concrete::extract(a, 15, 0))));
      } else {
        W(0, one(R(1, w)));
      }
      return true;
    }
    // ---- 9.7.6 comparison and selection
    case Opcode::setp_: case Opcode::set_: {
      const bool is_set = ins.op == Opcode::set_;
      const ir::ScalarType st = is_set ? d.t1 : d.t0;  // source type
      const unsigned sw = ir::scalar_bits(st);
      const bool sf = ir::is_float(st);
      const bool spacked = st == ir::ScalarType::f16x2 || st == ir::ScalarType::bf16x2;
      const domain::FpFormat sfmt = is_set ? d.fmt1 : d.fmt0;
      const ir::CompareOp cmp = ins.q.compare.value_or(ir::CompareOp::eq);
      auto compare = [&](CV a, CV b) {
        if (!sf) return ops::compare_int(C, cmp, ir::is_signed_int(st), a, b);
        if (mods.ftz) { a = ops::flush_subnormal(C, sfmt, a); b = ops::flush_subnormal(C, sfmt, b); }
        return ops::compare_float(C, sfmt, cmp, a, b);
      };
      CV a = R(1, sw), b = R(2, sw);
      CV c = o.size() > 3 ? R(3, 1) : Concrete::lit(1, 0);
      auto finish = [&](CV r) {
        if (o.size() > 3 && ins.q.bool_op) r = ops::combine(C, *ins.q.bool_op, r, c);
        return r;
      };
      if (!is_set) {
        if (spacked) {  // setp.f16x2 p|q: p from the low halves, q from the high halves
          CV lo = finish(compare(Concrete::extract(a, 15, 0), Concrete::extract(b, 15, 0)));
          CV hi = finish(compare(Concrete::extract(a, 31, 16), Concrete::extract(b, 31, 16)));
          if (o[0].kind == OK::PredPair) { reg(t, o[0].reg) = lo; if (o[0].reg2 >= 0) reg(t, o[0].reg2) = hi; }
          else W(0, lo);
          return true;
        }
        CV r = compare(a, b);
        CV p = finish(r);
        if (o[0].kind == OK::PredPair) {
          reg(t, o[0].reg) = p;
          CV nr = Concrete::lit(1, r.v ^ 1);
          if (o[0].reg2 >= 0) reg(t, o[0].reg2) = finish(nr);
        } else {
          W(0, p);
        }
        return true;
      }
      // set: the destination gets all ones (integer), 1.0 (float) or, per half of packed types, 0xffff / 1.0.
      auto encode = [&](CV r, ir::ScalarType dt, unsigned bits) -> CV {
        if (ir::is_float(dt)) {
          domain::FpFormat df = dt == ir::ScalarType::f16 || dt == ir::ScalarType::f16x2 ? domain::FpFormat::f16
                              : dt == ir::ScalarType::bf16 || dt == ir::ScalarType::bf16x2 ? domain::FpFormat::bf16
                              : dt == ir::ScalarType::f64 ? domain::FpFormat::f64 : domain::FpFormat::f32;
          return r.v ? Concrete::lit(bits, ops::fp_one(df)) : Concrete::lit(bits, 0);
        }
        return r.v ? Concrete::lit(bits, domain::mask_of(bits)) : Concrete::lit(bits, 0);
      };
      if (spacked) {
        CV lo = finish(compare(Concrete::extract(a, 15, 0), Concrete::extract(b, 15, 0)));
        CV hi = finish(compare(Concrete::extract(a, 31, 16), Concrete::extract(b, 31, 16)));
        ir::ScalarType half = d.t0 == ir::ScalarType::f16x2 ? ir::ScalarType::f16 : d.t0 == ir::ScalarType::bf16x2 ? ir::ScalarType::bf16 : ir::ScalarType::u16;
        W(0, Concrete::concat(encode(hi, half, 16), encode(lo, half, 16)));
      } else {
        W(0, encode(finish(compare(a, b)), d.t0, w));
      }
      return true;
    }
    case Opcode::selp_: W(0, ops::selp(C, R(1, w), R(2, w), R(3, 1))); return true;
    case Opcode::slct_: W(0, ops::slct(C, d.f1, mods.ftz, R(1, w), R(2, w), R(3, 32))); return true;
    // ---- 9.7.8 logic and shift
    case Opcode::and_: W(0, ops::and_(C, R(1, w), R(2, w))); return true;
    case Opcode::or_: W(0, ops::or_(C, R(1, w), R(2, w))); return true;
    case Opcode::xor_: W(0, ops::xor_(C, R(1, w), R(2, w))); return true;
    case Opcode::not_: W(0, ops::not_(C, R(1, w))); return true;
    case Opcode::cnot_: W(0, ops::cnot(C, R(1, w))); return true;
    case Opcode::lop3_: {
      if (o.size() == 6) return false;  // lop3.BoolOp form with a predicate
      W(0, ops::lop3(C, R(1, w), R(2, w), R(3, w), static_cast<unsigned>(R(4, 32).v & 0xff)));
      return true;
    }
    case Opcode::shf_: W(0, ops::shf(C, ins.q.has(ir::Flag::l), ins.q.has(ir::Flag::clamp), R(1, 32), R(2, 32), R(3, 32))); return true;
    case Opcode::shl_: W(0, ops::shl(C, R(1, w), R(2, 32))); return true;
    case Opcode::shr_: W(0, ops::shr(C, d.s0, R(1, w), R(2, 32)), d.s0); return true;
    // ---- 9.7.9 data movement and conversion
    case Opcode::mov_: {
      unsigned total = w * (ins.q.vector_width > 1 ? ins.q.vector_width : 1);
      if (o[0].kind == OK::Vector && o[1].kind != OK::Vector && ins.q.vector_width == 1) {
        W(0, R(1, w));  // mov.b64 {a, b}, x: unpack
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
        W(0, R(1, total), d.s0);
      }
      return true;
    }
    case Opcode::prmt_: {
      ops::PrmtMode m = ins.q.has(ir::Flag::f4e) ? ops::PrmtMode::f4e : ins.q.has(ir::Flag::b4e) ? ops::PrmtMode::b4e
                      : ins.q.has(ir::Flag::rc8) ? ops::PrmtMode::rc8 : ins.q.has(ir::Flag::ecl) ? ops::PrmtMode::ecl
                      : ins.q.has(ir::Flag::ecr) ? ops::PrmtMode::ecr : ins.q.has(ir::Flag::rc16) ? ops::PrmtMode::rc16
                      : ops::PrmtMode::generic;
      W(0, ops::prmt(C, m, R(1, 32), R(2, 32), R(3, 32)));
      return true;
    }
    case Opcode::cvt_: {
      // cvt{.rnd}{.ftz}{.sat}{.relu}.dtype.atype d, a (ISA 9.7.9.21); the .f16x2/.bf16x2 destinations take two
      // f32 sources: d = {cvt(a), cvt(b)} with a in the upper half.
      if (const auto pack = ir::cvt_pack_form(ins)) {
        W(0, ops::cvt_pack(C, pack->size, pack->dst_signed, R(1, 32), R(2, 32), o.size() > 3 ? R(3, 32) : Concrete::lit(32, 0)));
        return true;
      }
      const ir::ScalarType dt = d.t0, at = d.t1;
      if (stochastic_cvt(ins)) {
        std::vector<CV> src;
        if (o[1].kind == OK::Vector)
          for (const auto& e : o[1].elements) src.push_back(read(t, e, 32));
        else
          src = {R(1, 32), R(2, 32)};
        W(0, cvt_stochastic(C, ins, src, R(o.size() - 1, 32)));
        return true;
      }
      if (const auto ue = ue8m0_cvt(ins)) {
        W(0, cvt_ue8m0(C, ins, *ue, R(1, *ue == Ue8m0Cvt::from_f32 ? 32 : d.w1), o.size() > 2 ? R(2, 32) : Concrete::lit(32, 0)));
        return true;
      }
      if (const auto narrow = narrow_cvt(ins)) {
        W(0, *narrow == NarrowCvt::to_pair ? cvt_to_narrow_pair(C, ins, mods.relu, R(1, 32), o.size() > 2 ? R(2, 32) : R(1, 32))
                                           : cvt_from_narrow_pair(C, ins, mods.relu, R(1, 16)));
        return true;
      }
      if (dt == ir::ScalarType::f16x2 && (at == ir::ScalarType::e4m3x2 || at == ir::ScalarType::e5m2x2)) {
        CV a = R(1, 16);
        auto one = [&](CV byte) { return at == ir::ScalarType::e4m3x2 ? ops::e4m3_to_f16(C, byte) : ops::e5m2_to_f16(C, byte); };
        CV r = Concrete::concat(one(Concrete::extract(a, 15, 8)), one(Concrete::extract(a, 7, 0)));
        if (mods.relu) r = ops::packed2(C, r, r, [&](CV x, CV) { return ops::relu(C, domain::FpFormat::f16, x); });
        W(0, r);
        return true;
      }
      if (d.packed) {
        if (at != ir::ScalarType::f32 || o.size() < 3) return false;
        domain::FpFormat half = dt == ir::ScalarType::f16x2 ? domain::FpFormat::f16 : domain::FpFormat::bf16;
        CV hi = ops::cvt_f2f(C, domain::FpFormat::f32, half, mods, R(1, 32));
        CV lo = ops::cvt_f2f(C, domain::FpFormat::f32, half, mods, R(2, 32));
        W(0, Concrete::concat(hi, lo));
        return true;
      }
      if (ir::scalar_bits(at) > 64 || ir::scalar_bits(dt) > 64) return false;
      CV a = R(1, d.w1, d.s1);
      CV r;
      if (!d.f0 && !d.f1) r = ops::cvt_int(C, w, d.s0, d.s1, mods.sat, a);
      else if (d.f0 && !d.f1) r = ops::cvt_i2f(C, d.fmt0, d.s1, mods, a);
      else if (!d.f0 && d.f1) {
        ops::FpMods m = mods;
        if (!d.has_rounding) m.rnd = domain::Rnd::rz;
        r = ops::cvt_f2i(C, d.fmt1, w, d.s0, m, a);
      } else if (d.fmt0 == d.fmt1 && d.has_rounding && ins.q.rounding >= ir::Rounding::rni) {
        r = ops::cvt_fround(C, d.fmt0, mods, a);
      } else {
        r = ops::cvt_f2f(C, d.fmt1, d.fmt0, mods, a);
      }
      W(0, r, d.s0);
      return true;
    }
    case Opcode::cvta_: {
      // cvta.space.size d, a: space address -> generic; cvta.to.space.size d, a: generic -> space address.
      StateSpace s = ins.q.space.value_or(StateSpace::global);
      std::uint64_t a = R(1, 64).u64();
      if (o[1].kind == OK::Variable) a = variable_address(t, o[1].var).second;
      std::uint64_t base = Machine::to_generic(s, 0);
      std::uint64_t r = ins.q.has(ir::Flag::to) ? a - base : a + base;
      W(0, Concrete::lit(w, r));
      return true;
    }
    case Opcode::isspacep_: {
      StateSpace s = ins.q.space.value_or(StateSpace::global);
      std::uint64_t a = R(1, 64).u64();
      // .shared::cta: the executing CTA's window; .shared::cluster: any CTA of the cluster (ISA 5.1.4, cluster.cpp).
      bool in_shared = in_shared_window(s == StateSpace::shared ? StateSpace::shared : StateSpace::shared_cluster, a);
      bool in_local = a >= kLocalWindow && a < kLocalWindow + kWindowSize;
      bool in_param = a >= kParamWindow && a < kParamWindow + kWindowSize;
      bool r = s == StateSpace::shared || s == StateSpace::shared_cluster ? in_shared : s == StateSpace::local ? in_local : s == StateSpace::param ? in_param
             : !((a >= kSharedWindow && a < kSharedWindow + kWindowSize) || in_local || in_param);
      W(0, Concrete::boolean(r));
      return true;
    }
    case Opcode::ld_: case Opcode::ldu_: case Opcode::st_: {
      const bool is_st = ins.op == Opcode::st_;
      const Operand& addr_op = is_st ? o[0] : o[1];
      const Operand& val = is_st ? o[1] : o[0];
      StateSpace space = d.space;
      const std::uint64_t a = access_address(t, addr_op, space);
      const unsigned eb = std::max(1u, w / 8);
      const unsigned n = ins.q.vector_width;
      if (opt_.observer) observe(t, ins, is_st ? MemoryAccess::Kind::write : MemoryAccess::Kind::read, space, a, eb * n);
      if (n > 1 || val.kind == OK::Vector) {
        for (unsigned k = 0; k < n && k < val.elements.size(); ++k) {
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
        return true;
      }
      if (is_st) store(t, space, a, read(t, val, w, d.s0), eb);
      else {
        CV v = load(t, space, a, w);
        if (!stop_) write(t, val, v, d.s0);
      }
      return true;
    }
    case Opcode::atom_: case Opcode::red_: {
      // ISA 9.7.13.5 atom / 9.7.13.6 red: the interpreter runs one thread at a time, so read-modify-write is
      // atomic by construction.
      const bool is_red = ins.op == Opcode::red_;
      const std::size_t ai = is_red ? 0 : 1;
      StateSpace space = d.space;
      const std::uint64_t a = access_address(t, o[ai], space);
      const unsigned eb = std::max(1u, w / 8);
      CV old = load(t, space, a, w);
      if (stop_) return true;
      CV b = R(ai + 1, w, d.s0);
      ops::AtomicForm form = ops::atomic_form(ins);
      form.f32_ftz = resolve(space, a).first != StateSpace::shared;  // a generic address may point to shared memory
      const bool cas = form.op == ir::AtomOp::cas;
      CV nv = ops::atomic_written(C, form, old, b, cas ? R(ai + 2, w) : b);
      if (opt_.observer)
        observe(t, ins, is_red ? MemoryAccess::Kind::reduction : MemoryAccess::Kind::atomic, space, a, eb,
                ops::atomic_writes(C, form, old, b).v != 0);
      store(t, space, a, nv, eb);
      if (!is_red && !stop_) W(0, old, d.s0);
      return true;
    }
    case Opcode::vadd_: case Opcode::vsub_: case Opcode::vabsdiff_: case Opcode::vmin_: case Opcode::vmax_:
    case Opcode::vshl_: case Opcode::vshr_: {
      if (ins.q.types.size() != 3) return false;
      ops::VideoOp vop = ins.op == Opcode::vadd_ ? ops::VideoOp::add : ins.op == Opcode::vsub_ ? ops::VideoOp::sub
                       : ins.op == Opcode::vabsdiff_ ? ops::VideoOp::absdiff : ins.op == Opcode::vmin_ ? ops::VideoOp::min
                       : ins.op == Opcode::vmax_ ? ops::VideoOp::max : ins.op == Opcode::vshl_ ? ops::VideoOp::shl : ops::VideoOp::shr;
      ops::VideoSecOp sec = ops::VideoSecOp::none;
      if (o.size() == 4) {
        if (!ins.q.atom_op) return false;  // data merge with .dsel is not modelled
        sec = *ins.q.atom_op == ir::AtomOp::add ? ops::VideoSecOp::add : *ins.q.atom_op == ir::AtomOp::min ? ops::VideoSecOp::min : ops::VideoSecOp::max;
      }
      W(0, ops::video(C, vop, d.s0, d.s1, ir::is_signed_int(ins.q.types[2].scalar), mods.sat, ins.q.has(ir::Flag::clamp), sec,
                      R(1, 32), R(2, 32), o.size() == 4 ? R(3, 32) : Concrete::lit(32, 0)));
      return true;
    }
    case Opcode::cp_: {
      // ISA 9.7.9.25.3.1 cp.async [dst], [src], cp-size{, src-size | ignore-src}{, cache-policy}: cp-size bytes of
      // shared memory at dst get the first src-size bytes at src (all of them without src-size, none when
      // ignore-src is true) and zeros after. Completed at issue (see instruction_supported()); an observer hears of the copy as asynchronous and of the
      // commits and waits that complete it.
      if (ir::mbarrier_op(ins) == ir::MbarrierOp::copy_arrive) {
        exec_mbarrier(t, ins);
        return true;
      }
      if (ir::async_copy_role(ins) != ir::AsyncCopyRole::copy) {
        if (opt_.observer) opt_.observer->async_group(thread_ref(t), ins);
        return true;
      }
      const std::uint64_t dst = address(t, o[0]), src = address(t, o[1]);
      const std::uint64_t cp_size = R(2, 32).u64();
      std::uint64_t src_size = cp_size;
      if (const ir::AsyncCopySource source = ir::async_copy_source(mod_.functions[t.frames.back().fn], ins); source.operand >= 0) {
        const auto k = static_cast<std::size_t>(source.operand);
        src_size = source.ignore_src ? (R(k, 1).u64() ? 0 : cp_size) : std::min(cp_size, R(k, 32).u64());  // above cp-size: undefined
      }
      if (opt_.observer) {
        if (src_size) observe(t, ins, MemoryAccess::Kind::read, StateSpace::global, src, static_cast<std::uint32_t>(src_size), true, true);
        observe(t, ins, MemoryAccess::Kind::write, StateSpace::shared, dst, static_cast<std::uint32_t>(cp_size), true, true);
      }
      for (std::uint64_t k = 0; k < cp_size && !stop_; ++k)
        store(t, StateSpace::shared, dst + k, k < src_size ? load(t, StateSpace::global, src + k, 8) : Concrete::lit(8, 0), 1);
      return true;
    }
    case Opcode::mbarrier_: exec_mbarrier(t, ins); return true;
    case Opcode::mapa_: exec_mapa(t, ins, d); return true;
    case Opcode::getctarank_: exec_getctarank(t, ins, d); return true;
    case Opcode::createpolicy_: W(0, Concrete::lit(64, 0)); return true;
    case Opcode::membar_: case Opcode::fence_:
      if (opt_.observer && !ins.q.has(ir::Flag::proxy)) opt_.observer->fence(thread_ref(t), ins);
      return true;
    case Opcode::nanosleep_: case Opcode::prefetch_: case Opcode::prefetchu_:
    case Opcode::pmevent_: case Opcode::brkpt_: case Opcode::applypriority_: case Opcode::discard_: case Opcode::griddepcontrol_:
      // Memory ordering is trivially satisfied by one-at-a-time execution; hints have no functional effect.
      return true;
    default:
      return false;
  }
}

}  // namespace ptx::interp
