// Promotion of thread-private variables to registers (see private.hpp). A variable is promoted only when its
// address cannot reach anything but the loads and stores that access it: every register that holds an address
// in it is made by `mov`/`cvta` of the variable or of such a register, or by adding a constant to one, and is used
// only as the base of a plain ld/st. No other instruction (and no other thread: ISA 5.1.5 .local is per thread,
// 5.1.6 a call's .param is per call) can then read or write it, and its cells (offset, size) must not overlap
// partially, so each cell's value is exactly the last value stored to it on the path, as for a register.
#include "checker/race/private.hpp"

#include "checker/race/cfg.hpp"
#include "semantics/ops/memory_access.hpp"

#include <climits>
#include <functional>
#include <map>
#include <set>

namespace ptxcheck::race {
using ptx::ir::Instruction;
using ptx::ir::Opcode;
using ptx::ir::Operand;
using ptx::ir::ScalarType;
using ptx::ir::StateSpace;
using ptx::ir::VarRef;
using OK = Operand::Kind;

namespace {
struct Addr {
  int var = -3;  // -3: not yet known, -1: not an address in one promotable variable
  std::int64_t off = 0;
  bool operator==(const Addr&) const = default;
};

Addr join(Addr a, Addr b) {
  if (a.var == -3) return b;
  if (b.var == -3) return a;
  return a == b ? a : Addr{-1, 0};
}

// A typed ld or st; where its address and value operands are, its element size and count: ops::memory_access.
bool is_access(const Instruction& in) {
  return (in.op == Opcode::ld_ || in.op == Opcode::st_) && !in.q.types.empty() && ptx::ops::memory_access(in);
}
const Operand& address_operand(const Instruction& in) { return in.operands[ptx::ops::memory_access(in)->address]; }
const Operand& value_operand(const Instruction& in) {
  const auto m = *ptx::ops::memory_access(in);
  return in.operands[static_cast<std::size_t>(m.kind == ptx::ops::AccessKind::store ? m.source : m.destination)];
}

ScalarType bits_type(unsigned bytes) {
  switch (bytes) {
    case 1: return ScalarType::b8;
    case 2: return ScalarType::b16;
    case 4: return ScalarType::b32;
    default: return ScalarType::b64;
  }
}
// A promotable variable's cell: the bytes one access element covers.
struct Cell {
  std::int64_t off;
  unsigned size;
};

// One register per cell of each variable that does not escape, when its cells are identical or disjoint:
// variable -> offset -> register (added to f.registers); res.variables counts the variables promoted.
std::vector<std::map<std::int64_t, int>> promote_cells(ptx::ir::Function& f, const std::vector<bool>& escapes,
                                                       const std::vector<std::vector<Cell>>& cells, Promoted& res) {
  std::vector<std::map<std::int64_t, int>> reg_of(f.locals.size());
  for (std::size_t v = 0; v < f.locals.size(); ++v) {
    if (escapes[v] || cells[v].empty()) continue;
    std::map<std::int64_t, unsigned> size_at;
    bool ok = true;
    for (const auto& c : cells[v]) {
      auto [it, fresh] = size_at.emplace(c.off, c.size);
      if (!fresh && it->second != c.size) ok = false;
    }
    std::int64_t end = INT64_MIN;
    for (const auto& [off, size] : size_at) {
      if (off < end) ok = false;
      end = off + size;
    }
    if (!ok) continue;
    for (const auto& [off, size] : size_at) {
      f.registers.push_back({f.locals[v].name + "[" + std::to_string(off) + "]", {bits_type(size), 1}});
      reg_of[v][off] = static_cast<int>(f.registers.size() - 1);
    }
    ++res.variables;
  }
  return reg_of;
}

}  // namespace

Promoted promote_private(ptx::ir::Function& f) {
  Promoted res;
  const auto n = static_cast<std::uint32_t>(f.body.size());
  res.index.resize(n + 1);
  for (std::uint32_t i = 0; i <= n; ++i) res.index[i] = i;
  auto candidate = [&](const VarRef& v) -> int {
    if (v.where != VarRef::Where::Local) return -1;
    const auto s = f.locals[v.index].space;
    return s == StateSpace::local || s == StateSpace::param ? static_cast<int>(v.index) : -1;
  };

  // The address an instruction's result holds, from its sources' addresses (the forms of the header comment).
  std::vector<Addr> addr(f.registers.size());
  auto value_of = [&](const Operand& o) -> Addr {
    if (o.kind == OK::Register && o.component < 0 && o.reg >= 0) return addr[o.reg];
    if (o.kind == OK::Variable) { int v = candidate(o.var); return v >= 0 ? Addr{v, 0} : Addr{-1, 0}; }
    if (o.kind == OK::Address && o.base_kind == Operand::BaseKind::Variable && o.elements.empty()) {
      int v = candidate(o.var);
      return v >= 0 ? Addr{v, o.offset} : Addr{-1, 0};
    }
    return Addr{-1, 0};
  };
  auto def_of = [&](const Instruction& in) -> Addr {
    const auto& o = in.operands;
    if (in.guard >= 0 || o.size() < 2 || o[0].kind != OK::Register || o[0].component >= 0) return Addr{-1, 0};
    switch (in.op) {
      case Opcode::mov_: case Opcode::cvta_:
        return o.size() == 2 ? value_of(o[1]) : Addr{-1, 0};
      case Opcode::add_: case Opcode::sub_: {
        if (o.size() != 3 || in.q.has(ptx::ir::Flag::sat) || in.q.has(ptx::ir::Flag::cc)) return Addr{-1, 0};
        const Operand* base = &o[1];
        const Operand* k = &o[2];
        if (in.op == Opcode::add_ && base->kind == OK::Immediate) std::swap(base, k);
        if (k->kind != OK::Immediate) return Addr{-1, 0};
        Addr a = value_of(*base);
        if (a.var < 0) return a;
        const auto c = static_cast<std::int64_t>(k->imm);
        a.off += in.op == Opcode::add_ ? c : -c;
        return a;
      }
      default: return Addr{-1, 0};
    }
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& in : f.body) {
      auto outs = written_registers(in);
      if (outs.empty()) continue;
      Addr d = outs.size() == 1 ? def_of(in) : Addr{-1, 0};
      for (int r : outs) {
        Addr j = join(addr[r], d);
        if (!(j == addr[r])) { addr[r] = j; changed = true; }
      }
    }
  }
  for (auto& a : addr) if (a.var == -3) a.var = -1;

