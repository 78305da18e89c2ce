// tcgen05 (ISA 9.7.16) in the interpreter: Tensor Memory allocation (9.7.16.7), tcgen05.ld / st between
// registers and Tensor Memory (9.7.16.8), the single-thread tcgen05.mma (9.7.16.10.9.1) with both matrices in
// shared memory, tcgen05.commit (9.7.16.12.1), fences and waits. tcgen05.ld/st complete when issued; an MMA reads
// its operands when issued and writes D at the next scheduling point, where its commit's arrive-on is signalled
// too: executions the spec allows (docs/tcgen05.md).
#include "semantics/interp/machine.hpp"
#include "semantics/interp/matrix_operand.hpp"
#include "semantics/ops/float.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace ptx::interp {
namespace {
using ST = ir::ScalarType;

enum class Kind : std::uint8_t { none, alloc, dealloc, relinquish, ld, st, wait, fence, mma, commit, cp, shift };
Kind kind_of(const Instruction& ins) {
  const auto& q = ins.q;
  if (q.has_word("alloc")) return Kind::alloc;
  if (q.has_word("dealloc")) return Kind::dealloc;
  if (q.has_word("relinquish_alloc_permit")) return Kind::relinquish;
  if (q.has_word("ld")) return Kind::ld;
  if (q.has_word("st")) return Kind::st;
  if (q.has_word("wait::ld") || q.has_word("wait::st")) return Kind::wait;
  if (q.has_word("fence::before_thread_sync") || q.has_word("fence::after_thread_sync")) return Kind::fence;
  if (q.has_word("mma")) return Kind::mma;
  if (q.has_word("commit")) return Kind::commit;
  if (q.has_word("cp")) return Kind::cp;
  if (q.has_word("shift")) return Kind::shift;
  return Kind::none;
}

// The repeat factor .xN of tcgen05.ld/st (9.7.16.8.3).
unsigned repeat_of(const Instruction& ins) {
  for (unsigned n = 1; n <= 128; n *= 2)
    if (ins.q.has_word("x" + std::to_string(n))) return n;
  return 0;
}

// The data-movement shapes of tcgen05.ld/st (9.7.16.2.3) and where register r of lane l goes: (lane, column)
// relative to the address (columns in 32-bit cells, before (un)packing doubles them). .32x32b is the text's own
// (9.7.16.2.3.2: each lane of the warp one Tensor Memory lane, (32 * .num) bits of it). The 16-lane shapes are drawn
// in Figures 184-187, images missing from the text; their mapping here is CUTLASS's (cute/atom/copy_traits_sm100.hpp,
// SM100_TMEM_LOAD_16dp{32,64,128,256}b traits), which Apache TVM's tcgen05 documentation states alike.
enum class DataShape : std::uint8_t { none, s32x32b, s16x64b, s16x128b, s16x256b, s16x32bx2 };
DataShape data_shape(const Instruction& ins) {
  const auto& q = ins.q;
  return q.has_word("32x32b") ? DataShape::s32x32b : q.has_word("16x64b") ? DataShape::s16x64b : q.has_word("16x128b") ? DataShape::s16x128b
       : q.has_word("16x256b") ? DataShape::s16x256b : q.has_word("16x32bx2") ? DataShape::s16x32bx2 : DataShape::none;
}
unsigned registers_per_repeat(DataShape s) { return s == DataShape::s16x128b ? 2 : s == DataShape::s16x256b ? 4 : 1; }  // Table 49
std::pair<unsigned, unsigned> data_cell(DataShape s, unsigned l, unsigned r, unsigned half_split) {
  switch (s) {
    case DataShape::s16x64b: return {l / 4 + 8 * (l % 2), (l / 2) % 2 + 2 * r};
    case DataShape::s16x128b: return {l / 4 + 8 * (r % 2), l % 4 + 4 * (r / 2)};
    case DataShape::s16x256b: return {l / 4 + 8 * ((r / 2) % 2), r % 2 + 2 * (l % 4) + 8 * (r / 4)};
    case DataShape::s16x32bx2: return {l % 16, r + (l / 16) * half_split};  // the second access at taddr + immHalfSplitoff
    default: return {l, r};
  }
}

// The MMA kinds tcgen05.mma runs, their K (Table 41, dense) and A/B element size.
struct MmaKind {
  const char* word;
  unsigned k;
};
constexpr MmaKind kKinds[] = {{"kind::f16", 16}, {"kind::tf32", 8}, {"kind::f8f6f4", 32}, {"kind::i8", 32}};
const MmaKind* mma_kind(const Instruction& ins) {
  for (const auto& k : kKinds)
    if (ins.q.has_word(k.word)) return &k;
  return nullptr;
}
// tcgen05.ld.red (9.7.16.8.3): .32x32b or .16x32bx2 (immHalfSplitoff an immediate), .num at least .x2, .min or
// .max, of .f32 ({.abs}{.NaN}) or .u32/.s32; operands r, redval, [taddr]{, immHalfSplitoff}.
bool ld_red_supported(const Instruction& ins, DataShape shape) {
  const auto& q = ins.q;
  const auto& o = ins.operands;
  const bool split = shape == DataShape::s16x32bx2;
  if ((shape != DataShape::s32x32b && !split) || repeat_of(ins) < 2 || q.has_word("min") == q.has_word("max")) return false;
  if (q.types.size() != 1 || q.has_word("pack::16b")) return false;
  const ST t = q.types[0].scalar;
  const bool integer = t == ST::u32 || t == ST::s32;
  if (t != ST::f32 && (!integer || q.has_word("abs") || q.has_word("NaN"))) return false;
  return o.size() == (split ? 4u : 3u) && o[0].kind == Operand::Kind::Vector && o[1].kind == Operand::Kind::Register &&
         (!split || o[3].kind == Operand::Kind::Immediate);
}

// The reduction of tcgen05.ld.red over one thread's loaded values ("across columns in each lane", 9.7.16.8.3):
// .f32 as min/max (9.7.3.11-12: a NaN operand yields the other; .NaN: any NaN gives the canonical NaN; .abs:
// magnitudes, the result non-negative), folded from the first register; .u32/.s32 as integers.
std::uint32_t ld_reduce(const Instruction& ins, const std::vector<std::uint32_t>& v) {
  const bool is_max = ins.q.has_word("max");
  const ST t = ins.q.types[0].scalar;
  if (t == ST::f32) {
    ops::MinMaxMods m;
    m.abs = ins.q.has_word("abs"), m.nan = ins.q.has_word("NaN");
    domain::CV acc = domain::Concrete::lit(32, v[0]);
    if (m.abs) acc = ops::fabs(domain::Concrete{}, domain::FpFormat::f32, false, acc);
    for (std::size_t i = 1; i < v.size(); ++i)
      acc = ops::fminmax(domain::Concrete{}, domain::FpFormat::f32, is_max, m, acc, domain::Concrete::lit(32, v[i]));
    return static_cast<std::uint32_t>(acc.v);
  }
  std::uint32_t acc = v[0];
  for (std::size_t i = 1; i < v.size(); ++i) {
    const bool less = t == ST::s32 ? static_cast<std::int32_t>(v[i]) < static_cast<std::int32_t>(acc) : v[i] < acc;
    const bool greater = v[i] != acc && !less;
    if (is_max ? greater : less) acc = v[i];
  }
  return acc;
}
}  // namespace

