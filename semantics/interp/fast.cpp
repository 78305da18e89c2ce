// The interpreter's fast path (see machine.hpp): integer add/sub/mul/mad/logic/shift/setp/selp/mov/cvt,
// f32 add/sub/mul/fma in round-to-nearest without .ftz/.sat, and scalar ld/st, on operands resolved to
// register slots once. Each case is the concrete-domain meaning of semantics/ops written for 64-bit lanes.
// plan_fast is the one decision of which instructions take it (decode_first; fast_path_plan asks it from outside),
// and tests/unit/interp/test_fast_path.cpp runs every form it takes against semantics/ops.
#include "semantics/interp/machine.hpp"
#include "semantics/ir/address.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <functional>

namespace ptx::interp {

using ir::Opcode;
using OK = Operand::Kind;

namespace {
inline std::int64_t sx(std::uint64_t x, unsigned w) {
  return w >= 64 ? static_cast<std::int64_t>(x) : static_cast<std::int64_t>(x << (64 - w)) >> (64 - w);
}
inline std::uint64_t fbits(float f) {
  return f != f ? 0x7fffffffu : std::bit_cast<std::uint32_t>(f);  // canonical NaN (ISA 9.7.3)
}
inline float f32(std::uint64_t x) { return std::bit_cast<float>(static_cast<std::uint32_t>(x)); }
}  // namespace

Fast plan_fast(const FnInfo& fi, const Instruction& ins, const Decoded& d) {
  const auto& o = ins.operands;
  Fast f;
  // A register-value form semantics/ops does not model (add.u16x2, ISA 9.7.1.1) is no fast form either: the
  // fast path only ever runs what the general path defines.
  if (d.value == ops::ValueForm::unmodelled) return f;
  auto reg_ok = [&](const Operand& x, unsigned w, std::uint32_t& slot) {
    if (x.kind != OK::Register || x.negated) return false;
    auto r = static_cast<std::size_t>(x.reg);
    if (fi.vec[r] > 1 && x.component < 0) return false;
    slot = fi.slot[r] + static_cast<std::uint32_t>(x.component < 0 ? 0 : x.component);
    return fi.init[slot].w == w;
  };
  auto arg = [&](const Operand& x, unsigned w, FastArg& out) {
    if (x.kind == OK::Immediate) {
      out.is_imm = true;
      out.imm = w >= 64 ? x.imm : x.imm & ((std::uint64_t(1) << w) - 1);
      return true;
    }
    if (x.kind == OK::FloatImm && x.is_f32 && w == 32) {
      out.is_imm = true;
      out.imm = x.imm;
      return true;
    }
    return reg_ok(x, w, out.slot);
  };
  const unsigned w = d.w0;
  if (w == 0 || w > 64) return f;
  f.width = w;
  f.mask = w >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << w) - 1;
  f.is_signed = d.s0;
  auto binary = [&](FastKind k) {
    if (o.size() == 3 && reg_ok(o[0], w, f.dst) && arg(o[1], w, f.a) && arg(o[2], w, f.b)) f.kind = k;
  };
  const bool plain_int = !d.f0 && ins.q.types.size() == 1 && !ins.q.has(ir::Flag::cc) && !d.mods.sat;
  // (one type: add/sub/fma.f32.{f16,bf16} of ISA 9.7.5 read a 16-bit operand, exec_lane's)
  const bool plain_f32 = d.f0 && d.t0 == ir::ScalarType::f32 && ins.q.types.size() == 1 && !d.mods.ftz && !d.mods.sat &&
                         !d.mods.relu && d.mods.rnd == domain::Rnd::rn;
  switch (ins.op) {
    case Opcode::add_:
      if (plain_int) binary(FastKind::add);
      else if (plain_f32) binary(FastKind::fadd32);
      break;
    case Opcode::sub_:
      if (plain_int) binary(FastKind::sub);
      else if (plain_f32) binary(FastKind::fsub32);
      break;
    case Opcode::mul_:
      if (plain_f32) binary(FastKind::fmul32);
      else if (plain_int && ins.q.has(ir::Flag::wide) && w <= 32) {
        f.mask = w == 32 ? ~std::uint64_t(0) : (std::uint64_t(1) << (2 * w)) - 1;
        if (reg_ok(o[0], 2 * w, f.dst) && arg(o[1], w, f.a) && arg(o[2], w, f.b)) f.kind = d.s0 ? FastKind::mul_wide_s : FastKind::mul_wide_u;
      } else if (plain_int && !ins.q.has(ir::Flag::hi) && !ins.q.has(ir::Flag::wide)) binary(FastKind::mul_lo);
      break;
    case Opcode::mad_: case Opcode::fma_:
      if (o.size() != 4) break;
      if (plain_f32 && (ins.op == Opcode::fma_ || d.has_rounding)) {
        if (reg_ok(o[0], 32, f.dst) && arg(o[1], 32, f.a) && arg(o[2], 32, f.b) && arg(o[3], 32, f.c)) f.kind = FastKind::ffma32;
      } else if (plain_int && ins.op == Opcode::mad_ && !ins.q.has(ir::Flag::hi) && !ins.q.has(ir::Flag::wide)) {
        if (reg_ok(o[0], w, f.dst) && arg(o[1], w, f.a) && arg(o[2], w, f.b) && arg(o[3], w, f.c)) f.kind = FastKind::mad_lo;
      }
      break;
    case Opcode::and_: if (ins.q.types.size() == 1) binary(FastKind::and_); break;
    case Opcode::or_: if (ins.q.types.size() == 1) binary(FastKind::or_); break;
    case Opcode::xor_: if (ins.q.types.size() == 1) binary(FastKind::xor_); break;
    case Opcode::not_:
      if (o.size() == 2 && reg_ok(o[0], w, f.dst) && arg(o[1], w, f.a)) f.kind = FastKind::not_;
      break;
    case Opcode::shl_: case Opcode::shr_:
      if (o.size() == 3 && !d.f0 && reg_ok(o[0], w, f.dst) && arg(o[1], w, f.a) && arg(o[2], 32, f.b))
        f.kind = ins.op == Opcode::shl_ ? FastKind::shl : d.s0 ? FastKind::shr_s : FastKind::shr_u;
      break;
    case Opcode::mov_:
      if (o.size() != 2 || ins.q.vector_width != 1 || !reg_ok(o[0], w, f.dst)) break;
      if (arg(o[1], w, f.a)) {
        f.kind = FastKind::mov;
      } else if ((o[1].kind == OK::Special || o[1].kind == OK::Variable) && !o[1].negated) {
        f.kind = FastKind::mov_read;
        f.address = &o[1];
      }
      break;
    case Opcode::setp_:
      if (o.size() == 3 && !d.f0 && !ins.q.bool_op && reg_ok(o[0], 1, f.dst) && arg(o[1], w, f.a) && arg(o[2], w, f.b)) {
        f.kind = FastKind::setp;
        f.cmp = ins.q.compare.value_or(ir::CompareOp::eq);
        if (static_cast<int>(f.cmp) > static_cast<int>(ir::CompareOp::hs)) f.kind = FastKind::none;
      }
      break;
    case Opcode::selp_:
      if (o.size() == 4 && reg_ok(o[0], w, f.dst) && arg(o[1], w, f.a) && arg(o[2], w, f.b) && reg_ok(o[3], 1, f.c.slot)) f.kind = FastKind::selp;
      break;
    case Opcode::cvt_:
      if (o.size() == 2 && !d.f0 && !d.f1 && !d.mods.sat && d.w1 <= 64 && reg_ok(o[0], w, f.dst) && arg(o[1], d.w1, f.a)) {
        f.kind = d.w1 >= w ? FastKind::cvt_trunc : d.s1 ? FastKind::cvt_sext : FastKind::cvt_zext;
        f.b.imm = d.w1;
      }
      break;
    case Opcode::ld_: case Opcode::st_: {
      const auto m = ops::memory_access(ins);  // one synchronous scalar without a cache-policy operand
      if (!m || m->asynchronous || o.size() != m->operands || m->count != 1 || w % 8 || d.t0 == ir::ScalarType::pred) break;
      const bool is_st = m->kind == ops::AccessKind::store;
      const Operand& addr = o[m->address];
      const Operand& val = o[static_cast<std::size_t>(is_st ? m->source : m->destination)];
      if (addr.kind != OK::Address || (addr.base_kind != Operand::BaseKind::Register && addr.base_kind != Operand::BaseKind::Variable)) break;
      if (addr.base_kind == Operand::BaseKind::Variable && d.space == StateSpace::generic) break;
      if (is_st ? !arg(val, w, f.a) : !reg_ok(val, w, f.dst)) break;
      f.kind = is_st ? FastKind::st : FastKind::ld;
      f.address = &addr;
      if (addr.base_kind == Operand::BaseKind::Register) f.address_slot = static_cast<std::int32_t>(fi.slot[static_cast<std::size_t>(addr.reg)]);
      f.space = d.space;
      break;
    }
    default: break;
  }
  if (f.kind == FastKind::none) return Fast{};
  return f;
}

