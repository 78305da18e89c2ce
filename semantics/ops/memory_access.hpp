// What a memory instruction accesses, written once for the interpreter, the race encoder and the litmus builder:
// its kind, which operand is the address and which are data, how many bytes it touches, its state space and its
// memory order. The forms are those of ISA 9.7.9.8 ld, 9.7.9.9 ld.global.nc, 9.7.9.10 ldu, 9.7.9.11 st,
// 9.7.13.5 atom and 9.7.13.6 red; what an atom/red writes is ops::atomic_written (atomic.hpp).
#pragma once

#include "semantics/ir/ir.hpp"
#include "semantics/ir/memory_order.hpp"
#include "semantics/ops/effect.hpp"

#include <algorithm>
#include <cstddef>
#include <optional>

namespace ptx::ops {

enum class AccessKind : std::uint8_t {
  load,               // ld, ldu, ld.global.nc: d = *a
  store,              // st: *a = b
  read_modify_write,  // atom: d = *a; *a = op(*a, b{, c})
  reduction,          // red: *a = op(*a, b), no value returned
};

struct MemoryAccessForm {
  AccessKind kind = AccessKind::load;
  std::size_t address = 0;   // the operand [a]
  int destination = -1;      // d: the value read (ld, ldu, atom; atom's may be the sink `_`); -1 for st and red
  int source = -1;           // b: the value stored (st) or combined with *a (atom, red); -1 for ld
  int swap = -1;             // c of atom.cas: the value written when *a == b; -1 otherwise
  bool exchanges = false;    // atom.exch: b is written as it is (9.7.13.5)
  std::size_t operands = 0;  // how many the form has, the optional cache-policy aside
  bool cache_policy = false;  // .L2::cache_hint: a 64-bit cache-policy operand may follow, at position `operands`
  // st.async / red.async (9.7.9.12, 9.7.13.7): the access completes after the thread goes on; the .weak / .relaxed
  // forms signal the mbarrier object at operand `mbarrier` ([a], b, [mbar]) with complete-tx.
  bool asynchronous = false;
  int mbarrier = -1;
  unsigned element_bits = 32;  // the type's width: .f16x2 is one 32-bit element, .b128 one of 128
  unsigned count = 1;          // .v2 / .v4 / .v8: d and b are vectors of `count` elements at adjacent addresses
  ir::StateSpace space = ir::StateSpace::generic;  // as written; generic addressing when absent
  ir::MemoryOrder order;                           // ir::access_order, with the ISA's defaults

  unsigned element_bytes() const { return std::max(1u, element_bits / 8); }
  // Every byte from the address on that the instruction reads or writes (ld.v4.u32 and atom.v8.f16: 16).
  unsigned bytes() const { return element_bytes() * count; }
  bool returns_value() const { return destination >= 0; }
  bool writes() const { return kind != AccessKind::load; }
  bool atomic() const { return kind == AccessKind::read_modify_write || kind == AccessKind::reduction; }