// The forms the interpreter runs: allocation management; ld/st of every shape, ld.red (ld_red_supported); wait and the
// thread-sync fences;
// dense tcgen05.mma of .kind::f16/tf32/f8f6f4/i8 with A in shared memory (tf32: or Tensor Memory), .ws with M = 128,
// without .sp, .block_scale or
// .ashift; commit with
// .mbarrier::arrive::one; shift (tcgen05_shift.cpp); each with .cta_group::1 or ::2 (CTA pairs). Not: tcgen05.cp.
bool tcgen05_supported(const Instruction& ins) {
  const auto& q = ins.q;
  const auto& o = ins.operands;
  switch (kind_of(ins)) {
    case Kind::alloc: return o.size() == 2;
    case Kind::dealloc: return o.size() == 2;
    case Kind::relinquish: case Kind::wait: case Kind::fence: return o.empty();
    case Kind::ld: case Kind::st: {
      const DataShape shape = data_shape(ins);
      const std::size_t operands = shape == DataShape::s16x32bx2 ? 3 : 2;  // immHalfSplitoff
      const std::size_t split = kind_of(ins) == Kind::ld ? 2 : 1;
      if (q.has_word("red")) return kind_of(ins) == Kind::ld && ld_red_supported(ins, shape);
      return shape != DataShape::none && repeat_of(ins) && o.size() == operands &&
             (operands == 2 || o[split].kind == Operand::Kind::Immediate);
    }
    case Kind::mma: {
      if (!mma_kind(ins) || q.has_word("sp") || q.has_word("block_scale") || q.has_word("ashift")) return false;
      // .ws (tcgen05_ws.cpp): [d-tmem], a, b-desc, idesc, enable-input-d; no zero-column-mask-desc
      if (q.has_word("ws")) return q.has_word("cta_group::1") && o.size() == 5 && o[0].kind == Operand::Kind::Address &&
                                   o[4].kind != Operand::Kind::Vector && (o[1].kind != Operand::Kind::Address || q.has_word("kind::tf32"));
      // A from shared memory (a-desc), or in Tensor Memory ([a-tmem]) with .kind::tf32 (tcgen05_mma.cpp)
      return o.size() >= 5 && o.size() <= 7 && o[0].kind == Operand::Kind::Address &&
             (o[1].kind != Operand::Kind::Address || q.has_word("kind::tf32"));
    }
    case Kind::commit: return q.has_word("mbarrier::arrive::one") && (o.size() == 1 || (o.size() == 2 && q.has_word("multicast::cluster")));
    case Kind::shift: return q.has_word("down") && o.size() == 1 && o[0].kind == Operand::Kind::Address;  // 9.7.16.9.3
    default: return false;
  }
}

