// wgmma (ISA 9.7.15) in the interpreter: wgmma.mma_async run as a warpgroup collective (each warp then computes
// its 16 rows of the 64-row product: its rows of D depend only on its own A fragments and the shared B), and the
// per-thread wgmma.fence / commit_group / wait_group. Results are written when a wait_group covers them
// (docs/tensor-cores.md).
#include "semantics/interp/machine.hpp"
#include "semantics/interp/matrix_operand.hpp"
#include "semantics/interp/sparse_a.hpp"
#include "semantics/ir/matrix_shape.hpp"
#include "semantics/ir/wgmma_form.hpp"
#include "semantics/ir/wmma_form.hpp"

#include <bit>
#include <cmath>
#include <functional>

namespace ptx::interp {
namespace {
using ST = ir::ScalarType;

// The shape word .m64nNkK of an instruction (9.7.15.2): N and K, or {0, 0}.
std::pair<unsigned, unsigned> shape_nk(const Instruction& ins) {
  for (const auto& w : ins.q.words)
    if (const auto s = ir::matrix_shape(w); s && s->m == 64) return {s->n, s->k};
  return {0, 0};
}

// A .b1 form (9.7.15.5.2: wgmma.mma_async .m64nNk256 .s32.b1.b1.and.popc). .b1 is no IR type: it stays a word.
bool single_bit(const Instruction& ins) { return ins.q.has_word("b1"); }
// Whether A is given in registers (a vector operand) rather than by a shared-memory descriptor.
bool a_in_registers(const Instruction& ins) { return ins.operands.size() > 1 && ins.operands[1].kind == Operand::Kind::Vector; }

// The .b1 forms warp_wgmma runs: A and B from shared-memory descriptors (9.7.15.5.1.10's canonical layouts with
// T = 128 one-bit elements per 16 bytes, K-major: no imm-trans for .b1), D n/2 .s32 registers, N as the integer
// lines list it (ir::wgmma_n_listed). Not: A in registers (wgmma_unsupported_reason).
bool single_bit_supported(const Instruction& ins) {
  const auto [n, k] = shape_nk(ins);
  const auto& o = ins.operands;
  if (k != 256 || !ir::wgmma_n_listed(n, true) || o.size() != 4 || a_in_registers(ins)) return false;
  if (ins.q.types.empty() || ins.q.types[0].scalar != ST::s32 || !ins.q.has_word("and") || !ins.q.has_word("popc")) return false;
  return o[0].kind == Operand::Kind::Vector && o[0].elements.size() == n / 2 && ins.q.has_word("sync") && ins.q.has_word("aligned");
}

// The register slot (in Thread::regs) of a register operand.
std::uint32_t slot_of(Machine& m, Thread& t, const Operand& o) {
  return static_cast<std::uint32_t>(&m.reg(t, o.reg, o.component) - t.regs.data());
}

// The value a wgmma reads from slot s: the newest pending result for it (the accumulator chaining of 9.7.15.7.1:
// wgmma.mma_async operations of one shape on the same accumulator are ordered), else the register.
CV accumulator(const Thread& t, std::uint32_t s, std::size_t position) {
  auto find = [&](const Thread::WgmmaOp& op, CV& v) {
    if (position < op.writes.size() && op.writes[position].first == s) return v = op.writes[position].second, true;
    for (const auto& [slot, value] : op.writes)
      if (slot == s) return v = value, true;
    return false;
  };
  CV v;
  for (auto it = t.wgmma_open.rbegin(); it != t.wgmma_open.rend(); ++it)
    if (find(*it, v)) return v;
  for (auto g = t.wgmma_groups.rbegin(); g != t.wgmma_groups.rend(); ++g)
    for (auto it = g->rbegin(); it != g->rend(); ++it)
      if (find(*it, v)) return v;
  return t.regs[s];
}
}  // namespace

// wgmma.mma_async.sp (9.7.15.6.3) of the forms whose A and metadata the text defines. A from a descriptor: the
// compressed M x K/2 matrix (9.7.15.6) in shared memory, laid out as 9.7.15.5.1.6 says for wgmma.mma_async{.sp},
// for .f16/.bf16 (.m64nNk32: d, a-desc, b-desc, sp-meta, sp-sel, scale-d, imm-scale-a, imm-scale-b, imm-trans-a,
// imm-trans-b; metadata Figure 176), .e4m3/.e5m2 (.m64nNk64: ..., scale-d, imm-scale-a, imm-scale-b) and .s8/.u8
// (.m64nNk64: ..., scale-d); metadata Figures 180-181. A from registers for the 8-bit types (Figure 179). Not:
// .f16/.bf16 A in registers (Figure 175 is an image in the text) and .tf32 (A's Figure 177 is an image, its
// metadata Figure 178 is garbled: it gives 64 bits of metadata a row of 16 tf32 elements, which have 8 chunks).
bool wgmma_sparse_supported(const Instruction& ins) {
  const auto [n, k] = shape_nk(ins);
  const ST d = ins.q.types[0].scalar, a = ins.q.types[1].scalar, b = ins.q.types[2].scalar;
  const auto& o = ins.operands;
  auto fp8 = [](ST t) { return t == ST::e4m3 || t == ST::e5m2; };
  auto int8 = [](ST t) { return t == ST::s8 || t == ST::u8; };
  const bool reg_a = a_in_registers(ins);
  std::size_t operands = 0;
  unsigned shape_k = 64;
  if ((a == ST::f16 && b == ST::f16 && (d == ST::f16 || d == ST::f32)) || (a == ST::bf16 && b == ST::bf16 && d == ST::f32))
    operands = reg_a ? 0 : 10, shape_k = 32;
  else if (fp8(a) && fp8(b) && (d == ST::f16 || d == ST::f32)) operands = 8;
  else if (int8(a) && int8(b) && d == ST::s32) operands = 6;
  if (!operands || k != shape_k || !ir::wgmma_n_listed(n, d == ST::s32) || o.size() != operands) return false;
  if (o[0].kind != Operand::Kind::Vector || o[0].elements.size() != (d == ST::f16 ? n / 4 : n / 2)) return false;
  if ((reg_a && o[1].elements.size() != 4) || o[3].kind != Operand::Kind::Register) return false;
  for (std::size_t i = 4; i < o.size(); ++i)  // sp-sel and the imm-* operands; scale-d (5) is a predicate
    if (i != 5 && o[i].kind != Operand::Kind::Immediate) return false;
  return ins.q.has_word("sync") && ins.q.has_word("aligned");
}

std::string wgmma_unsupported_reason(const Instruction& ins) {
  if (ins.q.has_word("mma_async") && single_bit(ins) && a_in_registers(ins))
    return "wgmma.mma_async .b1 with A in registers is not modelled: A's fragment layout (Figure 154) is an image in the text "
           "(ISA 9.7.15.5.1.5); A from a shared-memory descriptor runs";
  if (!ins.q.has_word("mma_async") || !ins.q.has_word("sp") || ins.q.types.size() != 3) return "";
  const ST a = ins.q.types[1].scalar;
  const bool reg_a = a_in_registers(ins);
  if (a == ST::tf32)
    return "wgmma.mma_async.sp .tf32 is not modelled: A's register fragment (Figure 177) is an image in the text and its metadata layout "
           "(Figure 178) is garbled (ISA 9.7.15.6.2.2)";
  if ((a == ST::f16 || a == ST::bf16) && reg_a)
    return "wgmma.mma_async.sp .f16/.bf16 with A in registers is not modelled: A's fragment layout (Figure 175) is an image in the text "
           "(ISA 9.7.15.6.2.1); A from a shared-memory descriptor runs";
  return "";
}

// The forms warp_wgmma runs (9.7.15.5.2's syntax): dense .f16/.bf16 (k16, with imm-trans for descriptor A),
// .tf32 (k8), .e4m3/.e5m2 (k32) and .s8/.u8 (k32, .satfinite or not); A from registers or a descriptor; the
// sparse forms of wgmma_sparse_supported; .b1 as single_bit_supported says.
bool wgmma_supported(const Instruction& ins) {
  if (ins.q.has_word("fence") || ins.q.has_word("commit_group")) return ins.operands.empty();
  if (ins.q.has_word("wait_group")) return ins.operands.size() == 1 && ins.operands[0].kind == Operand::Kind::Immediate;
  if (ins.q.has_word("mma_async") && single_bit(ins)) return single_bit_supported(ins);
  if (!ins.q.has_word("mma_async") || ins.q.types.size() != 3) return false;
  if (ins.q.has_word("sp")) return wgmma_sparse_supported(ins);
  const auto [n, k] = shape_nk(ins);
  const ST d = ins.q.types[0].scalar, a = ins.q.types[1].scalar, b = ins.q.types[2].scalar;
  const auto& o = ins.operands;
  if (!ir::wgmma_n_listed(n, d == ST::s32) || o.empty() || o[0].kind != Operand::Kind::Vector) return false;
  const bool reg_a = a_in_registers(ins);
  if (reg_a && o[1].elements.size() != 4) return false;
  auto fp8 = [](ST t) { return t == ST::e4m3 || t == ST::e5m2; };
  auto int8 = [](ST t) { return t == ST::s8 || t == ST::u8; };
  std::size_t operands = 0;
  if ((a == ST::f16 && b == ST::f16 && (d == ST::f16 || d == ST::f32)) || (a == ST::bf16 && b == ST::bf16 && d == ST::f32))
    operands = k == 16 ? (reg_a ? 7 : 8) : 0;
  else if (a == ST::tf32 && b == ST::tf32 && d == ST::f32) operands = k == 8 ? 6 : 0;
  else if (fp8(a) && fp8(b) && (d == ST::f16 || d == ST::f32)) operands = k == 32 ? 6 : 0;
  else if (int8(a) && int8(b) && d == ST::s32) operands = k == 32 ? 4 : 0;
  if (!operands || o.size() != operands || o[0].elements.size() != (d == ST::f16 ? n / 4 : n / 2)) return false;
  for (std::size_t i = 4; i < o.size(); ++i)
    if (o[i].kind != Operand::Kind::Immediate) return false;
  return ins.q.has_word("sync") && ins.q.has_word("aligned");
}

// wgmma.fence (no effect here: operands are read when the warp's mma_async runs), commit_group (9.7.15.7.2) and
// wait_group N (9.7.15.7.3: every group but the N most recent completes, its results written to the registers).
void Machine::exec_wgmma_lane(Thread& t, const Instruction& ins) {
  if (ins.q.has_word("commit_group")) {
    if (opt_.observer) opt_.observer->async_group_commit(thread_ref(t), Observer::AsyncGroup::wgmma);
    t.wgmma_groups.push_back(std::move(t.wgmma_open));
    t.wgmma_open.clear();
    return;
  }
  if (!ins.q.has_word("wait_group")) return;
  const std::size_t keep = static_cast<std::size_t>(ins.operands[0].imm);
  if (opt_.observer) opt_.observer->async_group_wait(thread_ref(t), Observer::AsyncGroup::wgmma, keep, false);
  while (t.wgmma_groups.size() > keep) {
    for (const auto& op : t.wgmma_groups.front()) {
      if (op.depth != t.frames.size()) {
        fail(Problem::Kind::unsupported, "wgmma.wait_group in another function than its wgmma.mma_async", {&t});
        return;
      }
      for (const auto& [slot, value] : op.writes) t.regs[slot] = domain::Concrete::lit(t.regs[slot].w, value.v);
    }
    t.wgmma_groups.erase(t.wgmma_groups.begin());
  }
}

// One warp's part of wgmma.mma_async (9.7.15.5.2): rows 16r..16r+15 of D = A * B + D, r its rank in the warpgroup
// (9.7.15.1). Register fragments (9.7.15.5.1.2-4, lane l: g = l / 4, c = l % 4): D element i at row g + 8 (i/2 % 2),
// column 8 (i/4) + 2c + i%2; A: 16-bit element i at row g + 8 (i/2 % 2), column 2c + i%2 + 8 (i/4); tf32 element i
// at row g + 8 (i%2), column c + 4 (i/2); 8-bit element i at row g + 8 (i/4 % 2), column 4c + i%4 + 16 (i/8).
// .b1: D += popc(A's k-bit row AND B's k-bit column) (9.7.15.5.2), which for bits is the sum of their products;
// element (mn, k) is bit k % 8 of the byte the canonical layout puts at k / 8 (16 bytes hold 128 elements, element
// 0 in bit 0, as registers and wmma's memory fragments hold .b1).
void Machine::warp_wgmma(Warp& w, std::uint32_t group, const Instruction& ins) {
  auto lane_thread = [&](unsigned j) -> Thread& { return cta_->threads[w.lanes[j]]; };
  Thread& first = lane_thread(static_cast<unsigned>(std::countr_zero(group)));
  // An observer hears of the warp's part as one async-proxy operation reading the shared-memory matrices
  // (9.7.15.5.2: "performed in the async proxy"). The instruction is the warpgroup's (9.7.15.1): the operation
  // follows what each of its threads did before it, and joins the wgmma-group of each.
  const std::uint64_t op = opt_.observer ? next_async_op_++ : 0;
  if (opt_.observer) opt_.observer->async_op_issue(op, wgmma_issuers_, Observer::AsyncGroup::wgmma, ins);
  const auto& o = ins.operands;
  const auto [N, K] = shape_nk(ins);
  const bool b1 = single_bit(ins);
  const ST dt = ins.q.types[0].scalar, at = b1 ? ir::kWmmaB1 : ins.q.types[1].scalar, bt = b1 ? ir::kWmmaB1 : ins.q.types[2].scalar;
  const bool reg_a = o[1].kind == Operand::Kind::Vector, is_int = dt == ST::s32, f16_d = dt == ST::f16;
  const std::size_t sp = ins.q.has_word("sp") ? 2 : 0;  // .sp: sp-meta and sp-sel follow b-desc (9.7.15.6.3)
  const unsigned eb = b1 ? 1 : matrix_elem_bytes(at), rank = (first.linear / 32) % 4;
  // imm-scale-a/b (-1 negates) and, for the 16-bit types, imm-trans-a (with a descriptor A) and imm-trans-b (1:
  // MN-major), the last operands of the form (9.7.15.5.2, 9.7.15.6.3).
  auto imm = [&](std::size_t i) { return static_cast<std::int64_t>(o[i].imm); };
  const bool neg_a = !is_int && imm(4 + sp) < 0, neg_b = !is_int && imm(5 + sp) < 0;
  const bool trans_a = eb == 2 && !reg_a && imm(o.size() - 2) == 1, trans_b = eb == 2 && imm(o.size() - 1) == 1;
  const std::uint64_t bdesc = read(first, o[2], 64).u64(), adesc = reg_a ? 0 : read(first, o[1], 64).u64();
  for (std::uint32_t m = group; m; m &= m - 1) {
    Thread& t = lane_thread(static_cast<unsigned>(std::countr_zero(m)));
    if (read(t, o[2], 64).u64() != bdesc || (!reg_a && read(t, o[1], 64).u64() != adesc))
      return fail(Problem::Kind::illegal, "wgmma.mma_async: the matrix descriptors differ across the warp (ISA 9.7.15.5.2)", {&first, &t});
  }
  // The warp's 16 x K rows of A and the K x N of B, as exact values.
  std::vector<double> A(16 * K), B(static_cast<std::size_t>(K) * N);
  auto load_bits = [&](const MatrixDescriptor& desc, unsigned mn, unsigned k, bool mn_major) -> std::uint32_t {
    if (desc.base && desc.width) {
      fail(Problem::Kind::unsupported, "wgmma.mma_async: a matrix descriptor's base offset (ISA 9.7.15.5.1.11) is not modelled", {&first});
      return 0;
    }
    const std::uint64_t at = desc.address(mn, b1 ? k / 8 : k, eb, mn_major);
    const std::uint8_t* p = stop_ ? nullptr : locate(first, StateSpace::shared, own_shared_base() + at, eb, false);
    if (p && opt_.observer) observe_async(op, first.top->fn, ins, MemoryAccess::Kind::read, StateSpace::shared, at, eb, cta_);
    std::uint32_t bits = 0;
    for (unsigned i = 0; p && i < eb; ++i) bits |= static_cast<std::uint32_t>(p[i]) << (8 * i);
    return b1 ? (bits >> (k % 8)) & 1 : bits;
  };
  auto load = [&](const MatrixDescriptor& desc, unsigned mn, unsigned k, bool mn_major, ST type) {
    return matrix_element_value(type, load_bits(desc, mn, k, mn_major));
  };
  const MatrixDescriptor db = MatrixDescriptor::wgmma(bdesc);
  for (unsigned k = 0; k < K; ++k)
    for (unsigned n = 0; n < N; ++n) B[k * N + n] = (neg_b ? -1 : 1) * load(db, n, k, trans_b, bt);
  const MatrixDescriptor da = MatrixDescriptor::wgmma(adesc);
  if (sp) {
    // A from a descriptor: stored element j of the warp's row r is element (16 rank + r, j) of the compressed matrix.
    const std::function<std::uint32_t(unsigned, unsigned)> stored = [&](unsigned r, unsigned j) { return load_bits(da, 16 * rank + r, j, trans_a); };
    if (!wgmma_sparse_a(w, group, ins, neg_a, reg_a ? nullptr : &stored, A)) return;
  } else if (!reg_a) {
    for (unsigned r = 0; r < 16; ++r)
      for (unsigned k = 0; k < K; ++k) A[r * K + k] = (neg_a ? -1 : 1) * load(da, 16 * rank + r, k, trans_a, at);
  } else {
    for (std::uint32_t m = group; m; m &= m - 1) {
      const unsigned lane = static_cast<unsigned>(std::countr_zero(m)), g = lane / 4, c = lane % 4;
      Thread& t = lane_thread(lane);
      for (unsigned r = 0; r < 4; ++r) {
        const std::uint32_t word = static_cast<std::uint32_t>(read(t, o[1].elements[r], 32).u64());
        for (unsigned j = 0; j < 4 / eb; ++j) {
          const unsigned i = r * (4 / eb) + j;  // element index a_i
          unsigned row, col;
          if (eb == 2) row = g + 8 * (i / 2 % 2), col = 2 * c + i % 2 + 8 * (i / 4);
          else if (eb == 4) row = g + 8 * (i % 2), col = c + 4 * (i / 2);
          else row = g + 8 * (i / 4 % 2), col = 4 * c + i % 4 + 16 * (i / 8);
          A[row * K + col] = (neg_a ? -1 : 1) * matrix_element_value(at, eb == 4 ? word : word >> (8 * eb * j));
        }
      }
    }
  }
  if (stop_) return;
  for (std::uint32_t m = group; m; m &= m - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(m)), g = lane / 4, c = lane % 4;
    Thread& t = lane_thread(lane);
    const bool scale_d = read(t, o[3 + sp], 32).u64() != 0;
    Thread::WgmmaOp op{t.frames.size(), {}};
    const auto& dregs = o[0].elements;
    for (std::size_t r = 0; r < dregs.size(); ++r) {
      const std::uint32_t s = slot_of(*this, t, dregs[r]);
      const CV old = accumulator(t, s, r);
      std::uint64_t out = 0;
      for (unsigned h = 0; h < (f16_d ? 2u : 1u); ++h) {
        const unsigned i = f16_d ? static_cast<unsigned>(2 * r + h) : static_cast<unsigned>(r);
        const unsigned row = g + 8 * (i / 2 % 2), col = 8 * (i / 4) + 2 * c + i % 2;
        if (is_int) {
          std::int64_t acc = scale_d ? static_cast<std::int32_t>(static_cast<std::uint32_t>(old.v)) : 0;
          for (unsigned k = 0; k < K; ++k) acc += static_cast<std::int64_t>(A[row * K + k]) * static_cast<std::int64_t>(B[k * N + col]);
          if (ins.q.has_word("satfinite")) acc = std::clamp<std::int64_t>(acc, INT32_MIN, INT32_MAX);
          out = static_cast<std::uint32_t>(acc);
          continue;
        }
        // Exact products summed in f64 (D first, then k = 0..K-1), rounded once to nearest even: one of the orders
        // and roundings 9.7.15.5.2 leaves open (docs/tensor-cores.md).
        const std::uint64_t dbits = f16_d ? (old.v >> (16 * h)) & 0xffff : old.v & 0xffffffff;
        double acc = !scale_d ? 0.0 : f16_d ? domain::fp_to_double(domain::FpFormat::f16, dbits) : domain::bits_to_f32(static_cast<std::uint32_t>(dbits));
        for (unsigned k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];
        out |= static_cast<std::uint64_t>(round_accumulator(acc, f16_d)) << (16 * h);
      }
      op.writes.emplace_back(s, domain::Concrete::lit(32, out));
    }
    t.wgmma_open.push_back(std::move(op));
  }
}