  // Uses: a promotable variable escapes when its address reaches any other use.
  std::vector<bool> escapes(f.locals.size(), false);
  std::vector<std::vector<Cell>> cells(f.locals.size());
  std::function<void(const Operand&)> escape = [&](const Operand& o) {
    Addr a = value_of(o);
    if (a.var >= 0) escapes[a.var] = true;
    if (o.kind == OK::Address && o.base_kind == Operand::BaseKind::Register && o.reg >= 0 && addr[o.reg].var >= 0) escapes[addr[o.reg].var] = true;
    if (o.kind == OK::Address && o.base_kind == Operand::BaseKind::Variable && candidate(o.var) >= 0) escapes[candidate(o.var)] = true;
    for (const auto& e : o.elements) escape(e);
  };
  // The promotable variable and offset an ld/st addresses, if any.
  auto accessed = [&](const Instruction& in) -> Addr {
    if (!is_access(in)) return Addr{-1, 0};
    const Operand& a = address_operand(in);
    if (a.kind != OK::Address || !a.elements.empty()) return Addr{-1, 0};
    const auto sp = in.q.space.value_or(StateSpace::generic);
    if (sp != StateSpace::local && sp != StateSpace::param && sp != StateSpace::generic) return Addr{-1, 0};
    Addr base;
    if (a.base_kind == Operand::BaseKind::Register && a.reg >= 0) base = addr[a.reg];
    else if (a.base_kind == Operand::BaseKind::Variable) base = candidate(a.var) >= 0 ? Addr{candidate(a.var), 0} : Addr{-1, 0};
    else return Addr{-1, 0};
    if (base.var < 0) return base;
    base.off += a.offset;
    return base;
  };
  auto element_bytes = [](const Instruction& in) { return ptx::ops::memory_access(in)->element_bits / 8; };
  for (const auto& in : f.body) {
    auto outs = written_registers(in);
    const bool address_def = outs.size() == 1 && addr[outs[0]].var >= 0;
    if (address_def) continue;  // its sources are addresses into the same variable: no escape
    Addr acc = accessed(in);
    if (acc.var >= 0) {
      const unsigned eb = element_bytes(in);
      const unsigned count = ptx::ops::memory_access(in)->count;
      const Operand& v = value_operand(in);
      const bool vec_ok = count == 1 ? v.kind != OK::Vector : (v.kind == OK::Vector && v.elements.size() == count);
      if (eb == 0 || eb > 8 || !vec_ok || in.q.semantics.has_value()) escapes[acc.var] = true;
      else for (unsigned k = 0; k < count; ++k) cells[acc.var].push_back({acc.off + std::int64_t(k) * eb, eb});
      escape(v);  // a stored value that is itself an address lets it escape
      continue;
    }
    for (const auto& o : in.operands) escape(o);
  }