// 9.7.16.9.2 gives tcgen05.cp's shapes only as "lane x size" (9.7.16.2.3): not the matrix the shared-memory
// descriptor describes (its major-ness and element size pick the canonical layout of 9.7.16.3.3, and a copy has no
// instruction descriptor to say), not which lanes .4x256b fills, not which half of the data each warp of a .warpx2
// pair receives; the decompressions are Figures 194-198, images. Block scaling's scale-factor layouts in Tensor
// Memory (9.7.16.10.7.3-13, Figures 231-242) and in mma.sync's registers (9.7.14.3, Figures 43-45: which row or
// column each thread's byte scales) are images too. Guessing would give wrong answers, so these are refused.
std::string matrix_unsupported_reason(const Instruction& ins) {
  if (ins.op == ir::Opcode::tcgen05_ && kind_of(ins) == Kind::cp)
    return "tcgen05.cp: ISA 9.7.16.9.2 does not say which shared-memory layout the descriptor describes for a shape, "
           "which lanes .4x256b fills, or which half each .warpx2 warp receives; its decompression is in figures only";
  if (ins.op == ir::Opcode::tcgen05_ && ins.q.has_word("sp"))
    return ir::opcode_text(ins) + ": the layout of the sparsity metadata in Tensor Memory and the sub-columns the sparsity "
           "selector picks (ISA 9.7.16.10.8.4-10) are given in Figures 262-267 only";
  if (ins.op == ir::Opcode::tcgen05_ && ins.q.has_word("ashift"))
    return ir::opcode_text(ins) + ": ISA 9.7.16.10.9 says .ashift \"shifts the rows of the A matrix down by one row, except for "
           "the last row in the Tensor Memory\" but not what the first row then holds, nor whether Tensor Memory itself changes";
  if (ins.q.has_word("block_scale"))
    return ir::opcode_text(ins) + ": the scale-factor layouts of block scaling (ISA " +
           (ins.op == ir::Opcode::tcgen05_ ? "9.7.16.10.7, Figures 231-242" : "9.7.14.3, Figures 43-45") + ") are given in figures only";
  return {};
}

// Allocation management, ld and st are warp collectives (.sync.aligned with an effect on the warp's data).
bool tcgen05_collective(const Instruction& ins) {
  const Kind k = kind_of(ins);
  return k == Kind::alloc || k == Kind::dealloc || k == Kind::relinquish || k == Kind::ld || k == Kind::st;
}