// The warp's 16 rows of a sparse A (9.7.15.6.2): the stored elements from `stored` (A from a descriptor: row, stored
// element -> its bits) or from the registers, where lane l holds in register r those of row l / 4 + 8 (r % 2),
// columns 8 (l % 4) + 32 (r / 2) onward (Figure 179, 8-bit types). The metadata: .f16/.bf16, the pair of lanes
// 2 sp-sel, 2 sp-sel + 1 of each group of four, sp-sel 0 or 1 (Figure 176); 8-bit, all four lanes, sp-sel 0
// (Figures 180-181, 9.7.15.6.1). False, with the problem reported, when A is undefined.
bool Machine::wgmma_sparse_a(Warp& w, std::uint32_t group, const Instruction& ins, bool negate,
                             const std::function<std::uint32_t(unsigned, unsigned)>* stored, std::vector<double>& A) {
  const auto& o = ins.operands;
  const auto [n, k] = shape_nk(ins);
  const ir::ScalarType at = ins.q.types[1].scalar;
  const SparseA sa{at, 8 * matrix_elem_bytes(at), k, static_cast<unsigned>(o[4].imm)};
  Thread& first = cta_->threads[w.lanes[static_cast<unsigned>(std::countr_zero(group))]];
  if (sa.selector > sa.max_selector()) {
    fail(Problem::Kind::illegal, "wgmma.mma_async.sp: sp-sel " + std::to_string(sa.selector) + " is undefined for this shape (ISA 9.7.15.6.1)", {&first});
    return false;
  }
  std::vector<std::uint32_t> packed(16 * sa.row_bits() / 64, 0), meta(32, 0);
  std::vector<bool> has_meta(32, false);
  for (unsigned r = 0; stored && r < 16; ++r)
    for (unsigned j = 0; j < k / 2; ++j) pack_stored(sa, packed, r, j, (*stored)(r, j));
  for (std::uint32_t m = group; m; m &= m - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
    Thread& t = cta_->threads[w.lanes[lane]];
    for (unsigned r = 0; !stored && r < 4; ++r) pack_register(sa, packed, lane, r, static_cast<std::uint32_t>(read(t, o[1].elements[r], 32).u64()));
    meta[lane] = static_cast<std::uint32_t>(read(t, o[3], 32).u64()), has_meta[lane] = true;
  }
  if (stop_) return false;
  const BadNibble bad = decompress(sa, false, packed, meta, has_meta, A);
  if (bad.lane >= 0) {
    fail(Problem::Kind::illegal, "wgmma.mma_async.sp: sp-meta of lane " + std::to_string(bad.lane) + " (bits " + std::to_string(bad.bit + 3) + ".." +
                                     std::to_string(bad.bit) + ") names one position twice (ISA 9.7.15.6.1)",
         {&cta_->threads[w.lanes[static_cast<unsigned>(bad.lane)]]});
    return false;
  }
  if (negate)
    for (double& v : A) v = -v;
  return true;
}

}  // namespace ptx::interp