  const auto reg_of = promote_cells(f, escapes, cells, res);  // variable -> offset -> register
  if (!res.variables) return res;

  // Rewrite: each access of a promoted variable becomes one move per element.
  std::vector<Instruction> body;
  body.reserve(f.body.size());
  for (std::uint32_t i = 0; i < n; ++i) {
    res.index[i] = static_cast<std::uint32_t>(body.size());
    const Instruction& in = f.body[i];
    Addr acc = accessed(in);
    if (acc.var < 0 || reg_of[acc.var].empty()) { body.push_back(in); continue; }
    const unsigned eb = element_bytes(in);
    const unsigned count = ptx::ops::memory_access(in)->count;
    const Operand& v = value_operand(in);
    // Integer loads keep their type (a narrower cell is sign- or zero-extended into the register as ld does,
    // ISA 9.7.9.8); floating-point ones move the bits.
    const ScalarType t = in.q.types[0].scalar;
    const ScalarType mt = ptx::ir::is_float(t) || in.op == Opcode::st_ ? bits_type(eb) : t;
    for (unsigned k = 0; k < count; ++k) {
      const Operand& val = count == 1 ? v : v.elements[k];
      if (val.kind == OK::Sink) continue;
      Operand cell;
      cell.kind = OK::Register;
      cell.reg = reg_of[acc.var].at(acc.off + std::int64_t(k) * eb);
      Instruction mv;
      mv.op = Opcode::mov_;
      mv.q.types.push_back({mt, 1});
      mv.q.words.push_back(ptx::ir::scalar_type_name(mt));
      mv.guard = in.guard;
      mv.guard_negated = in.guard_negated;
      mv.loc = in.loc;
      if (in.op == Opcode::st_) mv.operands = {cell, val};
      else mv.operands = {val, cell};
      body.push_back(std::move(mv));
    }
  }
  res.index[n] = static_cast<std::uint32_t>(body.size());
  std::function<void(Operand&)> retarget = [&](Operand& o) {
    if (o.kind == OK::Label && o.target >= 0) o.target = static_cast<std::int32_t>(res.index[static_cast<std::size_t>(o.target)]);
    for (auto& e : o.elements) retarget(e);
  };
  for (auto& in : body) for (auto& o : in.operands) retarget(o);
  for (auto& [name, idx] : f.labels) if (idx <= n) idx = res.index[idx];
  f.body = std::move(body);
  return res;
}

}  // namespace ptxcheck::race