// The warp collectives, once every live lane of the warp has arrived (.aligned: all execute the same instruction).
// With .cta_group::2 the warps of the two CTAs of a pair allocate together (9.7.16.7.1); here each CTA's warp
// allocates in its own CTA by the same rule, so that pairs allocating alike get the same columns (docs/tcgen05.md).
void Machine::warp_tcgen05(Warp& w, std::uint32_t group, const Instruction& ins) {
  Thread& first = cta_->threads[w.lanes[static_cast<unsigned>(std::countr_zero(group))]];
  const Kind k = kind_of(ins);
  if (k == Kind::ld || k == Kind::st) return tcgen05_ld_st(w, group, ins);
  const std::string name = ir::opcode_text(ins);
  auto illegal = [&](const std::string& why) { fail(Problem::Kind::illegal, name + ": " + why + " (ISA 9.7.16.7.1)", {&first}); };
  Cta& cta = *cta_;
  if (k == Kind::relinquish) {
    cta.tmem_relinquished = true;
    return;
  }
  const std::uint64_t columns = read(first, ins.operands[1], 32).u64();
  for (std::uint32_t m = group; m; m &= m - 1)
    if (read(cta.threads[w.lanes[static_cast<unsigned>(std::countr_zero(m))]], ins.operands[1], 32).u64() != columns)
      return illegal("the lanes of the warp give different column counts");
  if (columns < 32 || columns > kTmemColumns || !std::has_single_bit(columns))
    return illegal("nCols " + std::to_string(columns) + " is not a power of 2 in [32, 512]");
  const auto n = static_cast<std::uint32_t>(columns);
  if (k == Kind::dealloc) {
    const std::uint64_t taddr = read(first, ins.operands[0], 32).u64();
    auto it = cta.tmem_allocations.find(static_cast<std::uint32_t>(taddr & 0xffff));
    if ((taddr >> 16) != 0 || it == cta.tmem_allocations.end() || it->second != n)
      return illegal("address " + std::to_string(taddr) + " with " + std::to_string(n) + " columns is not an allocation of this CTA");
    cta.tmem_allocations.erase(it);
    return;
  }
  if (cta.tmem_relinquished) return illegal("the CTA has relinquished the right to allocate (tcgen05.relinquish_alloc_permit)");
  // The first free run of n columns at a multiple of n (where an allocation goes is the hardware's choice).
  std::uint32_t at = 0;
  for (; at < kTmemColumns; at += n) {
    bool free = true;
    for (const auto& [c, size] : cta.tmem_allocations) free = free && (c + size <= at || at + n <= c);
    if (free) break;
  }
  if (at >= kTmemColumns)
    return fail(Problem::Kind::unsupported, name + ": " + std::to_string(n) + " columns are not free; the allocation would block until another "
                "warp deallocates, which the interpreter does not model", {&first});
  if (cta.tmem.empty()) cta.tmem.assign(kTmemLanes * kTmemColumns, 0);
  cta.tmem_allocations[at] = n;
  // 9.7.16.7.1: the address (lane 0, column `at`) is written to shared memory by a weak store.
  const StateSpace space = ins.q.space.value_or(StateSpace::generic);
  const std::uint64_t where = access_address(first, ins.operands[0], space);
  store(first, space, where, domain::Concrete::lit(32, at), 4);
  if (opt_.observer) observe(first, ins, MemoryAccess::Kind::write, space, where, 4);
}