std::vector<FastKind> fast_path_plan(const ir::Function& fn) {
  FnInfo fi;
  layout_registers(fn, fi);
  std::vector<FastKind> kinds;
  for (const auto& ins : fn.body) {
    Decoded d;
    decode_instruction(fi, ins, true, d);
    kinds.push_back(d.fast.kind);
  }
  return kinds;
}

const char* fast_kind_name(FastKind k) {
  switch (k) {
    case FastKind::none: return "none";
    case FastKind::add: return "add";
    case FastKind::sub: return "sub";
    case FastKind::mul_lo: return "mul_lo";
    case FastKind::mad_lo: return "mad_lo";
    case FastKind::mul_wide_u: return "mul_wide_u";
    case FastKind::mul_wide_s: return "mul_wide_s";
    case FastKind::and_: return "and";
    case FastKind::or_: return "or";
    case FastKind::xor_: return "xor";
    case FastKind::not_: return "not";
    case FastKind::shl: return "shl";
    case FastKind::shr_u: return "shr_u";
    case FastKind::shr_s: return "shr_s";
    case FastKind::mov: return "mov";
    case FastKind::setp: return "setp";
    case FastKind::selp: return "selp";
    case FastKind::cvt_zext: return "cvt_zext";
    case FastKind::cvt_sext: return "cvt_sext";
    case FastKind::cvt_trunc: return "cvt_trunc";
    case FastKind::fadd32: return "fadd32";
    case FastKind::fsub32: return "fsub32";
    case FastKind::fmul32: return "fmul32";
    case FastKind::ffma32: return "ffma32";
    case FastKind::ld: return "ld";
    case FastKind::st: return "st";
    case FastKind::mov_read: return "mov_read";
  }
  return "?";
}

