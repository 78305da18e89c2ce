// See pipeline.hpp; the argument is in docs/race/pipeline.md.
#include "checker/race/pipeline.hpp"

#include "checker/race/encode.hpp"
#include "semantics/domain/concrete.hpp"
#include "semantics/ops/execute.hpp"

#include <algorithm>
#include <deque>
#include <set>

namespace ptxcheck::race {
namespace {

using ptx::domain::Concrete;
using ptx::domain::CV;
using ptx::ir::Function;
using ptx::ir::Instruction;
using ptx::ir::MbarrierOp;
using ptx::ir::Opcode;
using ptx::ir::Operand;
using OK = Operand::Kind;

constexpr std::size_t max_states = 200000;

// The registers an instruction reads: its sources (operands after the destination, address bases, vector
// elements) and its guard.
void add_registers(const Operand& o, std::vector<int>& out) {
  if (o.kind == OK::Register || (o.kind == OK::Address && o.base_kind == Operand::BaseKind::Register)) out.push_back(o.reg);
  if (o.kind == OK::PredPair) { out.push_back(o.reg); out.push_back(o.reg2); }
  for (const Operand& e : o.elements) add_registers(e, out);
}
std::vector<int> source_registers(const Instruction& in) {
  std::vector<int> out;
  for (std::size_t k = 1; k < in.operands.size(); ++k) add_registers(in.operands[k], out);
  if (in.guard >= 0) out.push_back(in.guard);
  return out;
}

unsigned register_bits(const Function& f, int r) {
  const auto& t = f.registers[static_cast<std::size_t>(r)].type;
  return t.scalar == ptx::ir::ScalarType::pred ? 1 : ptx::ir::scalar_bits(t.scalar);
}

// A value instruction semantics/ops computes, or cvta (an address into another window: the slots are told apart
// by differences of addresses, which it keeps).
bool constant_or_register(const Operand& o) {
  if (o.kind == OK::Vector) return std::all_of(o.elements.begin(), o.elements.end(), constant_or_register);
  return o.kind == OK::Register || o.kind == OK::Immediate || o.kind == OK::Variable || o.kind == OK::PredPair;
}

bool computable(const Instruction& in) {
  for (std::size_t k = 1; k < in.operands.size(); ++k)
    if (!constant_or_register(in.operands[k])) return false;  // (a special register: %tid, %clock, ...)
  if (in.op == Opcode::cvta_) return in.operands.size() == 2;
  const auto form = ptx::ops::form_of(in);
  return form.value != ptx::ops::ValueForm::none && form.value != ptx::ops::ValueForm::unmodelled && !in.q.has(ptx::ir::Flag::cc) &&
         in.op != Opcode::addc_ && in.op != Opcode::subc_ && in.op != Opcode::madc_;
}

class Explorer {
 public:
  Explorer(const Function& f, const Cfg& g, const PipelineArrays& a, const std::function<std::string(std::uint32_t)>& where)
      : f_(f), g_(g), a_(a), where_(where), S_(static_cast<std::int64_t>(a.slots)), forms_(f.body.size()) {
    defs_.resize(f.registers.size());
    for (std::uint32_t i = 0; i < f.body.size(); ++i)
      for (int r : written_registers(f.body[i])) defs_[static_cast<std::size_t>(r)].push_back(i);
    for (const PipelineOp& op : a.ops) op_at_.emplace(op.instr, op);
  }

  std::optional<PipelineProtocol> run(std::string& why) {
    if (!choose_registers(why)) return std::nullopt;
    std::string first_why;
    for (int full : {0, 1}) {
      full_ = full;
      bounds_.clear();
      why_.clear();
      if (explore()) return PipelineProtocol{full_, bounds_};
      if (first_why.empty()) first_why = why_;
    }
    why = first_why;
    return std::nullopt;
  }

 private:
  // Run state: the instruction, A_full mod 2S, W_full - A_full, A_empty - A_full, W_empty - A_full, whether a
  // cp.async has no cp.async.mbarrier.arrive after it yet, whether one was issued since the last arrive on "full",
  // then the followed registers (`undefined` before their first write).
  static constexpr std::uint64_t undefined = ~std::uint64_t{0} - 7;
  using State = std::vector<std::uint64_t>;
  enum Slot : std::size_t { pc, a_full, d_wait_full, d_arrive_empty, d_wait_empty, unconfirmed_copies, open_copies, first_register };

  std::int64_t d(const State& s, Slot k) const { return static_cast<std::int64_t>(s[k]); }
  static void set(State& s, Slot k, std::int64_t v) { s[k] = static_cast<std::uint64_t>(v); }
  std::int64_t mod2s(std::int64_t x) const { return ((x % (2 * S_)) + 2 * S_) % (2 * S_); }

