// The interpreter's fast path (see machine.hpp): integer add/sub/mul/mad/logic/shift/setp/selp/mov/cvt,
// f32 add/sub/mul/fma in round-to-nearest without .ftz/.sat, and scalar ld/st, on operands resolved to
// register slots once. Each case is the concrete-domain meaning of semantics/ops written for 64-bit lanes.
#include "semantics/interp/machine.hpp"

#include <bit>
#include <cmath>
#include <cstring>

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

void Machine::plan_fast(std::uint32_t fn, const Instruction& ins, Decoded& d) {
  const FnInfo& fi = fns_[fn];
  const auto& o = ins.operands;
  Fast f;
  auto reg_ok = [&](const Operand& x, unsigned w, std::uint32_t& slot) {
    if (x.kind != OK::Register || x.negated) return false;
    auto r = static_cast<std::size_t>(x.reg);
    if (fi.vec[r] > 1 && x.component < 0) return false;
    slot = fi.slot[r] + static_cast<std::uint32_t>(x.component < 0 ? 0 : x.component);
    return fi.width[slot] == w;
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
  if (w == 0 || w > 64) return;
  f.width = w;
  f.mask = w >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << w) - 1;
  f.is_signed = d.s0;
  auto binary = [&](FastKind k) {
    if (o.size() == 3 && reg_ok(o[0], w, f.dst) && arg(o[1], w, f.a) && arg(o[2], w, f.b)) f.kind = k;
  };
  const bool plain_int = !d.f0 && ins.q.types.size() == 1 && !ins.q.has(ir::Flag::cc) && !d.mods.sat;
  const bool plain_f32 = d.f0 && d.t0 == ir::ScalarType::f32 && !d.mods.ftz && !d.mods.sat && !d.mods.relu &&
                         d.mods.rnd == domain::Rnd::rn;
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
      if (o.size() == 2 && ins.q.vector_width == 1 && reg_ok(o[0], w, f.dst) && arg(o[1], w, f.a)) f.kind = FastKind::mov;
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
      if (o.size() != 2 || ins.q.vector_width != 1 || w % 8 || d.t0 == ir::ScalarType::pred) break;
      const bool is_st = ins.op == Opcode::st_;
      const Operand& addr = is_st ? o[0] : o[1];
      const Operand& val = is_st ? o[1] : o[0];
      if (addr.kind != OK::Address || (addr.base_kind != Operand::BaseKind::Register && addr.base_kind != Operand::BaseKind::Variable)) break;
      if (addr.base_kind == Operand::BaseKind::Variable && d.space == StateSpace::generic) break;
      if (is_st ? !arg(val, w, f.a) : !reg_ok(val, w, f.dst)) break;
      f.kind = is_st ? FastKind::st : FastKind::ld;
      f.address = &addr;
      f.space = d.space;
      break;
    }
    default: break;
  }
  d.fast = f;
}

