// See mbarrier_address.hpp.
#include "checker/race/mbarrier_address.hpp"

#include <algorithm>
#include <set>

namespace ptxcheck::race {

using ptx::ir::Flag;
using ptx::ir::Instruction;
using ptx::ir::Opcode;
using ptx::ir::Operand;
using OK = Operand::Kind;

namespace {
constexpr int max_depth = 24;
// The most candidate bounds tried per loop-carried register (the search below), to keep the analysis small.
constexpr std::uint64_t max_candidates = 64;
// The most registers' ranges asked per address (nested searches multiply): past it, not bounded.
constexpr std::size_t max_steps = 100000;

std::uint64_t width_mask(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

bool plain_register(const Operand& o) { return o.kind == OK::Register && o.component < 0 && !o.negated; }
}  // namespace

MbarrierAddresses::MbarrierAddresses(const ptx::ir::Module& m, const ptx::ir::Function& f, const Cfg& g) : m_(m), f_(f), g_(g) {
  defs_.resize(f.registers.size());
  for (std::uint32_t i = 0; i < f.body.size(); ++i)
    for (int r : written_registers(f.body[i])) defs_[static_cast<std::size_t>(r)].push_back(i);
}

int MbarrierAddresses::single_def(int r) const {
  return r >= 0 && defs_[static_cast<std::size_t>(r)].size() == 1 ? static_cast<int>(defs_[static_cast<std::size_t>(r)][0]) : -1;
}

std::optional<std::uint64_t> MbarrierAddresses::variable_size(const ptx::ir::VarRef& v) const {
  using W = ptx::ir::VarRef::Where;
  const ptx::ir::Variable* var = v.where == W::Global ? &m_.globals.at(v.index) : v.where == W::Local ? &f_.locals.at(v.index) : nullptr;
  if (!var || var->space != ptx::ir::StateSpace::shared || var->is_extern || var->count == 0) return std::nullopt;
  return var->size_bytes();
}

std::string MbarrierAddresses::name(const ptx::ir::VarRef& v) const {
  using W = ptx::ir::VarRef::Where;
  return v.where == W::Global ? m_.globals.at(v.index).name : v.where == W::Local ? f_.locals.at(v.index).name : "?";
}

// The value of r at `at` comes from one of its writes: no path from the kernel's entry reaches `at` without one (a
// register read before any write holds an undefined value, which no bound covers).
bool MbarrierAddresses::defined_before(int r, std::uint32_t at) const {
  const auto key = std::pair{r, at};
  if (auto it = defined_.find(key); it != defined_.end()) return it->second;
  bool defined = at != 0;
  std::vector<bool> seen(f_.body.size(), false);
  std::vector<std::uint32_t> todo = previous_instructions(g_, at);
  while (defined && !todo.empty()) {
    const std::uint32_t i = todo.back();
    todo.pop_back();
    if (seen[i]) continue;
    seen[i] = true;
    if (f_.body[i].guard < 0 && writes_register(f_.body[i], r)) continue;
    if (i == 0) defined = false;
    for (auto k : previous_instructions(g_, i)) todo.push_back(k);
  }
  return defined_[key] = defined;
}

std::optional<MbarrierAddresses::Sum> MbarrierAddresses::sum_of(const Operand& o, std::uint32_t at, int depth) const {
  if (depth > max_depth) return std::nullopt;
  if (o.kind == OK::Variable) return Sum{o.var};
  if (o.kind == OK::Immediate) return Sum{std::nullopt, static_cast<std::int64_t>(o.imm)};
  if (o.kind == OK::Address && o.base_kind == Operand::BaseKind::Variable) return Sum{o.var, o.offset};
  int r = -1;
  std::int64_t offset = 0;
  if (o.kind == OK::Address && o.base_kind == Operand::BaseKind::Register) { r = o.reg; offset = o.offset; }
  if (plain_register(o)) r = o.reg;
  const int def = single_def(r);
  if (def < 0 || !defined_before(r, at)) return std::nullopt;
  auto s = sum_of_def(static_cast<std::uint32_t>(def), depth + 1);
  if (s) s->offset += offset;
  return s;
}

// The sum instruction `def` writes: mov / cvta / cvt of a sum (a shared address or its generic form, ISA 6.4.1),
// add of two sums, or a register times a constant (mul.lo, mul.wide, shl) as a scaled index.
std::optional<MbarrierAddresses::Sum> MbarrierAddresses::sum_of_def(std::uint32_t def, int depth) const {
  const Instruction& in = f_.body[def];
  const auto& x = in.operands;
  if (in.guard >= 0) return std::nullopt;
  if ((in.op == Opcode::mov_ || in.op == Opcode::cvta_ || in.op == Opcode::cvt_) && x.size() == 2) return sum_of(x[1], def, depth);
  const bool integer = !in.q.types.empty() && ptx::ir::is_integer(in.q.types[0].scalar);
  if (!integer || x.size() != 3) return std::nullopt;
  if ((in.op == Opcode::mul_ && !in.q.has(Flag::hi)) || in.op == Opcode::shl_) {
    if (!plain_register(x[1]) || x[2].kind != OK::Immediate) return std::nullopt;
    if (in.op == Opcode::shl_ && x[2].imm >= 31) return std::nullopt;
    const std::int64_t k = in.op == Opcode::shl_ ? std::int64_t{1} << x[2].imm : static_cast<std::int64_t>(x[2].imm);
    if (k <= 0 || k > (1 << 16)) return std::nullopt;
    return Sum{std::nullopt, 0, k, x[1].reg, def};
  }
  if (in.op != Opcode::add_) return std::nullopt;
  auto term = [&](const Operand& o) -> std::optional<Sum> {
    if (auto s = sum_of(o, def, depth)) return s;
    if (plain_register(o)) return Sum{std::nullopt, 0, 1, o.reg, def};  // a register added as it is: stride 1
    return std::nullopt;
  };
  auto a = term(x[1]), b = term(x[2]);
  if (!a || !b || (a->var && b->var) || (a->stride && b->stride)) return std::nullopt;
  Sum s = *a;
  if (b->var) s.var = b->var;
  s.offset += b->offset;
  if (b->stride) { s.stride = b->stride; s.index = b->index; s.index_at = b->index_at; }
  return s;
}

std::optional<MbarrierAddress> MbarrierAddresses::of(const Operand& o, std::uint32_t at, std::string& why) const {
  auto s = sum_of(o, at, 0);
  if (!s || !s->var) {
    why = "is not a variable the engine follows (nor a slot of an mbarrier array in one: variable + offset + stride * a bounded index)";
    return std::nullopt;
  }
  const auto size = variable_size(*s->var);
  if (!s->stride) {
    // (An object past its variable's end would be another variable's, under another name.)
    if (size && (s->offset < 0 || static_cast<std::uint64_t>(s->offset) + 8 > *size)) {
      why = "lies outside its variable " + name(*s->var);
      return std::nullopt;
    }
    return MbarrierAddress{*s->var, s->offset};
  }
  const std::string array = "is a slot of an mbarrier array in " + name(*s->var) + " (offset " + std::to_string(s->offset) + " + " +
                            std::to_string(s->stride) + " * index)";
  if (!size || s->offset < 0 || static_cast<std::uint64_t>(s->offset) + 8 > *size) {
    why = array + " whose first slot does not lie inside a shared variable of known size";
    return std::nullopt;
  }
  const std::uint64_t last = (*size - 8 - static_cast<std::uint64_t>(s->offset)) / static_cast<std::uint64_t>(s->stride);
  Hypothesis h;
  steps_ = 0;
  const auto r = range_of(s->index, s->index_at, last, h, 0);
  if (!r || r->hi > last) {
    why = array + " whose index the engine does not bound to the " + std::to_string(last + 1) + " slot(s) inside the variable";
    return std::nullopt;
  }
  return MbarrierAddress{*s->var, s->offset, s->stride, r->hi};
}

// Values register r may hold at `at` (unsigned, in its width), from every write to it: a register with one write
// gets that write's range; one with several (a loop-carried counter) the smallest [0, B], B <= limit, that each
// write keeps when r is in it (an inductive invariant: every value r ever holds comes from one of them).
std::optional<MbarrierAddresses::Range> MbarrierAddresses::range_of(int r, std::uint32_t at, std::uint64_t limit, Hypothesis& h,
                                                                    int depth) const {
  if (depth > max_depth || r < 0 || ++steps_ > max_steps || !defined_before(r, at)) return std::nullopt;
  if (auto it = h.find(r); it != h.end()) return it->second;
  const auto& defs = defs_[static_cast<std::size_t>(r)];
  if (defs.size() == 1) return range_of_def(defs[0], limit, h, depth + 1);
  for (std::uint64_t b = 0; b <= std::min(limit, max_candidates); ++b) {
    Hypothesis with = h;
    with[r] = Range{0, b};
    const bool kept = std::all_of(defs.begin(), defs.end(), [&](std::uint32_t d) {
      const auto v = range_of_def(d, limit, with, depth + 1);
      return v && (v->lo > v->hi || v->hi <= b);
    });
    if (kept) {
      h = with;  // (the ranges of other registers this one relied on hold together with it)
      return Range{0, b};
    }
  }
  return std::nullopt;
}

std::optional<MbarrierAddresses::Range> MbarrierAddresses::range_of_operand(const Operand& o, std::uint32_t at, std::uint64_t limit,
                                                                            Hypothesis& h, int depth) const {
  if (o.kind == OK::Immediate) return Range{o.imm, o.imm};
  if (plain_register(o)) return range_of(o.reg, at, limit, h, depth);
  return std::nullopt;
}

// The range of what `def` writes, for mov, cvt, and with a constant, add, rem.u by a constant and selp.
std::optional<MbarrierAddresses::Range> MbarrierAddresses::range_of_def(std::uint32_t def, std::uint64_t limit, Hypothesis& h,
                                                                        int depth) const {
  const Instruction& in = f_.body[def];
  const auto& x = in.operands;
  if (x.empty() || !plain_register(x[0]) || in.q.types.empty()) return std::nullopt;
  const auto t = in.q.types[0];
  const std::uint64_t mask = width_mask(f_.registers[static_cast<std::size_t>(x[0].reg)].type.bits());
  auto fits = [&](std::optional<Range> v) { return v && v->hi <= mask ? v : std::nullopt; };
  if (in.op == Opcode::mov_ && x.size() == 2) return fits(range_of_operand(x[1], def, limit, h, depth));
  if (in.op == Opcode::cvt_ && x.size() == 2 && in.q.types.size() == 2 && ptx::ir::is_integer(in.q.types[1].scalar)) {
    auto v = range_of_operand(x[1], def, limit, h, depth);  // (a signed source below its sign bit widens as it is)
    const unsigned src = in.q.types[1].bits();
    if (v && ptx::ir::is_signed_int(in.q.types[1].scalar) && v->hi >> (src - 1)) return std::nullopt;
    return fits(v);
  }
  if (!ptx::ir::is_integer(t.scalar)) return std::nullopt;
  if (in.op == Opcode::selp_ && x.size() == 4) {
    auto a = selected(in, def, true, limit, h, depth), b = selected(in, def, false, limit, h, depth);
    if (!a || !b) return std::nullopt;
    if (a->lo > a->hi) return b;
    if (b->lo > b->hi) return a;
    return Range{std::min(a->lo, b->lo), std::max(a->hi, b->hi)};
  }
  if (x.size() != 3) return std::nullopt;
  if (in.op == Opcode::and_ && (x[1].kind == OK::Immediate || x[2].kind == OK::Immediate)) {
    const auto& m = x[1].kind == OK::Immediate ? x[1] : x[2];
    const auto v = range_of_operand(x[1].kind == OK::Immediate ? x[2] : x[1], def, limit, h, depth);
    const std::uint64_t k = m.imm & mask;  // x & k <= min(x, k), unsigned
    return Range{0, v ? std::min(v->hi, k) : k};
  }
  if (in.op == Opcode::rem_ && !ptx::ir::is_signed_int(t.scalar) && x[2].kind == OK::Immediate && (x[2].imm & mask) > 0)
    return Range{0, (x[2].imm & mask) - 1};
  if (in.op == Opcode::add_) {
    auto a = range_of_operand(x[1], def, limit, h, depth), b = range_of_operand(x[2], def, limit, h, depth);
    if (!a || !b || a->hi > mask || b->hi > mask - a->hi) return std::nullopt;
    return fits(Range{a->lo + b->lo, a->hi + b->hi});  // (no wrap: the sum stays in the width)
  }
  return std::nullopt;
}

// Whether instructions a < b < c lie in one basic block (so each run of c follows a run of b after one of a).
bool MbarrierAddresses::in_order(int a, int b, std::uint32_t c) const {
  if (a < 0 || b < 0 || !(a < b && static_cast<std::uint32_t>(b) < c)) return false;
  const int block = g_.block_of[c];
  return g_.block_of[static_cast<std::size_t>(a)] == block && g_.block_of[static_cast<std::size_t>(b)] == block;
}

// The range of selp's operand chosen when its predicate is `when_true`, narrowed when the predicate is
// `setp.eq/ne v, C` with v that operand's value (the same register written once, or it masked by an `and` with
// 2^k - 1 that keeps all of its range): on that side v == C, or v != C. An empty range (lo > hi): never chosen.
std::optional<MbarrierAddresses::Range> MbarrierAddresses::selected(const Instruction& in, std::uint32_t def, bool when_true,
                                                                    std::uint64_t limit, Hypothesis& h, int depth) const {
  const Operand& chosen = in.operands[when_true ? 1 : 2];
  auto v = range_of_operand(chosen, def, limit, h, depth);
  const Operand& p = in.operands[3];
  if (!v || !plain_register(p) || !plain_register(chosen) || single_def(chosen.reg) < 0) return v;
  const int pd = single_def(p.reg);
  if (pd < 0 || !in_order(single_def(chosen.reg), pd, def)) return v;
  const Instruction& s = f_.body[static_cast<std::size_t>(pd)];
  if (s.op != Opcode::setp_ || s.guard >= 0 || s.q.bool_op || !s.q.compare || s.operands.size() != 3 || s.q.types.empty() ||
      s.operands[2].kind != OK::Immediate || !plain_register(s.operands[1]))
    return v;
  const auto cmp = *s.q.compare;
  if (cmp != ptx::ir::CompareOp::eq && cmp != ptx::ir::CompareOp::ne) return v;
  // Is the compared register the chosen value, as it is or masked by an and that keeps it?
  int compared = s.operands[1].reg;
  if (const int md = single_def(compared); md >= 0 && compared != chosen.reg) {
    const Instruction& a = f_.body[static_cast<std::size_t>(md)];
    if (a.op != Opcode::and_ || a.guard >= 0 || a.operands.size() != 3 || !plain_register(a.operands[1]) ||
        a.operands[2].kind != OK::Immediate || a.operands[1].reg != chosen.reg)
      return v;
    const std::uint64_t k = a.operands[2].imm;
    if ((k & (k + 1)) != 0 || v->hi > k || !in_order(single_def(chosen.reg), md, pd)) return v;
    compared = chosen.reg;
  }
  if (compared != chosen.reg || v->hi > width_mask(s.q.types[0].bits())) return v;
  const std::uint64_t c = s.operands[2].imm & width_mask(s.q.types[0].bits());
  const bool equal = (cmp == ptx::ir::CompareOp::eq) == when_true;
  if (equal) return c >= v->lo && c <= v->hi ? Range{c, c} : Range{1, 0};
  Range r = *v;
  if (r.lo == c) ++r.lo;
  else if (r.hi == c) --r.hi;
  return r;
}

}  // namespace ptxcheck::race