  // The registers to follow: those the slots' addresses and the waits' parities are computed from (each written
  // only by computable instructions from such registers), the wait results, and registers computed from those
  // alone (the conditions of the branches around the waits). A counter the code only compares with a kernel
  // argument is not followed: its branches go both ways.
  bool choose_registers(std::string& why) {
    std::set<int> need, waits;
    for (const PipelineOp& op : a_.ops) {
      const Instruction& in = f_.body[op.instr];
      std::vector<int> rs;
      add_registers(in.operands[static_cast<std::size_t>(ptx::ir::mbarrier_object_operand(op.op))], rs);
      if (op.op == MbarrierOp::wait) {
        if (in.operands.size() < 3 || !in.q.has(ptx::ir::Flag::parity)) {
          why = "the wait at " + where_(op.instr) + " is not a parity wait";
          return false;
        }
        add_registers(in.operands[2], rs);
        // (Its result is followed when the wait alone writes it.)
        if (in.operands[0].kind == OK::Register && defs_[static_cast<std::size_t>(in.operands[0].reg)] == std::vector<std::uint32_t>{op.instr})
          waits.insert(in.operands[0].reg);
      }
      need.insert(rs.begin(), rs.end());
    }
    std::vector<int> todo(need.begin(), need.end());
    while (!todo.empty()) {
      const int r = todo.back();
      todo.pop_back();
      if (defs_[static_cast<std::size_t>(r)].empty()) {
        why = "register " + f_.registers[static_cast<std::size_t>(r)].name + ", which addresses a slot or gives a parity, is never written";
        return false;
      }
      for (auto i : defs_[static_cast<std::size_t>(r)]) {
        const Instruction& in = f_.body[i];
        if (!computable(in) || written_registers(in).size() != 1 || in.operands[0].kind != OK::Register || in.operands[0].component >= 0) {
          why = "the slot or parity register " + f_.registers[static_cast<std::size_t>(r)].name + " is computed at " + where_(i) +
                " by an instruction the engine does not follow here (" + ptx::ir::opcode_name(in.op) + ")";
          return false;
        }
        for (int s : source_registers(in))
          if (need.insert(s).second) todo.push_back(s);
      }
    }
    for (int r : need)
      if (register_bits(f_, r) > 64) {
        why = "register " + f_.registers[static_cast<std::size_t>(r)].name + " is wider than 64 bits";
        return false;
      }
    // Registers computed from followed ones alone (least fixed point).
    std::set<int> known = need;
    known.insert(waits.begin(), waits.end());
    for (bool grew = true; grew;) {
      grew = false;
      for (std::size_t r = 0; r < f_.registers.size(); ++r) {
        if (known.count(static_cast<int>(r)) || defs_[r].empty() || register_bits(f_, static_cast<int>(r)) > 64) continue;
        bool all = true;
        for (auto i : defs_[r]) {
          const Instruction& in = f_.body[i];
          if (!computable(in) || written_registers(in).size() != 1 || in.operands[0].kind != OK::Register || in.operands[0].component >= 0) { all = false; break; }
          for (int s : source_registers(in)) if (!known.count(s)) { all = false; break; }
          if (!all) break;
        }
        if (all) { known.insert(static_cast<int>(r)); grew = true; }
      }
    }
    wait_results_ = waits;
    for (int r : known) { slot_of_.emplace(r, followed_.size()); followed_.push_back(r); }
    return true;
  }

  // semantics/ops's frame over a run state's followed registers; a variable's address is a base of its own.
  struct Frame {
    static constexpr bool models_float = true;
    Explorer& x;
    State& s;
    bool ok = true;
    CV read(const Operand& o, unsigned w, bool is_signed) {
      if (o.kind == OK::Immediate) return Concrete::lit(w, o.imm);
      if (o.kind == OK::Variable) return Concrete::lit(w, x.base_of(o.var));
      if (o.kind == OK::Register && o.component < 0) {
        auto it = x.slot_of_.find(o.reg);
        if (it == x.slot_of_.end() || s[first_register + it->second] == undefined) { ok = false; return Concrete::lit(w, 0); }
        const CV v = Concrete::lit(register_bits(x.f_, o.reg), s[first_register + it->second]);
        return w <= v.w ? Concrete::extract(v, w - 1, 0) : is_signed ? Concrete::sext(v, w) : Concrete::zext(v, w);
      }
      ok = false;
      return Concrete::lit(w, 0);
    }
    void write(const Operand& o, const CV& v, bool is_signed) {
      if (o.kind != OK::Register || o.component >= 0) { ok = false; return; }
      const unsigned w = register_bits(x.f_, o.reg);
      write_register(o.reg, w <= v.w ? Concrete::extract(v, w - 1, 0) : is_signed ? Concrete::sext(v, w) : Concrete::zext(v, w));
    }
    void write_register(std::int32_t r, const CV& v) {
      auto it = x.slot_of_.find(r);
      if (it != x.slot_of_.end()) s[first_register + it->second] = static_cast<std::uint64_t>(v.v);
    }
    CV carry() { ok = false; return Concrete::lit(1, 0); }
    void set_carry(const CV&) { ok = false; }
  };