// tcgen05.ld / st .sync.aligned.shape.xN{.pack::16b | .unpack::16b}.b32 (9.7.16.8.3-4): lane l of the warp moves
// its registers r0.. to or from the cells data_cell() names, relative to taddr; with (un)packing each register
// holds the 16-bit elements of two adjacent cells, one per cell's low half (9.7.16.8.2). A warp reaches its quarter
// of the lanes only (9.7.16.8.1: warp r of a warpgroup, lanes 32r..32r+31). With .red, each thread's redval is the
// reduction of the values it loads (ld_reduce). Completes at issue, so tcgen05.wait has nothing to wait for.
void Machine::tcgen05_ld_st(Warp& w, std::uint32_t group, const Instruction& ins) {
  const bool load = kind_of(ins) == Kind::ld;
  const DataShape shape = data_shape(ins);
  const bool split = shape == DataShape::s16x32bx2;
  const auto& o = ins.operands;
  const unsigned red = load && ins.q.has_word("red") ? 1 : 0;  // tcgen05.ld.red: redval before [taddr]
  const Operand& data = o[load ? 0 : o.size() - 1];
  const Operand& where = o[load ? 1 + red : 0];
  Thread& first = cta_->threads[w.lanes[static_cast<unsigned>(std::countr_zero(group))]];
  const std::string name = ir::opcode_text(ins);
  auto illegal = [&](const std::string& why, const char* section) { fail(Problem::Kind::illegal, name + ": " + why + " (ISA " + section + ")", {&first}); };
  const unsigned regs = repeat_of(ins) * registers_per_repeat(shape);
  const bool packed = ins.q.has_word(load ? "pack::16b" : "unpack::16b");
  if (data.kind != Operand::Kind::Vector || data.elements.size() != regs)
    return illegal("the vector has " + std::to_string(data.kind == Operand::Kind::Vector ? data.elements.size() : 1) + " registers; this shape and .num take " +
                   std::to_string(regs), "9.7.16.8.3, Table 49");
  const std::uint32_t half_split = split ? static_cast<std::uint32_t>(o[load ? 2 + red : 1].imm) : 0;  // immHalfSplitoff
  const std::uint64_t taddr = address(first, where);
  for (std::uint32_t m = group; m; m &= m - 1)
    if (address(cta_->threads[w.lanes[static_cast<unsigned>(std::countr_zero(m))]], where) != taddr)
      return illegal("the lanes of the warp give different addresses", "9.7.16.8.3");
  const auto lane0 = static_cast<std::uint32_t>(taddr >> 16), column0 = static_cast<std::uint32_t>(taddr & 0xffff);
  const std::uint32_t rank = first.warp % 4, lanes = shape == DataShape::s32x32b ? 32 : 16;
  if (lane0 < 32 * rank || lane0 + lanes > 32 * rank + 32)
    return illegal("warp " + std::to_string(rank) + " of its warpgroup accesses lanes " + std::to_string(32 * rank) + "-" + std::to_string(32 * rank + 31) +
                   " only; the address names lanes " + std::to_string(lane0) + "-" + std::to_string(lane0 + lanes - 1), "9.7.16.8.1");
  std::uint32_t columns = 0;  // the columns the access spans, from column0
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned r = 0; r < regs; ++r) columns = std::max(columns, (data_cell(shape, l, r, half_split).second + 1) * (packed ? 2 : 1));
  if (!cta_->tmem_allocated(column0, columns))
    return illegal("columns " + std::to_string(column0) + "-" + std::to_string(column0 + columns - 1) + " are not allocated Tensor Memory", "9.7.16.7.1");
  // An observer hears of the warp's instruction as one asynchronous operation, completed by each thread's
  // tcgen05.wait::ld / ::st (9.7.16.6.2.3), each lane's cells its accesses.
  const std::uint64_t op = opt_.observer ? next_async_op_++ : 0;
  if (opt_.observer) {
    std::vector<ThreadRef> issuers;
    for (std::uint32_t m = group; m; m &= m - 1) issuers.push_back(thread_ref(cta_->threads[w.lanes[static_cast<unsigned>(std::countr_zero(m))]]));
    opt_.observer->async_op_issue(op, issuers, load ? Observer::AsyncGroup::tcgen05_ld : Observer::AsyncGroup::tcgen05_st, ins);
  }
  for (std::uint32_t m = group; m; m &= m - 1) {
    const unsigned l = static_cast<unsigned>(std::countr_zero(m));
    Thread& t = cta_->threads[w.lanes[l]];
    std::vector<std::uint32_t> loaded;  // .red: this thread's values, reduced into redval
    for (unsigned r = 0; r < regs; ++r) {
      const auto [lane, column] = data_cell(shape, l, r, half_split);
      if (opt_.observer)
        observe_tmem(op, first.top->fn, ins, load ? MemoryAccess::Kind::read : MemoryAccess::Kind::write, lane0 + lane,
                     column0 + column * (packed ? 2 : 1), packed ? 2 : 1, *cta_);
      std::uint32_t* cell = cta_->tmem.data() + (lane0 + lane) * kTmemColumns + column0 + column * (packed ? 2 : 1);
      if (load) {
        const std::uint32_t v = packed ? (cell[0] & 0xffff) | (cell[1] << 16) : cell[0];
        write(t, data.elements[r], domain::Concrete::lit(32, v));
        if (red) loaded.push_back(v);
      } else {
        const auto v = static_cast<std::uint32_t>(read(t, data.elements[r], 32).u64());
        if (packed) cell[0] = v & 0xffff, cell[1] = v >> 16;  // one 16-bit element per cell, low half
        else cell[0] = v;
      }
    }
    if (red) write(t, o[1], domain::Concrete::lit(32, ld_reduce(ins, loaded)));
  }
}

