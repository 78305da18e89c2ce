#include "checker/race/named_barriers.hpp"

#include "checker/race/barrier_forms.hpp"
#include "checker/race/model_rules.hpp"

#include <algorithm>
#include <map>

namespace ptxcheck::race {
namespace {

using ptx::ir::Flag;
using ptx::ir::Opcode;
using OK = ptx::ir::Operand::Kind;

// What a path to an instruction has passed of one barrier: no operation, one arrive, one bar.sync, more.
constexpr std::uint8_t kNone = 1, kArrived = 2, kWaited = 4, kMany = 8;

// An operation whose thread waits for the barrier to complete (bar.sync, not bar.arrive: 9.7.13.1) and is then
// ordered after what the phase's arrivals released, as the memory model says (model_rules.hpp, 8.9.4 item 2).
bool waits(const ptx::ir::Instruction& in) { return !in.q.has(Flag::arrive) && barrier_wait_acquires(in); }

}  // namespace

bool NamedBarrierPhases::orders(std::uint32_t x, std::uint32_t y) const {
  for (const auto& b : barriers)
    if (b.before[x] && b.after_wait[y]) return true;
  return false;
}

bool NamedBarrierPhases::models(std::uint32_t i) const {
  return std::any_of(barriers.begin(), barriers.end(), [&](const SinglePhaseBarrier& b) { return b.operates(i); });
}

NamedBarrierPhases find_single_phase_barriers(const ptx::ir::Function& f, const Cfg& g, const Shape& block, bool x_only) {
  NamedBarrierPhases out;
  const auto n = static_cast<std::uint32_t>(f.body.size());
  // Per barrier name: its operations, and whether each is unguarded with the CTA's thread count.
  std::map<std::uint64_t, std::vector<std::uint32_t>> ops;
  std::map<std::uint64_t, std::string> broken;  // name -> why it is not single-phase
  const LaunchValues values(f, block, x_only);
  for (std::uint32_t i = 0; i < n; ++i) {
    const auto& in = f.body[i];
    const auto b = ptx::ir::cta_barrier_operands(in);
    if (!b) continue;
    const auto& name = in.operands[b->name];
    if (name.kind != OK::Immediate) return out;  // a register name may be any barrier's
    ops[name.imm].push_back(i);
    if (in.guard >= 0) broken.emplace(name.imm, "an operation on it is guarded");
    else if (!barrier_arrive_releases(in)) broken.emplace(name.imm, "the memory model says an operation on it does not release");
    else if (b->count < 0 || !values.is_cta_thread_count(in.operands[static_cast<std::size_t>(b->count)]))
      broken.emplace(name.imm, "an operation on it has a thread count other than the CTA's");
  }
  for (const auto& [name, instrs] : ops) {
    const bool arrives = std::any_of(instrs.begin(), instrs.end(), [&](std::uint32_t i) { return f.body[i].q.has(Flag::arrive); });
    if (!arrives) continue;  // (a CTA barrier, barrier_forms.hpp, or a partial one)
    const std::string label = "named barrier " + std::to_string(name);
    // ISA 9.7.13.1: "barrier{.cta}.red should not be intermixed with barrier{.cta}.sync or barrier{.cta}.arrive
    // using the same active barrier. Execution in this case is unpredictable."
    if (std::any_of(instrs.begin(), instrs.end(), [&](std::uint32_t i) { return f.body[i].q.has(Flag::red); }))
      broken.emplace(name, "bar.red mixed with bar.arrive on it (unpredictable, ISA 9.7.13.1)");
    if (auto it = broken.find(name); it != broken.end()) {
      out.rejected.push_back(label + ": " + it->second);
      continue;
    }
    // Forward dataflow: what the paths to each instruction have passed of this barrier.
    std::vector<std::uint8_t> in_state(n, 0);
    std::vector<bool> is_op(n, false);
    for (auto i : instrs) is_op[i] = true;
    auto after = [&](std::uint32_t i) -> std::uint8_t {
      const std::uint8_t s = in_state[i];
      if (!is_op[i]) return s;
      std::uint8_t t = 0;
      if (s & kNone) t |= waits(f.body[i]) ? kWaited : kArrived;
      if (s & (kArrived | kWaited | kMany)) t |= kMany;
      return t;
    };
    in_state[0] = kNone;
    for (bool changed = true; changed;) {
      changed = false;
      for (std::uint32_t i = 0; i < n; ++i) {
        if (g.block_of[i] < 0 || !in_state[i]) continue;
        const std::uint8_t s = after(i);
        for (auto k : next_instructions(g, i))
          if ((in_state[k] | s) != in_state[k]) { in_state[k] |= s; changed = true; }
      }
    }
    // Every path to the kernel's end (ret, exit: not trap, which aborts the launch) passes exactly one operation.
    bool once = true;
    for (std::uint32_t i = 0; i < n && once; ++i) {
      if (g.block_of[i] < 0 || !in_state[i] || f.body[i].op == Opcode::trap_) continue;
      if (!next_instructions(g, i).empty() && f.body[i].op != Opcode::ret_ && f.body[i].op != Opcode::exit_) continue;
      const std::uint8_t s = after(i);
      once = (s & (kNone | kMany)) == 0;
    }
    if (!once) {
      out.rejected.push_back(label + ": a thread may pass none or more than one operation on it (a loop, or two on one path)");
      continue;
    }
    SinglePhaseBarrier sb;
    sb.name = name;
    sb.ops = instrs;
    sb.before.assign(n, false);
    sb.after_wait.assign(n, false);
    for (std::uint32_t i = 0; i < n; ++i) {
      sb.before[i] = in_state[i] == kNone;
      sb.after_wait[i] = in_state[i] == kWaited;
    }
    for (auto op : instrs) {
      if (!waits(f.body[op])) continue;
      std::vector<bool> later(n, false), earlier(n, false);
      mark_reachable(g, {op}, later, true);
      mark_reachable(g, {op}, earlier, false);
      for (std::uint32_t i = 0; i < n; ++i) later[i] = later[i] && !earlier[i];
      sb.after_sync.emplace_back(op, std::move(later));
    }
    out.barriers.push_back(std::move(sb));
  }
  return out;
}

}  // namespace ptxcheck::race
