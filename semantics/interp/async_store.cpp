// st.async (PTX ISA 9.0 9.7.9.12) and red.async (9.7.13.7) in their mbarrier-completed forms, and st.bulk
// (9.7.9.13). st.async / red.async are checked here at issue and then carried out like a bulk copy (bulk_copy.cpp:
// at issue, or with --seed later), ending in complete-tx on the mbarrier with the bytes stored. Their accesses are
// generic-proxy ones (docs/race/async-proxy.md). st.bulk zeroes the shared memory at once, a plain weak store.
// The .release forms to global memory, without [mbar], run as the plain st / red they are (exec.cpp).
#include "semantics/interp/machine.hpp"
#include "semantics/ir/operation_types.hpp"

#include <algorithm>
#include <cstring>

namespace ptx::interp {

using ir::Opcode;
using OK = Operand::Kind;
using ST = ir::ScalarType;

// Which operand is which: ops::memory_access (st.async / red.async: [a], b, [mbar]) and ops::bulk_store (st.bulk).
bool async_store_form(const Instruction& ins) {
  if (ops::bulk_store(ins)) return true;
  const auto m = ops::memory_access(ins);
  return m && m->asynchronous && m->mbarrier >= 0 && m->operand_count_matches(ins);
}

// The syntax of 9.7.9.12 (first form), 9.7.13.7 (first four forms) and 9.7.9.13: .sem, .scope, .ss and the
// completion mechanism as listed there (optional where the syntax has braces), and the type tables.
bool async_store_supported(const Instruction& ins) {
  const auto& q = ins.q;
  const StateSpace ss = q.space.value_or(StateSpace::generic);
  if (ins.op == Opcode::st_ && q.has(ir::Flag::bulk))  // st.bulk{.weak}{.shared::cta}
    return (!q.semantics || *q.semantics == ir::MemorySemantics::weak) && !q.scope && (ss == StateSpace::generic || ss == StateSpace::shared) &&
           q.types.empty();
  const auto m = ops::memory_access(ins);
  if (!m || q.types.size() != 1 || (ss != StateSpace::generic && ss != StateSpace::shared_cluster)) return false;
  const ST t = q.types[0].scalar;
  if (ins.op == Opcode::st_) {  // st.async{.weak}{.cluster}{.shared::cluster}{.mbarrier::complete_tx::bytes}{.vec}.type
    const bool types = t == ST::b32 || t == ST::b64 || t == ST::u32 || t == ST::u64 || t == ST::s32 || t == ST::s64 || t == ST::f32 || t == ST::f64;
    return types && (!q.semantics || *q.semantics == ir::MemorySemantics::weak) && (!q.scope || *q.scope == ir::Scope::cluster) &&
           (m->count == 1 || m->count == 2 || m->count == 4);
  }
  // red.async.relaxed.cluster{.shared::cluster}.mbarrier::complete_tx::bytes.op.type: the operation and type table
  // is that of cp.reduce.async.bulk into .shared::cluster (9.7.9.25.4.2), so one rule serves both.
  return q.semantics == ir::MemorySemantics::relaxed && q.scope == ir::Scope::cluster && q.has(ir::Flag::mbarrier_complete_tx_bytes) &&
         m->count == 1 && q.atom_op && ir::bulk_reduction_allowed(*q.atom_op, t, false);
}

namespace {
// The destination of st.async / red.async: `size` bytes of shared memory in some CTA of the cluster, addressed in
// .shared::cluster or generically ("If the generic addresses specified do not fall within the address window of
// .shared::cluster state space, the behavior is undefined").
SharedTarget destination(Machine& m, Thread& t, const Operand& o, StateSpace given, std::uint64_t size, const std::string& name) {
  const std::uint64_t address = m.access_address(t, o, given);
  const auto [space, offset] = Machine::resolve(given == StateSpace::shared_cluster ? StateSpace::shared : given, address);
  if (space != StateSpace::shared) {
    m.fail(Problem::Kind::illegal, name + ": the destination is not in the .shared::cluster window (undefined, ISA 9.7.9.12, 9.7.13.7)", {&t});
    return {};
  }
  if (!m.locate(t, given, address, size, true)) return {};  // (out of bounds, or an exited CTA's: reported)
  return m.shared_target(given, offset);
}

// The bytes of operand b (a scalar, a {..} vector or a .v register), element k at k * eb, little-endian.
std::vector<std::uint8_t> value_bytes(Machine& m, Thread& t, const Operand& b, unsigned n, unsigned w, bool is_signed) {
  const unsigned eb = w / 8;
  std::vector<std::uint8_t> out(std::size_t(n) * eb);
  for (unsigned k = 0; k < n; ++k) {
    CV v = b.kind == OK::Vector ? m.read(t, b.elements.at(k), w, is_signed)
           : n > 1 && b.kind == OK::Register ? m.reg(t, b.reg, static_cast<int>(k))
                                             : m.read(t, b, w, is_signed);
    const std::uint64_t bits = v.u64();
    std::memcpy(out.data() + std::size_t(k) * eb, &bits, eb);
  }
  return out;
}
}  // namespace

// st.async [a], b, [mbar] / red.async [a], b, [mbar]: the checks of the sections' Conditions (each "Otherwise, the
// behavior is undefined", reported), then the operation is issued (start_async_store).
void Machine::exec_async_store(Thread& t, const Instruction& ins, const Decoded& d) {
  if (ins.q.has(ir::Flag::bulk)) return exec_st_bulk(t, ins, d);
  const ops::MemoryAccessForm f = *ops::memory_access(ins);  // (async_store_form: it has [a], b and [mbar])
  const std::string name = ir::opcode_text(ins);
  const bool red = f.kind == ops::AccessKind::reduction;
  const StateSpace given = d.space;  // .shared::cluster or generic (async_store_supported)
  auto illegal = [&](const std::string& why) { fail(Problem::Kind::illegal, name + ": " + why, {&t}); };
  // 9.7.9.12: "The number of CTAs within the cluster is strictly greater than one".
  if (!red && cta_->cluster->ctas.size() < 2) return illegal("%cluster_nctarank must be greater than 1 (ISA 9.7.9.12)");
  const SharedTarget dst = destination(*this, t, *f.address_of(ins), given, f.bytes(), name);
  if (!dst.cta || stop_) return;
  const SharedTarget bar = mbarrier_object(t, *f.mbarrier_of(ins), given, name, true);
  if (!bar.cta || stop_) return;
  // 9.7.9.12: a and mbar "belong to the same CTA"; 9.7.13.7: the same CTA, "different from the CTA of the executing
  // thread, but ... within the same cluster".
  if (bar.cta != dst.cta) return illegal("the destination and the mbarrier object are in different CTAs (ISA 9.7.9.12, 9.7.13.7)");
  if (red && dst.cta == cta_) return illegal("the destination is in the executing CTA's own shared memory (ISA 9.7.13.7)");
  start_async_store(t, ins, dst, bar, value_bytes(*this, t, *f.source_of(ins), f.count, f.element_bits, d.s0));
}

// st.bulk{.weak}{.shared::cta} [a], size, initval (9.7.9.13): size bytes of the executing CTA's shared memory from a
// become initval, which must be 0; size a multiple of 8 and at most 16777216. A weak write (Table 20: a variant
// of st), performed at once.
void Machine::exec_st_bulk(Thread& t, const Instruction& ins, const Decoded& d) {
  const auto& o = ins.operands;
  const ops::BulkStoreForm f = *ops::bulk_store(ins);
  const std::string name = ir::opcode_text(ins);
  auto illegal = [&](const std::string& why) { fail(Problem::Kind::illegal, name + ": " + why, {&t}); };
  const std::uint64_t size = read(t, o.at(f.size), 64).u64(), initval = read(t, o.at(f.initval), 64).u64();
  if (initval != 0) return illegal("initval is " + std::to_string(initval) + "; the only value allowed is 0 (ISA 9.7.9.13)");
  if (size % 8) return illegal("size " + std::to_string(size) + " is not a multiple of 8 (undefined, ISA 9.7.9.13)");
  if (size > 16777216) return illegal("size " + std::to_string(size) + " is above the maximum 16777216 (ISA 9.7.9.13)");
  const std::uint64_t address = access_address(t, o.at(f.address), d.space);
  const auto [space, offset] = resolve(d.space, address);
  // "If the address specified by a does not fall within the address window of .shared state space then the
  // behavior is undefined": .shared is .shared::cta, the executing CTA's own memory.
  if (space != StateSpace::shared || !shared_target(StateSpace::shared, offset).cta)
    return illegal("the address is not in the executing CTA's shared memory window (undefined, ISA 9.7.9.13)");
  std::uint8_t* p = locate(t, StateSpace::shared, offset, size, true);
  if (!p) return;
  if (opt_.observer) observe(t, ins, MemoryAccess::Kind::write, StateSpace::shared, offset, static_cast<std::uint32_t>(size));
  std::fill(p, p + size, std::uint8_t{0});
}

}  // namespace ptx::interp