  std::uint64_t base_of(const ptx::ir::VarRef& v) {
    const auto key = std::pair{static_cast<int>(v.where), v.index};
    auto it = bases_.find(key);
    if (it == bases_.end()) it = bases_.emplace(key, 0x1000000ull * (bases_.size() + 1)).first;
    return it->second;
  }

  // An address operand's value; nullopt when a register in it is not known.
  std::optional<std::uint64_t> address(State& s, const Operand& o) {
    Frame fr{*this, s};
    std::uint64_t v = 0;
    if (o.kind == OK::Address) {
      if (o.base_kind == Operand::BaseKind::Register) {
        Operand base;
        base.kind = OK::Register;
        base.reg = o.reg;
        v = fr.read(base, 64, false).u64();
      } else if (o.base_kind == Operand::BaseKind::Variable) v = base_of(o.var);
      v += static_cast<std::uint64_t>(o.offset);
    } else {
      v = fr.read(o, 64, false).u64();
    }
    if (!fr.ok) return std::nullopt;
    return v;
  }

  // The slot of array `array` an operation addresses.
  std::optional<std::int64_t> slot(State& s, const PipelineOp& op) {
    const Instruction& in = f_.body[op.instr];
    auto v = address(s, in.operands[static_cast<std::size_t>(ptx::ir::mbarrier_object_operand(op.op))]);
    if (!v) return std::nullopt;
    const std::int64_t rel = static_cast<std::int64_t>(*v - base_of(a_.var)) - a_.offset[static_cast<std::size_t>(op.array)];
    if (rel < 0 || rel % a_.stride != 0 || rel / a_.stride >= S_) return std::nullopt;
    return rel / a_.stride;
  }

  bool fail(std::string text) {
    why_ = std::move(text);
    return false;
  }

  bool explore();
  bool step(const State& s, std::vector<State>& next);
  bool pipeline_step(State s, const PipelineOp& op, std::vector<State>& next);
  void record(const State& s);

