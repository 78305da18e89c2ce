// See barrier_forms.hpp.
#include "checker/race/barrier_forms.hpp"
#include "checker/race/budget.hpp"

#include "checker/race/cfg.hpp"
#include "checker/race/model_rules.hpp"
#include "checker/race/uniform.hpp"

#include <map>

namespace ptxcheck::race {

using ptx::ir::Flag;
using ptx::ir::Instruction;
using ptx::ir::Opcode;
using ptx::ir::Operand;
using OK = Operand::Kind;

LaunchValues::LaunchValues(const ptx::ir::Function& f, const Shape& block, bool x_only) : f_(f), block_(block), x_only_(x_only) {
  defs_.resize(f.registers.size());
  for (std::uint32_t i = 0; i < f.body.size(); ++i)
    for (int r : written_registers(f.body[i])) defs_[static_cast<std::size_t>(r)].push_back(i);
}

std::optional<z3::expr> LaunchValues::value_of(z3::context& c, const Operand& o, const std::vector<z3::expr>& ntid, int depth) const {
  if (depth > 16) return std::nullopt;
  if (o.kind == OK::Immediate) return c.bv_val(static_cast<std::uint64_t>(o.imm) & 0xffffffffu, 32);
  if (o.kind == OK::Special && o.special == ptx::ir::SpecialRegister::ntid && o.component >= 0 && o.component < 3)
    return ntid[static_cast<std::size_t>(o.component)];
  if (o.kind != OK::Register || o.component >= 0 || o.reg < 0) return std::nullopt;
  const auto& defs = defs_[static_cast<std::size_t>(o.reg)];
  if (defs.size() != 1) return std::nullopt;
  const Instruction& in = f_.body[defs[0]];
  if (in.guard >= 0) return std::nullopt;
  const auto& x = in.operands;
  auto arg = [&](std::size_t k) { return k < x.size() ? value_of(c, x[k], ntid, depth + 1) : std::nullopt; };
  if (in.op == Opcode::mov_ && x.size() == 2) return arg(1);
  const bool plain = !in.q.has(Flag::wide) && !in.q.has(Flag::hi) && !in.q.has(Flag::sat) && !in.q.has(Flag::cc);
  if (x.size() != 3 || !plain) return std::nullopt;
  auto a = arg(1), b = arg(2);
  if (!a || !b) return std::nullopt;
  if (in.op == Opcode::mul_) return *a * *b;
  if (in.op == Opcode::add_) return *a + *b;
  if (in.op == Opcode::shl_) return z3::shl(*a, *b);
  return std::nullopt;
}

bool LaunchValues::is_cta_thread_count(const Operand& o) const {
  z3::context c;
  const Launch launch = make_launch(c, block_, std::nullopt);
  auto v = value_of(c, o, launch.ntid, 0);
  if (!v) return false;
  z3::solver s(c);
  s.add(launch_shape_constraints(launch, block_, std::nullopt, x_only_, f_));
  s.add(*v != launch.ntid[0] * launch.ntid[1] * launch.ntid[2]);
  return solver::check(s, kShortQuery).unsat();
}

std::optional<std::uint64_t> LaunchValues::constant(const Operand& o) const {
  z3::context c;
  const Launch launch = make_launch(c, block_, std::nullopt);
  auto v = value_of(c, o, launch.ntid, 0);
  if (!v) return std::nullopt;
  const z3::expr s = v->simplify();
  if (s.is_numeral()) return s.get_numeral_uint64();
  return std::nullopt;
}

Instruction cta_barrier_at(const Instruction& at) {
  Instruction b;
  b.op = Opcode::bar_;
  b.q.words = {"sync"};
  b.q.flags = {Flag::sync};
  Operand zero;
  zero.kind = OK::Immediate;
  zero.imm = 0;
  b.operands = {zero};
  b.loc = at.loc;
  return b;
}

std::vector<std::string> rewrite_cluster_barriers(ptx::ir::Function& f, const std::function<std::string(std::uint32_t)>& where) {
  auto between = [&](const Instruction& in) {  // (register_only counts barriers and branches too)
    return register_only(in.op) && in.op != Opcode::bar_ && in.op != Opcode::barrier_ && in.op != Opcode::bra_ && in.op != Opcode::brx_;
  };
  // Every cluster barrier instruction must be part of such a pair: an arrive elsewhere (in a branch, .relaxed, or
  // with memory accesses before its wait) counts in the same phases, so the pairs' phases would not line up with
  // the CTA barrier's.
  std::vector<std::uint32_t> arrives;
  std::size_t paired = 0, cluster_ops = 0;
  std::optional<Cfg> g;
  Uniformity uni;
  for (std::uint32_t i = 0; i < f.body.size(); ++i) {
    const Instruction& arrive = f.body[i];
    if (!ptx::ir::is_cluster_barrier(arrive)) continue;
    ++cluster_ops;
    // Read as a CTA barrier only when the pair synchronizes (the model's answer, model_rules.hpp: not a .relaxed
    // arrive, 9.7.13.3).
    if (!arrive.q.has(Flag::arrive) || arrive.guard >= 0 || !barrier_arrive_releases(arrive)) continue;
    std::uint32_t j = i + 1;
    while (j < f.body.size() && between(f.body[j])) ++j;
    const bool waits = j < f.body.size() && ptx::ir::is_cluster_barrier(f.body[j]) && !f.body[j].q.has(Flag::arrive) &&
                       f.body[j].guard < 0 && barrier_wait_acquires(f.body[j]);
    if (!waits) continue;
    if (!g) {
      g = build_cfg(f);
      uni = analyse_uniformity(f, *g);
    }
    if (uni.divergent[static_cast<std::size_t>(g->block_of[i])]) continue;
    arrives.push_back(i);
    paired += 2;
  }
  std::vector<std::string> out;
  if (paired != cluster_ops) return out;
  for (auto i : arrives) {
    out.push_back(where(i));
    f.body[i] = cta_barrier_at(f.body[i]);
  }
  return out;
}

std::vector<std::string> rewrite_full_count_barriers(ptx::ir::Function& f, const Shape& block, bool x_only,
                                                     const std::function<std::string(std::uint32_t)>& where) {
  std::vector<std::uint32_t> counted;  // the barriers whose count is the CTA's
  std::map<std::int64_t, bool> name_ok;  // barrier name -> no use of it with another count or as an arrive
  bool register_name_breaks = false;    // a use with a name in a register that is not such a barrier
  {
    const LaunchValues values(f, block, x_only);
    for (std::uint32_t i = 0; i < f.body.size(); ++i) {
      const Instruction& in = f.body[i];
      const auto b = ptx::ir::cta_barrier_operands(in);
      if (!b) continue;
      const bool full = b->count < 0 || values.is_cta_thread_count(in.operands[static_cast<std::size_t>(b->count)]);
      const bool ok = full && !in.q.has(Flag::arrive);
      if (ok && b->count >= 0) counted.push_back(i);
      const Operand& name = in.operands[b->name];
      if (name.kind != OK::Immediate) register_name_breaks = register_name_breaks || !ok;
      else if (!name_ok.emplace(name.imm, ok).second) name_ok[name.imm] = name_ok[name.imm] && ok;
    }
  }
  std::vector<std::string> out;
  if (register_name_breaks) return out;
  for (auto i : counted) {
    Instruction& in = f.body[i];
    const auto b = ptx::ir::cta_barrier_operands(in);
    const Operand& name = in.operands[b->name];
    if (name.kind != OK::Immediate || !name_ok[name.imm]) continue;
    out.push_back(where(i));
    in.operands.erase(in.operands.begin() + b->count);
  }
  return out;
}

}  // namespace ptxcheck::race
