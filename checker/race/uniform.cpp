// Fixed point of "uniform operands, uniform control" (see uniform.hpp): thread ids, lane ids, clocks and
// memory loads are thread-dependent; a conditional branch on one makes the blocks up to its immediate
// post-dominator divergent, and values defined there are thread-dependent too.
#include "checker/race/uniform.hpp"

#include "semantics/ops/warp.hpp"

#include <map>

namespace ptxcheck::race {
using ptx::ir::Opcode;
using ptx::ir::Operand;
using ptx::ir::SpecialRegister;
using ptx::ir::StateSpace;

bool special_uniform(SpecialRegister s) {
  switch (s) {
    case SpecialRegister::ctaid: case SpecialRegister::ntid: case SpecialRegister::nctaid:
    case SpecialRegister::nwarpid: case SpecialRegister::gridid: case SpecialRegister::clusterid:
    case SpecialRegister::nclusterid: case SpecialRegister::cluster_ctaid: case SpecialRegister::cluster_nctaid:
    case SpecialRegister::cluster_ctarank: case SpecialRegister::cluster_nctarank:
    case SpecialRegister::dynamic_smem_size: case SpecialRegister::total_smem_size:
    case SpecialRegister::envreg:  // ISA 10.27: initialised by the driver, "cta-wide or grid-wide values"
      return true;
    default: return false;
  }
}

namespace {

bool operand_uniform(const Operand& o, const std::vector<bool>& reg) {
  switch (o.kind) {
    case Operand::Kind::Register: return reg[o.reg];
    case Operand::Kind::Special: return special_uniform(o.special);
    case Operand::Kind::Address: return o.base_kind != Operand::BaseKind::Register || reg[o.reg];
    case Operand::Kind::Vector:
    case Operand::Kind::List:
      for (const auto& e : o.elements) if (!operand_uniform(e, reg)) return false;
      return true;
    default: return true;
  }
}

// Whether the value an instruction produces can differ between threads with equal uniform inputs.
bool source_thread_dependent(const ptx::ir::Instruction& in) {
  switch (in.op) {
    case Opcode::ld_: case Opcode::ldu_: {
      auto sp = in.q.space.value_or(StateSpace::generic);
      return !(sp == StateSpace::param || sp == StateSpace::const_);
    }
    case Opcode::bar_: case Opcode::barrier_: return false;  // bar.red: the same result in every thread
    case Opcode::mov_: case Opcode::add_: case Opcode::sub_: case Opcode::mul_: case Opcode::mad_:
    case Opcode::mul24_: case Opcode::mad24_: case Opcode::div_: case Opcode::rem_: case Opcode::abs_:
    case Opcode::neg_: case Opcode::min_: case Opcode::max_: case Opcode::and_: case Opcode::or_:
    case Opcode::xor_: case Opcode::not_: case Opcode::cnot_: case Opcode::shl_: case Opcode::shr_:
    case Opcode::setp_: case Opcode::set_: case Opcode::selp_: case Opcode::slct_: case Opcode::cvt_:
    case Opcode::cvta_: case Opcode::popc_: case Opcode::clz_: case Opcode::bfe_: case Opcode::bfi_:
    case Opcode::brev_: case Opcode::bfind_: case Opcode::prmt_: case Opcode::lop3_: case Opcode::shf_:
    case Opcode::fma_: case Opcode::rcp_: case Opcode::sqrt_: case Opcode::rsqrt_: case Opcode::sad_:
    case Opcode::addc_: case Opcode::subc_: case Opcode::madc_: case Opcode::copysign_: case Opcode::testp_:
    case Opcode::ex2_: case Opcode::lg2_: case Opcode::sin_: case Opcode::cos_: case Opcode::tanh_:
      return false;
    default: return true;
  }
}
// shfl.sync.idx d, a, 0, c, 0xffffffff with c's segment mask 0 (c < 256): every lane reads lane 0's `a`, and lane 0
// exists in every warp (ISA 9.7.9.6: source lane j = (lane & segmask) | (b & ~segmask) = 0).
bool warp_broadcast_from_lane0(const ptx::ir::Function& f, const Cfg& g, std::uint32_t i) {
  const auto& in = f.body[i];
  const auto& o = in.operands;
  if (in.op != Opcode::shfl_ || !in.q.has(ptx::ir::Flag::sync) || ::ptx::ops::shfl_mode(in.q) != ::ptx::ops::ShflMode::idx || o.size() != 5)
    return false;
  const auto lane = constant_at(f, g, i, o[2]), clamp = constant_at(f, g, i, o[3]), mask = constant_at(f, g, i, o[4]);
  return lane && (*lane & 0xffffffffu) == 0 && clamp && (*clamp & 0xffffffffu) < 256 && mask && (*mask & 0xffffffffu) == 0xffffffffu;
}

enum class Level { cta, warp };

Uniformity analyse(const ptx::ir::Function& f, const Cfg& g, const std::set<std::uint32_t>& uniform_loads, Level level) {
  Uniformity u;
  u.reg.assign(f.registers.size(), true);
  u.divergent.assign(g.blocks.size(), false);
  u.cause.assign(g.blocks.size(), -1);
  const auto n = static_cast<std::uint32_t>(f.body.size());
  // A register read by an instruction that an unguarded instruction earlier in its block last wrote holds that
  // instruction's value (the only definition reaching it): uniform when that instruction's outputs are, whatever
  // other writes of the register elsewhere are (`atom` in a branch, then `shfl` over the same register).
  std::vector<bool> outputs_uniform(n, true);
  std::vector<std::vector<std::pair<int, std::uint32_t>>> local_def(n);  // instruction -> (register, its definition)
  for (const auto& bl : g.blocks) {
    std::map<int, std::uint32_t> last;  // register -> the unguarded instruction that last wrote it in the block
    for (auto i = bl.begin; i < bl.end; ++i) {
      const auto& in = f.body[i];
      auto note = [&](int r) { if (auto it = last.find(r); it != last.end()) local_def[i].emplace_back(r, it->second); };
      if (in.guard >= 0) note(in.guard);
      for (std::size_t k = 1; k < in.operands.size(); ++k)
        if (in.operands[k].kind == Operand::Kind::Register) note(in.operands[k].reg);
      for (int r : written_registers(in)) {
        if (in.guard < 0) last[r] = i;
        else last.erase(r);
      }
    }
  }
  auto register_uniform_at = [&](std::uint32_t i, int r) {
    for (const auto& [reg, def] : local_def[i]) if (reg == r) return static_cast<bool>(outputs_uniform[def]);
    return static_cast<bool>(u.reg[r]);
  };
  auto operand_uniform_at = [&](std::uint32_t i, const Operand& o) {
    return o.kind == Operand::Kind::Register ? register_uniform_at(i, o.reg) : operand_uniform(o, u.reg);
  };
  for (bool changed = true; changed;) {
    changed = false;
    // Divergent regions: from a thread-dependent branch to its immediate post-dominator.
    std::vector<bool> div(g.blocks.size(), false);
    for (std::size_t b = 0; b < g.blocks.size(); ++b) {
      const auto& bl = g.blocks[b];
      if (bl.end == bl.begin || bl.succ.size() < 2) continue;
      const auto& last = f.body[bl.end - 1];
      // (brx.idx also chooses by its index: ISA 9.7.12.4)
      const bool uniform_branch = (last.guard < 0 || register_uniform_at(bl.end - 1, last.guard)) &&
                                  (last.op != ptx::ir::Opcode::brx_ || operand_uniform_at(bl.end - 1, last.operands[0]));
      if (uniform_branch) continue;
      int stop = g.ipdom[b];
      std::vector<int> stack(bl.succ.begin(), bl.succ.end());
      while (!stack.empty()) {
        int x = stack.back(); stack.pop_back();
        if (x == stop || div[x]) continue;
        div[x] = true;
        if (u.cause[x] < 0) u.cause[x] = static_cast<int>(bl.end - 1);
        for (int s : g.blocks[x].succ) stack.push_back(s);
      }
    }
    // A block inside a divergent block's region stays divergent (nesting).
    for (std::size_t b = 0; b < div.size(); ++b)
      if (div[b] && !u.divergent[b]) { u.divergent[b] = true; changed = true; }
    for (std::size_t b = 0; b < g.blocks.size(); ++b) {
      for (auto i = g.blocks[b].begin; i < g.blocks[b].end; ++i) {
        const auto& in = f.body[i];
        auto outs = written_registers(in);
        if (outs.empty() || !outputs_uniform[i]) continue;
        const bool broadcast = level == Level::warp && warp_broadcast_from_lane0(f, g, i);  // (a: any value, lane 0's)
        const bool thread_dependent = source_thread_dependent(in) && !uniform_loads.count(i) && !broadcast;
        bool uni = !u.divergent[b] && !thread_dependent && (in.guard < 0 || register_uniform_at(i, in.guard));
        for (std::size_t k = broadcast ? 2 : 1; uni && k < in.operands.size(); ++k) uni = operand_uniform_at(i, in.operands[k]);
        if (uni) continue;
        outputs_uniform[i] = false;
        changed = true;
        for (int r : outs) u.reg[r] = false;
      }
    }
  }
  return u;
}
}  // namespace

Uniformity analyse_uniformity(const ptx::ir::Function& f, const Cfg& g, const std::set<std::uint32_t>& uniform_loads) {
  return analyse(f, g, uniform_loads, Level::cta);
}
Uniformity analyse_warp_uniformity(const ptx::ir::Function& f, const Cfg& g, const std::set<std::uint32_t>& uniform_loads) {
  return analyse(f, g, uniform_loads, Level::warp);
}

}  // namespace ptxcheck::race