void Machine::run_fast(Warp& w, std::uint32_t active, const Fast& f) {
  auto& threads = cta_->threads;
  const unsigned width = f.width;
#define PTX_LANES(BODY)                                                                  \
  for (std::uint32_t m_ = active; m_; m_ &= m_ - 1) {                                     \
    Thread& t = threads[w.lanes[static_cast<unsigned>(std::countr_zero(m_))]];            \
    Frame& fr = *t.top;                                                                   \
    CV* R = t.rbase;                                                                      \
    [[maybe_unused]] const std::uint64_t A = f.a.is_imm ? f.a.imm : static_cast<std::uint64_t>(R[f.a.slot].v); \
    [[maybe_unused]] const std::uint64_t B = f.b.is_imm ? f.b.imm : static_cast<std::uint64_t>(R[f.b.slot].v); \
    BODY;                                                                                 \
    fr.pc++;                                                                              \
  }
#define PTX_SET(EXPR) PTX_LANES(R[f.dst].v = static_cast<std::uint64_t>(EXPR) & f.mask)
#define PTX_C (f.c.is_imm ? f.c.imm : static_cast<std::uint64_t>(R[f.c.slot].v))
  switch (f.kind) {
    case FastKind::add: PTX_SET(A + B); break;
    case FastKind::sub: PTX_SET(A - B); break;
    case FastKind::mul_lo: PTX_SET(A * B); break;
    case FastKind::mad_lo: PTX_SET(A * B + PTX_C); break;
    case FastKind::mul_wide_u: PTX_SET(A * B); break;
    case FastKind::mul_wide_s: PTX_SET(static_cast<std::uint64_t>(sx(A, width) * sx(B, width))); break;
    case FastKind::and_: PTX_SET(A & B); break;
    case FastKind::or_: PTX_SET(A | B); break;
    case FastKind::xor_: PTX_SET(A ^ B); break;
    case FastKind::not_: PTX_SET(~A); break;
    // ISA 9.7.8.8/9: the amount is unsigned and an amount >= the width shifts everything out.
    case FastKind::shl: PTX_SET(B >= width ? 0 : A << B); break;
    case FastKind::shr_u: PTX_SET(B >= width ? 0 : A >> B); break;
    case FastKind::shr_s: PTX_SET(static_cast<std::uint64_t>(sx(A, width) >> (B >= width ? width - 1 : B))); break;
    case FastKind::mov: PTX_SET(A); break;
    case FastKind::cvt_zext: PTX_SET(A); break;
    case FastKind::cvt_sext: PTX_SET(static_cast<std::uint64_t>(sx(A, static_cast<unsigned>(f.b.imm)))); break;
    case FastKind::cvt_trunc: PTX_SET(A); break;
    case FastKind::selp: PTX_SET(R[f.c.slot].v ? A : B); break;
    case FastKind::setp: {
      const bool s = f.is_signed;
      switch (f.cmp) {
        case ir::CompareOp::eq: PTX_LANES(R[f.dst].v = A == B); break;
        case ir::CompareOp::ne: PTX_LANES(R[f.dst].v = A != B); break;
        case ir::CompareOp::lt: PTX_LANES(R[f.dst].v = s ? sx(A, width) < sx(B, width) : A < B); break;
        case ir::CompareOp::le: PTX_LANES(R[f.dst].v = s ? sx(A, width) <= sx(B, width) : A <= B); break;
        case ir::CompareOp::gt: PTX_LANES(R[f.dst].v = s ? sx(A, width) > sx(B, width) : A > B); break;
        case ir::CompareOp::ge: PTX_LANES(R[f.dst].v = s ? sx(A, width) >= sx(B, width) : A >= B); break;
        case ir::CompareOp::lo: PTX_LANES(R[f.dst].v = A < B); break;
        case ir::CompareOp::ls: PTX_LANES(R[f.dst].v = A <= B); break;
        case ir::CompareOp::hi: PTX_LANES(R[f.dst].v = A > B); break;
        case ir::CompareOp::hs: PTX_LANES(R[f.dst].v = A >= B); break;
        default: break;
      }
      break;
    }
    case FastKind::fadd32: PTX_SET(fbits(f32(A) + f32(B))); break;
    case FastKind::fsub32: PTX_SET(fbits(f32(A) - f32(B))); break;
    case FastKind::fmul32: PTX_SET(fbits(f32(A) * f32(B))); break;
    case FastKind::ffma32: PTX_SET(fbits(std::fma(f32(A), f32(B), f32(PTX_C)))); break;
    case FastKind::ld: {
      const unsigned bytes = width / 8;
      PTX_LANES({
        std::uint64_t addr = address(t, *f.address);
        std::uint8_t* p = locate(t, f.space, addr, bytes, false);
        if (!p) return;
        std::uint64_t v = 0;
        std::memcpy(&v, p, bytes);
        R[f.dst].v = v;
      });
      break;
    }
    case FastKind::st: {
      const unsigned bytes = width / 8;
      PTX_LANES({
        std::uint64_t addr = address(t, *f.address);
        std::uint8_t* p = locate(t, f.space, addr, bytes, true);
        if (!p) return;
        std::memcpy(p, &A, bytes);
      });
      break;
    }
    case FastKind::none: break;
  }
#undef PTX_SET
#undef PTX_LANES
#undef PTX_C
}

}  // namespace ptx::interp