  // The operands of an instruction of this form, where it has them (nullptr where the form has none or the
  // instruction is short of it).
  static const ir::Operand* operand(const ir::Instruction& in, int k) {
    return k >= 0 && static_cast<std::size_t>(k) < in.operands.size() ? &in.operands[static_cast<std::size_t>(k)] : nullptr;
  }
  const ir::Operand* address_of(const ir::Instruction& in) const { return operand(in, static_cast<int>(address)); }
  const ir::Operand* destination_of(const ir::Instruction& in) const { return operand(in, destination); }
  const ir::Operand* source_of(const ir::Instruction& in) const { return operand(in, source); }
  const ir::Operand* swap_of(const ir::Instruction& in) const { return operand(in, swap); }
  const ir::Operand* mbarrier_of(const ir::Instruction& in) const { return operand(in, mbarrier); }
  // What the instruction leaves in memory when it writes a value given as an operand: b of st and atom.exch, c of
  // atom.cas (written when *a == b); nullptr for a form that combines b with *a (atom.add, red) and for ld.
  const ir::Operand* written_value_of(const ir::Instruction& in) const {
    if (kind == AccessKind::store) return source_of(in);
    if (kind != AccessKind::read_modify_write) return nullptr;
    return swap >= 0 ? swap_of(in) : exchanges ? source_of(in) : nullptr;
  }
  // Whether `in` has the form's operands: exactly `operands`, or one more where a cache-policy may follow.
  bool operand_count_matches(const ir::Instruction& in) const {
    return in.operands.size() == operands || (cache_policy && in.operands.size() == operands + 1);
  }
  // The register a scalar result goes to: d when it is one whole register (not the sink `_`, which discards the
  // value, nor a vector or one component of one); -1 otherwise.
  int result_register(const ir::Instruction& in) const {
    const ir::Operand* d = destination_of(in);
    return count == 1 && d && d->kind == ir::Operand::Kind::Register && d->component < 0 ? d->reg : -1;
  }
};

// ld, ldu, st, atom, red (Effect::memory): the opcodes whose plain forms memory_access describes.
inline bool memory_access_opcode(ir::Opcode op) { return effect_of(op) == Effect::memory; }

// Whether the spec lists the form's vector width with its type (and, for atom/red, operation): ld/st .v8 of
// the 32-bit types (9.7.9.8, 9.7.9.11; also of 8- and 16-bit types, which the 9.0 text does not list but ptxas
// 13.0 accepts for sm_90 and sm_120, `ld.global.v8.u8`, and zluda's GPU-measured vector8_extract uses: a documented
// deviation, docs/one-semantics.md), ldu .v2/.v4 (9.7.9.10); a vector atom/red .add/.min/.max of .f16/.bf16
// (.v2/.v4/.v8) or .f16x2/.bf16x2 (.v2/.v4), or .add of .f32 (.v2/.v4) (the tables of 9.7.13.5-6).
inline bool vector_form_listed(ir::Opcode op, const ir::Qualifiers& q, const MemoryAccessForm& f) {
  if (f.count == 1) return true;
  if (op == ir::Opcode::ldu_) return f.count <= 4;
  if (!f.atomic()) return f.count < 8 || f.element_bits <= 32;
  if (q.types.empty()) return false;
  using T = ir::ScalarType;
  const T t = q.types.back().scalar;
  const bool add = q.atom_op == ir::AtomOp::add, min_max = q.atom_op == ir::AtomOp::min || q.atom_op == ir::AtomOp::max;
  if (t == T::f16 || t == T::bf16) return add || min_max;
  if (t == T::f16x2 || t == T::bf16x2) return f.count <= 4 && (add || min_max);
  return t == T::f32 && f.count <= 4 && add;
}

// The access an instruction form makes, from its opcode and decoded qualifiers; nullopt for another opcode, for
// st.bulk (9.7.9.13: [a], size, initval, no typed value) and for red.cas / red.exch (red's .op has neither,
// 9.7.13.6). Operand positions, from the syntax of each section:
//   ld{...}.type d, [a]{, cache-policy}          st{...}.type [a], b{, cache-policy}
//   atom{...}.op.type d, [a], b{, cache-policy}   atom{...}.cas.type d, [a], b, c
//   red{...}.op.type [a], b{, cache-policy}
//   st.async / red.async ... [a], b{, [mbar]}    (9.7.9.12, 9.7.13.7)
// With .vec, d and b are brace-enclosed vectors of that many elements (a `.v` register for ld/st), each of the
// type's width at adjacent addresses (9.7.9.8: .v2/.v4/.v8; 9.7.13.5-6: .v2/.v4/.v8 of .f16/.bf16, .v2/.v4 of
// .f16x2/.bf16x2/.f32). The element is the last type word (a form has one; untyped forms are invalid PTX and read
// as .b32).
inline std::optional<MemoryAccessForm> memory_access(ir::Opcode op, const ir::Qualifiers& q) {
  if (!memory_access_opcode(op) || q.has(ir::Flag::bulk)) return std::nullopt;
  if (op == ir::Opcode::red_ && (q.atom_op == ir::AtomOp::cas || q.atom_op == ir::AtomOp::exch)) return std::nullopt;
  MemoryAccessForm f;
  const bool atom = op == ir::Opcode::atom_, red = op == ir::Opcode::red_;
  f.kind = atom ? AccessKind::read_modify_write : red ? AccessKind::reduction : op == ir::Opcode::st_ ? AccessKind::store : AccessKind::load;
  switch (f.kind) {
    case AccessKind::load: f.destination = 0, f.address = 1, f.operands = 2; break;
    case AccessKind::store: case AccessKind::reduction: f.address = 0, f.source = 1, f.operands = 2; break;
    case AccessKind::read_modify_write:
      f.destination = 0, f.address = 1, f.source = 2, f.operands = 3;
      if (q.atom_op == ir::AtomOp::cas) f.swap = 3, f.operands = 4;
      f.exchanges = q.atom_op == ir::AtomOp::exch;
      break;
  }
  f.cache_policy = q.has(ir::Flag::L2_cache_hint);
  f.asynchronous = q.has(ir::Flag::async);
  // The .weak st.async and .relaxed red.async forms take [mbar] with or without .mbarrier::complete_tx::bytes
  // ("If .completion_mechanism is not specified, it defaults to .mbarrier::complete_tx::bytes"); the .release
  // forms to global memory take none (9.7.9.12, 9.7.13.7).
  if (f.asynchronous && (q.has(ir::Flag::mbarrier_complete_tx_bytes) || q.semantics != ir::MemorySemantics::release))
    f.mbarrier = static_cast<int>(f.operands++);
  f.element_bits = q.types.empty() ? 32 : ir::scalar_bits(q.types.back().scalar);
  f.count = std::max<unsigned>(1, q.vector_width);
  if (!vector_form_listed(op, q, f)) return std::nullopt;
  f.space = q.space.value_or(ir::StateSpace::generic);
  f.order = ir::access_order(q, f.atomic());
  return f;
}
inline std::optional<MemoryAccessForm> memory_access(const ir::Instruction& in) { return memory_access(in.op, in.q); }

// st.bulk{.weak}{.shared::cta} [a], size, initval (9.7.9.13): `size` bytes from a become initval. No typed value,
// so no MemoryAccessForm; where its operands are, for the interpreter (the race encoder refuses it).
struct BulkStoreForm {
  std::size_t address = 0, size = 1, initval = 2;
  std::size_t operands = 3;
  ir::StateSpace space = ir::StateSpace::generic;  // as written: .shared::cta or generic addressing
};
inline std::optional<BulkStoreForm> bulk_store(ir::Opcode op, const ir::Qualifiers& q) {
  if (op != ir::Opcode::st_ || !q.has(ir::Flag::bulk)) return std::nullopt;
  BulkStoreForm f;
  f.space = q.space.value_or(ir::StateSpace::generic);
  return f;
}
inline std::optional<BulkStoreForm> bulk_store(const ir::Instruction& in) { return bulk_store(in.op, in.q); }

}  // namespace ptx::ops
