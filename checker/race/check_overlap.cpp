// Which accesses of a kernel's pair check (kernel_check.hpp) may conflict: their allocations, their overlap at
// aligned addresses, and pairs that are morally strong whatever the addresses.
#include "checker/race/kernel_check.hpp"

namespace ptxcheck::race {
using ptx::ir::Opcode;

void KernelCheck::index_objects() {
  // The objects that are pointer parameters' buffers.
  for (const auto& obj : prep.objects)
    if (parse_argument_symbol(obj.base_symbol)) pointer_params.insert(obj.name);
  // The size of each object that is a declared variable of known size (a shared array, a .global variable); pointer
  // parameters' buffers and unsized extern shared arrays have none.
  object_bytes.assign(prep.objects.size(), std::nullopt);
  for (std::size_t k = 0; k < prep.objects.size(); ++k) {
    if (pointer_params.count(prep.objects[k].name)) continue;
    for (const auto* vars : {&f.locals, &m.globals})
      for (const auto& v : *vars)
        if (v.name == prep.objects[k].name && v.size_bytes() > 0 && !object_bytes[k]) object_bytes[k] = v.size_bytes();
  }
  // The no-alias assumption (distinct pointer parameters and variables never overlap) for an access whose
  // allocation the static provenance could not tell: its address term names the allocation, through the `ite`s
  // a selected pointer (`selp`, `c ? A : B`) leaves. The allocation's index as a term, or nullopt when unknown.
  for (std::size_t k = 0; k < prep.objects.size(); ++k) object_of_symbol[prep.objects[k].base_symbol] = static_cast<int>(k);
}

// ISA 6.4.1: an address must be naturally aligned to the access size (otherwise the behaviour is undefined),
// so executions with a misaligned access are not considered.
z3::expr KernelCheck::aligned(const Access& a) {
  if (a.size == 0 || (a.size & (a.size - 1))) return c.bool_val(true);
  return (a.addr & c.bv_val(a.size - 1, 64)) == c.bv_val(0, 64);
}

bool KernelCheck::ignorable(Space sp) { return sp == Space::local || sp == Space::param || sp == Space::const_; }

KernelCheck::ObjectTerm KernelCheck::object_term(const z3::expr& e) {
  if (auto it = object_terms.find(e.id()); it != object_terms.end()) return it->second;
  ObjectTerm t = object_term_of(e);
  object_terms.emplace(e.id(), t);
  return t;
}

KernelCheck::ObjectTerm KernelCheck::object_term_of(const z3::expr& e) {
  if (e.is_numeral() || !e.is_bv()) return {ObjectTerm::none, {}};
  if (e.is_const()) {
    const std::string nm = e.decl().name().str();
    if (auto it = object_of_symbol.find(nm); it != object_of_symbol.end()) return {ObjectTerm::known, c.bv_val(it->second, 16)};
    // Narrower values are offsets; other 64-bit values (loads, havocked registers, a struct argument's fields)
    // may be pointers to anything.
    return {e.get_sort().bv_size() < 64 ? ObjectTerm::none : ObjectTerm::unknown, {}};
  }
  if (!e.is_app()) return {ObjectTerm::unknown, {}};
  switch (e.decl().decl_kind()) {
    case Z3_OP_ITE: {
      ObjectTerm t = object_term(e.arg(1)), f = object_term(e.arg(2));
      if (t.kind != ObjectTerm::known || f.kind != ObjectTerm::known) return {ObjectTerm::unknown, {}};
      return {ObjectTerm::known, z3::ite(e.arg(0), *t.id, *f.id)};
    }
    case Z3_OP_BADD: {
      ObjectTerm out{ObjectTerm::none, {}};
      for (unsigned k = 0; k < e.num_args(); ++k) {
        ObjectTerm a = object_term(e.arg(k));
        if (a.kind == ObjectTerm::none) continue;
        if (a.kind == ObjectTerm::unknown || out.kind != ObjectTerm::none) return {ObjectTerm::unknown, {}};
        out = a;
      }
      return out;
    }
    // Products and shifts of a pointer are not pointers into it.
    case Z3_OP_BMUL: case Z3_OP_BSHL: return {ObjectTerm::none, {}};
    // A shared address in a 32-bit register (`mov.u32 %r, s; add.s32 ...`) and its zero extension: the same address
    // (shared variables lie below 2^32 - 2^24 and do not wrap, the fact check_kernel states).
    case Z3_OP_ZERO_EXT: return object_term(e.arg(0));
    case Z3_OP_CONCAT:  // (Z3's simplifier writes a zero extension as a concatenation with zeros)
      if (e.num_args() == 2 && z3::eq(e.arg(0), c.bv_val(0, e.arg(0).get_sort().bv_size()))) return object_term(e.arg(1));  // (a numeral may be wider than 64 bits)
      break;
    case Z3_OP_EXTRACT:
      if (Z3_get_decl_int_parameter(c, e.decl(), 1) == 0) return object_term(e.arg(0));
      break;
    default: break;
  }
  // Other operations (extensions, concatenations, ...) of offsets are offsets.
  for (unsigned k = 0; k < e.num_args(); ++k)
    if (object_term(e.arg(k)).kind != ObjectTerm::none) return {ObjectTerm::unknown, {}};
  return {ObjectTerm::none, {}};
}

std::optional<z3::expr> KernelCheck::object_id(const Access& a) {
  if (a.object >= 0) return c.bv_val(a.object, 16);
  ObjectTerm t = object_term(a.addr);
  return t.kind == ObjectTerm::known ? t.id : std::nullopt;
}

// Both accesses run and overlap, at aligned addresses, in one allocation. With `plain_switch`, where the factored
// difference applies, the plain overlap is only implied by a fresh literal stored there: the query without it is
// the cheaper abstraction check_pair tries first.
z3::expr KernelCheck::both_overlap(const Access& a, const Access& b, std::optional<z3::expr>* plain_switch) {
  const z3::expr a_size = c.bv_val(a.size, 64), b_size = c.bv_val(b.size, 64);
  const z3::expr plain = accesses_overlap(a.addr, a_size, b.addr, b_size);
  z3::expr q = a.pc && b.pc && aligned(a) && aligned(b);
  // The same overlap over the factored address difference (difference.hpp), whose fresh products can always take
  // the real values, so the query has a model exactly when it had one without: what lets the solver see that
  // products of a symbolic stride are far apart.
  if (FactoredDifference d = factored_difference(a.addr, b.addr); d.factored) {
    q = q && accesses_overlap(d.value, a_size, c.bv_val(0, 64), b_size);
    for (const z3::expr& fact : d.facts) q = q && fact;
    if (plain_switch) {
      plain_switch->emplace(c, Z3_mk_fresh_const(c, "plain_overlap", c.bool_sort()));
      q = q && z3::implies(**plain_switch, plain);
    } else {
      q = q && plain;
    }
  } else {
    q = q && plain;
  }
  if (a.object < 0 || b.object < 0)
    if (auto ia = object_id(a), ib = object_id(b); ia && ib) q = q && *ia == *ib;
  return q;
}

// Pairs that cannot conflict whatever the addresses: two reads, memory no other thread sees, shared and global
// memory, two distinct allocations.
bool KernelCheck::never_conflict(const Access& a, const Access& b) {
  if (!a.write && !b.write) return true;
  if (ignorable(a.space) || ignorable(b.space)) return true;
  const bool a_sh = a.space == Space::shared, b_sh = b.space == Space::shared;
  if ((a_sh && b.space == Space::global) || (b_sh && a.space == Space::global)) return true;
  return a.object >= 0 && b.object >= 0 && a.object != b.object;
}

// ISA 8.6 morally strong without asking the solver: both strong with the same power-of-two size (natural
// alignment then makes overlap complete overlap) and each scope including the other thread for every pair
// the query admits (a wide scope, or a .cta one on shared memory, which only threads of one CTA reach).
bool KernelCheck::always_morally_strong(const Access& a, const Access& b) {
  if (!a.strong || !b.strong || a.size != b.size || a.size == 0 || (a.size & (a.size - 1))) return false;
  bool shared = a.space == Space::shared || b.space == Space::shared;
  auto wide = [&](ptx::ir::Scope sc) { return shared || scope_includes(sc, Nearness::same_gpu); };
  return wide(a.scope) && wide(b.scope);
}

}  // namespace ptxcheck::race