// The single-thread tcgen05 instructions: mma, commit, shift; the fences and waits order nothing here, where every
// tcgen05 operation has completed when it was issued.
void Machine::exec_tcgen05_lane(Thread& t, const Instruction& ins) {
  switch (kind_of(ins)) {
    case Kind::mma: return tcgen05_mma(t, ins);
    case Kind::commit: return tcgen05_commit(t, ins);
    case Kind::shift: return tcgen05_shift(t, ins);
    case Kind::wait:
      // An observer: the thread's tcgen05.ld (or .st) operations so far are complete (9.7.16.6.2.3).
      if (opt_.observer) {
        const auto g = ins.q.has_word("wait::ld") ? Observer::AsyncGroup::tcgen05_ld : Observer::AsyncGroup::tcgen05_st;
        opt_.observer->async_group_commit(thread_ref(t), g);
        opt_.observer->async_group_wait(thread_ref(t), g, 0, false);
      }
      return;
    case Kind::fence:
      if (!opt_.observer) return;
      if (ins.q.has_word("fence::after_thread_sync")) opt_.observer->tcgen05_after_thread_sync(thread_ref(t));
      else opt_.observer->tcgen05_before_thread_sync(thread_ref(t));
      return;
    default: return;
  }
}

// tcgen05.commit.cta_group::1.mbarrier::arrive::one{.shared::cluster}{.multicast::cluster}.b64 [mbar]{, ctaMask}
// (9.7.16.12.1): an arrive-on of count 1 once the thread's prior tcgen05 operations completed; with
// .multicast::cluster, on the object at the same offset in each CTA of ctaMask. The operations complete, and the
// arrive-on is signalled, at the next scheduling point (tcgen05_tick), not before the warp yields: a kernel whose
// other warps fall two phases behind on a parity wait would otherwise hang here and not on hardware, and one that
// reads D with tcgen05.ld before waiting on the mbarrier reads the old D, as it may on hardware.
void Machine::tcgen05_commit(Thread& t, const Instruction& ins) {
  const std::string name = ir::opcode_text(ins);
  const SharedTarget where = mbarrier_object(t, ins.operands[0], ins.q.space.value_or(StateSpace::generic), name, true);
  if (!where.cta) return;
  const std::uint64_t commit = opt_.observer ? next_async_op_++ : 0;
  if (opt_.observer) opt_.observer->tcgen05_commit(thread_ref(t), commit);
  if (ins.operands.size() == 1) {
    tcgen05_pending_.push_back({where.cta, where.offset, cta_, &t, name, commit});
    return;
  }
  const auto mask = static_cast<std::uint32_t>(read(t, ins.operands[1], 16).u64());
  const auto& ctas = cta_->cluster->ctas;
  for (std::uint32_t rank = 0; rank < 16 && !stop_; ++rank) {
    if (!((mask >> rank) & 1)) continue;
    if (rank >= ctas.size())
      return fail(Problem::Kind::illegal, name + ": ctaMask names rank " + std::to_string(rank) + ", outside the cluster of " +
                  std::to_string(ctas.size()) + " CTAs", {&t});
    tcgen05_pending_.push_back({ctas[rank], where.offset, cta_, &t, name, commit});
  }
}

void Machine::tcgen05_apply_results() {
  for (const auto& [cell, value] : tcgen05_results_) *cell = value;
  tcgen05_results_.clear();
}

// A scheduling point: the issued MMAs complete, then the commits that track them signal their mbarriers.
void Machine::tcgen05_tick() {
  tcgen05_apply_results();
  if (tcgen05_pending_.empty()) return;
  std::vector<PendingArrive> now;
  now.swap(tcgen05_pending_);
  Cta* const running = cta_;
  for (const PendingArrive& a : now) {
    if (stop_) break;
    cta_ = a.thread_cta;  // problems are reported as the committing thread's
    if (opt_.observer) {
      auto m = a.home->mbarriers.find(a.object);
      opt_.observer->async_op_complete_tx(a.commit, cta_linear(*a.home), a.object, m != a.home->mbarriers.end() ? m->second.phase : 0);
    }
    mbarrier_async_arrive(*a.thread, *a.home, a.object, 1, a.name);
  }
  cta_ = running;
}

}  // namespace ptx::interp