  const Function& f_;
  const Cfg& g_;
  const PipelineArrays& a_;
  const std::function<std::string(std::uint32_t)>& where_;
  const std::int64_t S_;
  std::vector<std::optional<ptx::ops::Form>> forms_;
  std::vector<std::vector<std::uint32_t>> defs_;
  std::map<std::uint32_t, PipelineOp> op_at_;
  std::set<int> wait_results_;
  std::vector<int> followed_;
  std::map<int, std::size_t> slot_of_;
  std::map<std::pair<int, std::uint32_t>, std::uint64_t> bases_;
  int full_ = 0;
  std::map<std::uint32_t, std::array<std::int64_t, 4>> bounds_;
  std::string why_;
};

bool Explorer::explore() {
  State start(first_register + followed_.size(), undefined);
  for (Slot k : {pc, a_full, d_wait_full, d_arrive_empty, d_wait_empty, unconfirmed_copies, open_copies}) start[k] = 0;
  std::set<State> seen{start};
  std::deque<State> todo{start};
  std::vector<State> next;
  while (!todo.empty()) {
    const State s = std::move(todo.front());
    todo.pop_front();
    record(s);
    next.clear();
    if (!step(s, next)) return false;
    for (State& n : next) {
      for (Slot k : {d_wait_full, d_arrive_empty, d_wait_empty})
        if (std::abs(d(n, k)) > 4 * S_ + 4) return fail("a thread's arrives and waits on the two arrays drift apart (at " + where_(static_cast<std::uint32_t>(n[pc])) + ")");
      if (seen.insert(n).second) todo.push_back(std::move(n));
      if (seen.size() > max_states) return fail("more than " + std::to_string(max_states) + " states of a thread's run");
    }
  }
  return true;
}

void Explorer::record(const State& s) {
  const std::int64_t wf = d(s, d_wait_full), ae = d(s, d_arrive_empty), we = d(s, d_wait_empty);
  const std::array<std::int64_t, 4> v{wf, wf - ae, we, we - ae};
  auto [it, fresh] = bounds_.try_emplace(static_cast<std::uint32_t>(s[pc]), v);
  if (!fresh)
    for (std::size_t k = 0; k < 4; ++k) it->second[k] = std::min(it->second[k], v[k]);
}

// One instruction of a run: its successor states (a branch the followed registers do not decide goes both ways).
bool Explorer::step(const State& s, std::vector<State>& next) {
  const auto i = static_cast<std::uint32_t>(s[pc]);
  if (i >= f_.body.size()) return true;
  const Instruction& in = f_.body[i];
  auto at = [&](std::uint32_t to) { State n = s; n[pc] = to; return n; };
  if (in.guard >= 0) {
    auto it = slot_of_.find(in.guard);
    const std::uint64_t g = it == slot_of_.end() ? undefined : s[first_register + it->second];
    const bool known = g != undefined;
    if (!known || ((g & 1) != 0) == in.guard_negated) next.push_back(at(i + 1));  // not executed
    if (known && ((g & 1) != 0) == in.guard_negated) return true;
  }
  if (auto op = op_at_.find(i); op != op_at_.end()) return pipeline_step(at(i + 1), op->second, next);
  switch (in.op) {
    case Opcode::ret_: case Opcode::exit_: case Opcode::trap_: return true;
    case Opcode::bra_: next.push_back(at(static_cast<std::uint32_t>(in.operands[0].target))); return true;
    case Opcode::brx_:
      for (auto t : indexed_targets(in)) next.push_back(at(t));
      return true;
    case Opcode::call_: return fail("a call at " + where_(i) + " is left in the kernel");
    default: break;
  }
  State n = at(i + 1);
  // A cp.async copy is completed through the next cp.async.mbarrier.arrive (or a wait for all groups) before the
  // thread's next arrive on "full": so its writes land before that arrive's phase completes (9.7.13.15.15).
  // `open_copies`: a copy since the thread's last arrive on "full" (no arrive on "empty" may come between, so
  // that a thread's accesses that see the same number of arrives on "full" as a copy of its own see the same
  // number on "empty" too: check_own_copies.cpp).
  if (ptx::ir::async_copy_role(in) == ptx::ir::AsyncCopyRole::copy) n[unconfirmed_copies] = n[open_copies] = 1;
  if (ptx::ir::async_copy_role(in) == ptx::ir::AsyncCopyRole::wait && ptx::ir::async_wait_pending(in) == 0) n[unconfirmed_copies] = n[open_copies] = 0;
  bool writes_followed = false;
  for (int r : written_registers(in)) writes_followed = writes_followed || slot_of_.count(r);
  if (writes_followed) {
    if (!forms_[i]) forms_[i] = ptx::ops::form_of(in);
    Frame fr{*this, n};
    if (in.op == Opcode::cvta_) fr.write(in.operands[0], fr.read(in.operands[1], register_bits(f_, in.operands[0].reg), false), false);
    else if (ptx::ops::execute_value(Concrete{}, fr, in, *forms_[i]) != ptx::ops::Executed::done) fr.ok = false;
    if (!fr.ok) return fail("the engine cannot compute " + where_(i) + " in a thread's run (a register read before it is written?)");
  }
  next.push_back(std::move(n));
  return true;
}

}  // namespace

namespace {

bool Explorer::pipeline_step(State n, const PipelineOp& op, std::vector<State>& next) {
  const Instruction& in = f_.body[op.instr];
  const std::string at = " at " + where_(op.instr);
  const auto s = slot(n, op);
  if (!s) return fail("the slot of the operation" + at + " is not known in a thread's run, or not one of the array's");
  const bool on_full = op.array == full_;
  const std::int64_t a_f = d(n, a_full), wf = d(n, d_wait_full), ae = d(n, d_arrive_empty), we = d(n, d_wait_empty);
  auto slot_of_count = [&](std::int64_t relative) { return mod2s(a_f + relative) % S_; };
  auto phase_parity = [&](std::int64_t relative) { return mod2s(a_f + relative) / S_; };  // of count / S
  Frame fr{*this, n};
  if (op.op == MbarrierOp::copy_arrive) {
    if (!on_full || in.q.has(ptx::ir::Flag::noinc) || *s != slot_of_count(0))
      return fail("the cp.async.mbarrier.arrive" + at + " is not on the slot of the thread's next arrive on \"full\" (or is .noinc)");
    // After the wait on "empty" for the stage: the slot is then in the phase of the thread's next arrive, which
    // the copies' pending arrive-on holds back.
    if (we < 1) return fail("the cp.async.mbarrier.arrive" + at + " may come before the thread's wait on \"empty\" for that stage");
    n[unconfirmed_copies] = 0;
    next.push_back(std::move(n));
    return true;
  }
  if (op.op == MbarrierOp::arrive) {
    if (in.operands.size() > 2) {
      const CV count = fr.read(in.operands[2], 32, false);
      if (!fr.ok || count.v != 1) return fail("the arrive" + at + " does not count 1");
    }
    if (on_full) {
      // Its k-th arrive on "full" (slot k mod S) after its k-th wait on "empty" returned True.
      if (*s != slot_of_count(0)) return fail("the arrive" + at + " on \"full\" is not on the slot of the thread's stage");
      if (we < 1) return fail("the arrive" + at + " on \"full\" may come before the thread's wait on \"empty\" for that stage");
      if (n[unconfirmed_copies]) return fail("a cp.async before the arrive" + at + " on \"full\" is not completed through a cp.async.mbarrier.arrive on its slot");
      set(n, a_full, mod2s(a_f + 1));
      set(n, d_wait_full, wf - 1);
      set(n, d_arrive_empty, ae - 1);
      set(n, d_wait_empty, we - 1);
      n[open_copies] = 0;
    } else {
      if (n[open_copies]) return fail("the arrive" + at + " on \"empty\" comes between a cp.async and the thread's next arrive on \"full\"");
      // Its k-th arrive on "empty" after its k-th wait on "full" returned True.
      if (*s != slot_of_count(ae)) return fail("the arrive" + at + " on \"empty\" is not on the slot of the thread's stage");
      if (wf < ae + 1) return fail("the arrive" + at + " on \"empty\" may come before the thread's wait on \"full\" for that stage");
      set(n, d_arrive_empty, ae + 1);
    }
    next.push_back(std::move(n));
    return true;
  }
  if (op.op != MbarrierOp::wait) return fail("the operation" + at + " is not an arrive, a parity wait or cp.async.mbarrier.arrive");
  const CV parity = fr.read(in.operands[2], 32, false);
  if (!fr.ok) return fail("the parity of the wait" + at + " is not known in a thread's run");
  const int result = in.operands[0].kind == OK::Register ? in.operands[0].reg : -1;
  State failed = n;  // the wait returns False: nothing changes
  if (result >= 0) Frame{*this, failed}.write_register(result, Concrete::lit(1, 0));
  next.push_back(std::move(failed));
  // The j-th wait that returns True (j = W): slot j mod S, the phase of the arrives it waits for: j / S on "full",
  // j / S - 1 on "empty" (ISA 9.7.13.15.16: the parity of the current phase, or of the one before it, which has
  // completed; the phase before phase 0 counts as completed). The thread's wait j - S on the slot returned True
  // for the phase before, so the object has reached the phase waited for and the parity names it, not a phase two
  // earlier (docs/race/pipeline.md).
  const std::int64_t j = on_full ? wf : we;
  // A phase completes only with the arrive-on of every thread, this one's included (the thread's arrive number
  // nS + s belongs to phase n of slot s): before its own, the wait finds the phase it waits for current and
  // returns False. So the run goes on only through the wait's False (no run is left out).
  if (on_full ? wf >= 0 : ae - we < 1 - S_) return true;
  if (*s != slot_of_count(j)) return fail("the wait" + at + " is not on the slot of the thread's stage");
  const std::int64_t expected = on_full ? phase_parity(j) : 1 - phase_parity(j);
  if (static_cast<std::int64_t>(parity.v & 1) != expected || parity.v > 1)
    return fail("the wait" + at + " may wait with the parity of another phase than its stage's");
  set(n, on_full ? d_wait_full : d_wait_empty, j + 1);
  if (result >= 0) Frame{*this, n}.write_register(result, Concrete::lit(1, 1));
  next.push_back(std::move(n));
  return true;
}

}  // namespace

bool is_pipeline_counter(const ptx::ir::Register& r) { return r.name.rfind("%pipeline.arrivals.", 0) == 0; }
std::string pipeline_counter_name(bool full) { return full ? "%pipeline.arrivals.full" : "%pipeline.arrivals.empty"; }

std::optional<PipelineProtocol> check_pipeline_protocol(const ptx::ir::Function& f, const Cfg& g, const PipelineArrays& arrays,
                                                        const std::function<std::string(std::uint32_t)>& where, std::string& why) {
  return Explorer(f, g, arrays, where).run(why);
}

}  // namespace ptxcheck::race