namespace {
// Operand shapes: the loops over lanes are instantiated per shape, so that no lane tests whether an operand is
// an immediate.
struct RegArg {
  std::uint32_t slot;
  std::uint64_t operator()(const CV* R) const { return static_cast<std::uint64_t>(R[slot].v); }
};
struct ImmArg {
  std::uint64_t imm;
  std::uint64_t operator()(const CV*) const { return imm; }
};
template <class F> void with_arg(const FastArg& a, F&& f) {
  if (a.is_imm) f(ImmArg{a.imm});
  else f(RegArg{a.slot});
}
}  // namespace

void Machine::run_fast(Group& g, std::uint32_t active, const Fast& f) {
  const unsigned width = f.width;
  const std::uint64_t mask = f.mask;
  const std::uint32_t dst = f.dst;
  // The active lanes' registers: the group's own list, or (under a guard that is off for some lanes) a copy.
  CV* const* regs = g.regs.data();
  std::uint32_t n = g.size;
  std::array<CV*, 32> some;
  if (active != g.mask) {
    n = 0;
    g.each(active, [&](std::uint32_t k, unsigned) { some[n++] = g.regs[k]; });
    regs = some.data();
  }
  auto lanes = [&](auto&& body) {
    for (std::uint32_t k = 0; k < n; ++k) body(regs[k]);
  };
  // dst = op(a) / op(a, b) / op(a, b, c), truncated to the destination's width.
  auto set1 = [&](auto op) {
    with_arg(f.a, [&](auto A) { lanes([&](CV* R) { R[dst].v = static_cast<std::uint64_t>(op(A(R))) & mask; }); });
  };
  auto set2 = [&](auto op) {
    with_arg(f.a, [&](auto A) {
      with_arg(f.b, [&](auto B) { lanes([&](CV* R) { R[dst].v = static_cast<std::uint64_t>(op(A(R), B(R))) & mask; }); });
    });
  };
  auto set3 = [&](auto op) {
    with_arg(f.a, [&](auto A) {
      with_arg(f.b, [&](auto B) {
        with_arg(f.c, [&](auto C) { lanes([&](CV* R) { R[dst].v = static_cast<std::uint64_t>(op(A(R), B(R), C(R))) & mask; }); });
      });
    });
  };
  using U = std::uint64_t;
  switch (f.kind) {
    case FastKind::add: set2([](U a, U b) { return a + b; }); break;
    case FastKind::sub: set2([](U a, U b) { return a - b; }); break;
    case FastKind::mul_lo: set2([](U a, U b) { return a * b; }); break;
    case FastKind::mad_lo: set3([](U a, U b, U c) { return a * b + c; }); break;
    case FastKind::mul_wide_u: set2([](U a, U b) { return a * b; }); break;
    case FastKind::mul_wide_s: set2([&](U a, U b) { return static_cast<U>(sx(a, width) * sx(b, width)); }); break;
    case FastKind::and_: set2([](U a, U b) { return a & b; }); break;
    case FastKind::or_: set2([](U a, U b) { return a | b; }); break;
    case FastKind::xor_: set2([](U a, U b) { return a ^ b; }); break;
    case FastKind::not_: set1([](U a) { return ~a; }); break;
    // ISA 9.7.8.8/9: the amount is unsigned and an amount >= the width shifts everything out.
    case FastKind::shl: set2([&](U a, U b) { return b >= width ? 0 : a << b; }); break;
    case FastKind::shr_u: set2([&](U a, U b) { return b >= width ? 0 : a >> b; }); break;
    case FastKind::shr_s: set2([&](U a, U b) { return static_cast<U>(sx(a, width) >> (b >= width ? width - 1 : b)); }); break;
    case FastKind::mov: case FastKind::cvt_zext: case FastKind::cvt_trunc: set1([](U a) { return a; }); break;
    case FastKind::cvt_sext: {
      const unsigned from = static_cast<unsigned>(f.b.imm);
      set1([&](U a) { return static_cast<U>(sx(a, from)); });
      break;
    }
    case FastKind::selp: set3([](U a, U b, U p) { return p ? a : b; }); break;
    case FastKind::setp: {
      auto cmp = [&](auto test) { set2([&](U a, U b) { return U(test(a, b)); }); };
      auto scmp = [&](auto test) { set2([&](U a, U b) { return U(test(sx(a, width), sx(b, width))); }); };
      const bool s = f.is_signed;
      switch (f.cmp) {
        case ir::CompareOp::eq: cmp([](U a, U b) { return a == b; }); break;
        case ir::CompareOp::ne: cmp([](U a, U b) { return a != b; }); break;
        case ir::CompareOp::lt: if (s) scmp(std::less<>{}); else cmp(std::less<>{}); break;
        case ir::CompareOp::le: if (s) scmp(std::less_equal<>{}); else cmp(std::less_equal<>{}); break;
        case ir::CompareOp::gt: if (s) scmp(std::greater<>{}); else cmp(std::greater<>{}); break;
        case ir::CompareOp::ge: if (s) scmp(std::greater_equal<>{}); else cmp(std::greater_equal<>{}); break;
        case ir::CompareOp::lo: cmp(std::less<>{}); break;
        case ir::CompareOp::ls: cmp(std::less_equal<>{}); break;
        case ir::CompareOp::hi: cmp(std::greater<>{}); break;
        case ir::CompareOp::hs: cmp(std::greater_equal<>{}); break;
        default: break;
      }
      break;
    }
    case FastKind::fadd32: set2([](U a, U b) { return fbits(f32(a) + f32(b)); }); break;
    case FastKind::fsub32: set2([](U a, U b) { return fbits(f32(a) - f32(b)); }); break;
    case FastKind::fmul32: set2([](U a, U b) { return fbits(f32(a) * f32(b)); }); break;
    case FastKind::ffma32: set3([](U a, U b, U c) { return fbits(std::fma(f32(a), f32(b), f32(c))); }); break;
    case FastKind::ld: case FastKind::st: {
      const unsigned bytes = width / 8;
      const bool is_st = f.kind == FastKind::st;
      g.each(active, [&](std::uint32_t k, unsigned) {
        if (stop_) return;  // an earlier lane's access was out of bounds: the run stops there
        Thread& t = *g.thread[k];
        CV* R = g.regs[k];
        t.top->pc = g.pc;  // a reported problem names this instruction
        const std::uint64_t addr = f.address_slot < 0 ? address(t, *f.address)
                                                      : ir::address_sum(static_cast<std::uint64_t>(R[f.address_slot].v), R[f.address_slot].w, f.address->offset);
        std::uint8_t* p = aligned(t, addr, bytes, is_st) ? locate(t, f.space, addr, bytes, is_st) : nullptr;
        if (!p) return;
        if (is_st) {
          std::uint64_t v = f.a.is_imm ? f.a.imm : static_cast<std::uint64_t>(R[f.a.slot].v);
          std::memcpy(p, &v, bytes);
        } else {
          std::uint64_t v = 0;
          std::memcpy(&v, p, bytes);
          R[dst].v = v;
        }
      });
      break;
    }
    case FastKind::mov_read:
      g.each(active, [&](std::uint32_t k, unsigned) { g.regs[k][dst] = read(*g.thread[k], *f.address, width); });
      break;
    case FastKind::none: break;
  }
}

}  // namespace ptx::interp
