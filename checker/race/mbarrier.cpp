// See mbarrier.hpp.
#include "checker/race/mbarrier.hpp"

#include "checker/race/cfg.hpp"
#include "checker/race/barrier_forms.hpp"
#include "checker/race/mbarrier_address.hpp"
#include "checker/race/model_rules.hpp"
#include "checker/race/pipeline.hpp"
#include "checker/race/uniform.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>

namespace ptxcheck::race {
namespace {

using ptx::ir::Flag;
using ptx::ir::Function;
using ptx::ir::Instruction;
using ptx::ir::Opcode;
using ptx::ir::Operand;
using OK = Operand::Kind;

// An mbarrier object as the instructions name it: a variable and a byte offset in it.
struct Object {
  ptx::ir::VarRef var;
  std::int64_t offset = 0;
  bool operator<(const Object& o) const {
    return std::tie(var.where, var.index, offset) < std::tie(o.var.where, o.var.index, o.offset);
  }
};

using ptx::ir::MbarrierOp;

bool is_wait(const Instruction& in) { return ptx::ir::mbarrier_op(in) == MbarrierOp::wait; }

class Recognizer {
 public:
  Recognizer(const ptx::ir::Module& m, Function& f, const Shape& block, bool x_only)
      : f_(f), g_(build_cfg(f)), values_(f, block, x_only), addresses_(m, f, g_) {
    defs_.resize(f.registers.size());
    for (std::uint32_t i = 0; i < f.body.size(); ++i)
      for (int r : written_registers(f.body[i])) defs_[static_cast<std::size_t>(r)].push_back(i);
  }

  MbarrierRewrite run(const std::function<std::string(std::uint32_t)>& where) {
    MbarrierRewrite out;
    std::map<Object, std::vector<std::uint32_t>> ops;  // object -> its mbarrier operations
    std::map<std::pair<int, std::uint32_t>, std::string> arrays;  // variable -> why its objects are not followed
    std::map<std::pair<int, std::uint32_t>, std::vector<std::pair<std::uint32_t, MbarrierAddress>>> slots;  // variable -> its slot operations
    for (std::uint32_t i = 0; i < f_.body.size(); ++i) {
      const Instruction& in = f_.body[i];
      const MbarrierOp op = ptx::ir::mbarrier_op(in);
      if (op == MbarrierOp::pending_count || (op == MbarrierOp::none && in.op != Opcode::mbarrier_)) continue;  // (no object)
      const int a = ptx::ir::mbarrier_object_operand(op);  // -1 for a form the IR does not know: any object
      std::string why = "is not a variable the engine follows";
      auto obj = a >= 0 && static_cast<std::size_t>(a) < in.operands.size() ? addresses_.of(in.operands[static_cast<std::size_t>(a)], i, why)
                                                                            : std::nullopt;
      if (!obj) {
        // It may name any object: none is taken as a barrier.
        out.rejected.push_back("the mbarrier object of the operation at " + where(i) + " " + why);
        return out;
      }
      if (obj->stride != 0) {
        arrays.try_emplace(variable_key(obj->var), array_reason(*obj, i, where));
        slots[variable_key(obj->var)].emplace_back(i, *obj);
      }
      ops[Object{obj->var, obj->offset}].push_back(i);
    }
    // Two arrays of a block-scope pipeline whose protocol holds are followed as such (pipeline.hpp).
    for (auto it = arrays.begin(); it != arrays.end();) {
      std::string why;
      if (!out.pipeline && follow_pipeline(slots.at(it->first), ops, out, where, why)) {
        it = arrays.erase(it);
        continue;
      }
      it->second += "; not followed as a pipeline's arrays: " + why;
      ++it;
    }
    // A slot of an array may be any of its objects: no object of that variable is taken as a barrier.
    for (auto it = ops.begin(); it != ops.end();) {
      if (arrays.count(variable_key(it->first.var)) == 0) { ++it; continue; }
      it = ops.erase(it);
    }
    for (const auto& [var, why] : arrays) out.rejected.push_back(why);
    if (ops.empty()) return out;
    uni_ = analyse_uniformity(f_, g_);
    for (const auto& [obj, list] : ops) {
      Pattern pattern;
      const std::string why = check_object(list, pattern, where);
      if (!why.empty()) {
        out.rejected.push_back(why);
        continue;
      }
      std::string at;
      for (auto i : pattern.arrives) {
        at += (at.empty() ? "" : ", ") + where(i);
        f_.body[i] = cta_barrier_at(f_.body[i]);
      }
      for (auto w : pattern.waits) f_.body[w].q.semantics = ptx::ir::MemorySemantics::relaxed;
      for (auto c : pattern.copy_arrives) f_.body[c] = copies_complete(f_.body[c]);
      out.barriers.push_back(at);
      out.inits.push_back(pattern.init);
      out.split.insert(out.split.end(), pattern.split.begin(), pattern.split.end());
    }
    return out;
  }

 private:
  int single_def(int r) const {
    return r >= 0 && defs_[static_cast<std::size_t>(r)].size() == 1 ? static_cast<int>(defs_[static_cast<std::size_t>(r)][0]) : -1;
  }

  static std::pair<int, std::uint32_t> variable_key(const ptx::ir::VarRef& v) { return {static_cast<int>(v.where), v.index}; }

  // Why the objects of an mbarrier array (a slot chosen by an index in a register, as a block-scope cuda::pipeline
  // picks its stage's "full" and "empty" mbarriers) are not taken as barriers: which slot an operation uses, so which
  // phase of which object a parity wait waits for (ISA 9.7.13.15.16), is not followed per loop iteration yet.
  std::string array_reason(const MbarrierAddress& a, std::uint32_t i, const std::function<std::string(std::uint32_t)>& where) const {
    return "the mbarrier objects in " + addresses_.name(a.var) + " are used as an array (offset " + std::to_string(a.offset) + " + " +
           std::to_string(a.stride) + " * index, index in [0, " + std::to_string(a.last_index) + "], first at " + where(i) +
           "): the engine does not follow which slot, and which phase of it, each arrive and parity wait uses per stage";
  }

  // Which wait's result register r holds just before instruction `at`, from the last write to it in at's block: the
  // wait's own predicate, or one derived from it by selp / setp against 0 / not / mov. `positive`: r (for an
  // integer, r != 0) is True exactly when the wait's result is.
  struct Literal {
    std::uint32_t wait = 0;
    bool positive = true;
  };
  std::optional<Literal> literal(int r, std::uint32_t at, int depth) const {
    if (r < 0 || depth > 8) return std::nullopt;
    const Block& b = g_.blocks[static_cast<std::size_t>(g_.block_of[at])];
    std::uint32_t k = at;
    while (k > b.begin && !writes_register(f_.body[k - 1], r)) --k;
    if (k == b.begin) return std::nullopt;
    const std::uint32_t def = k - 1;
    const Instruction& in = f_.body[def];
    const auto& x = in.operands;
    if (in.guard >= 0) return std::nullopt;
    auto flip = [](std::optional<Literal> l, bool by) {
      if (l && by) l->positive = !l->positive;
      return l;
    };
    auto imm = [&](std::size_t k2, bool& zero) {
      if (k2 >= x.size() || x[k2].kind != OK::Immediate) return false;
      zero = x[k2].imm == 0;
      return true;
    };
    if (is_wait(in) && x[0].kind == OK::Register && x[0].reg == r) return Literal{def, true};
    bool z1 = false, z2 = false;
    if (in.op == Opcode::selp_ && x.size() == 4 && imm(1, z1) && imm(2, z2) && z1 != z2 && x[3].kind == OK::Register)
      return flip(literal(x[3].reg, def, depth + 1), z1);  // selp d, 1, 0, q: d != 0 exactly when q
    if (in.op == Opcode::setp_ && x.size() == 3 && x[0].kind == OK::Register && !in.q.bool_op && in.q.compare &&
        (*in.q.compare == ptx::ir::CompareOp::ne || *in.q.compare == ptx::ir::CompareOp::eq)) {
      const bool eq = *in.q.compare == ptx::ir::CompareOp::eq;
      if (imm(2, z2) && z2 && x[1].kind == OK::Register) return flip(literal(x[1].reg, def, depth + 1), eq);
      if (imm(1, z1) && z1 && x[2].kind == OK::Register) return flip(literal(x[2].reg, def, depth + 1), eq);
      return std::nullopt;
    }
    if ((in.op == Opcode::not_ || in.op == Opcode::mov_) && x.size() == 2 && x[1].kind == OK::Register && !x[1].negated)
      return flip(literal(x[1].reg, def, depth + 1), in.op == Opcode::not_);
    return std::nullopt;
  }

  // A load, store or atomic that completes in the thread's program order (not .async): what item 5 of 9.7.13.15.16
  // leaves unordered when the thread runs it between its arrive and its wait.
  static bool plain_access(const Instruction& in) {
    return (in.op == Opcode::ld_ || in.op == Opcode::st_ || in.op == Opcode::atom_ || in.op == Opcode::red_) &&
           !in.q.has_word("async");
  }

  // From arrive `a` (whose state register is `token`), the instructions a thread may run before a wait on that
  // state has returned True, and the waits among them; the plain accesses among them go to `between`. nullopt,
  // with `why`, when one of them is another memory operation or the arrive can be reached again.
  std::optional<std::set<std::uint32_t>> wait_region(std::uint32_t a, int token, const std::set<std::uint32_t>& object_ops,
                                                     std::vector<std::uint32_t>& between, std::string& why) const {
    std::set<std::uint32_t> seen, waits;
    std::vector<std::uint32_t> todo{a + 1};
    const auto n = static_cast<std::uint32_t>(f_.body.size());
    while (!todo.empty()) {
      const std::uint32_t i = todo.back();
      todo.pop_back();
      if (i >= n || !seen.insert(i).second) continue;
      if (i == a) { why = "the arrive can be reached again before its wait returns True"; return std::nullopt; }
      const Instruction& in = f_.body[i];
      if (is_wait(in)) {
        const bool mine = object_ops.count(i) && !in.q.has(Flag::parity) && in.operands.size() >= 3 &&
                          in.operands[2].kind == OK::Register && in.operands[2].reg == token;
        if (!mine) { why = "a wait before the arrive's own completes is not on the state it returned"; return std::nullopt; }
        waits.insert(i);
      } else if (plain_access(in)) {
        between.push_back(i);
      } else if (!register_only(in.op) || in.op == Opcode::bar_ || in.op == Opcode::barrier_ || in.op == Opcode::brx_) {
        why = "the thread may run " + std::string(ptx::ir::opcode_name(in.op)) + " (ptx line " + std::to_string(in.loc.ptx_line) +
              ") between the arrive and a wait that returns True";
        return std::nullopt;
      }
      if (in.op == Opcode::ret_ || in.op == Opcode::exit_ || in.op == Opcode::trap_) continue;
      if (in.op != Opcode::bra_) { todo.push_back(i + 1); continue; }
      const auto target = static_cast<std::uint32_t>(in.operands[0].target);
      if (in.guard < 0) { todo.push_back(target); continue; }
      // Leave out the edge taken only when the wait's result is True.
      const auto lit = literal(in.guard, i, 0);
      const bool from_own_wait = lit && waits.count(lit->wait) > 0;  // (the wait is earlier in this block: visited)
      const bool taken_means_complete = from_own_wait && lit->positive != in.guard_negated;
      const bool fallthrough_means_complete = from_own_wait && lit->positive == in.guard_negated;
      if (!taken_means_complete) todo.push_back(target);
      if (!fallthrough_means_complete) todo.push_back(i + 1);
    }
    return waits;
  }

  // Why the mbarrier.init at `init_at` does not make the object one every thread of the CTA counts in: it runs in a
  // loop, its count is not the CTA's thread count, or a thread may reach one of `object_ops` after it without a
  // CTA barrier between (8.9.4 item 2 orders the init before them). Empty when it does.
  std::string init_problem(std::uint32_t init_at, const std::set<std::uint32_t>& object_ops, const std::string& object,
                           const std::function<std::string(std::uint32_t)>& where) const {
    if (!loops_around(g_, init_at).empty()) return object + " is initialised in a loop";
    if (f_.body[init_at].operands.size() < 2 || !values_.is_cta_thread_count(f_.body[init_at].operands[1]))
      return object + ": the count of its mbarrier.init at " + where(init_at) + " is not the number of threads of the CTA for every launch shape";
    std::vector<bool> seen(f_.body.size(), false);
    std::vector<std::uint32_t> todo = next_instructions(g_, init_at);
    while (!todo.empty()) {
      const std::uint32_t i = todo.back();
      todo.pop_back();
      if (seen[i] || separating_cta_barrier(f_.body[i])) continue;
      seen[i] = true;
      if (object_ops.count(i)) return object + ": a thread may reach " + where(i) + " after the init without a CTA barrier between";
      for (auto k : next_instructions(g_, i)) todo.push_back(k);
    }
    return "";
  }

  // The two arrays of a block-scope pipeline (pipeline.hpp) in the variable whose slot operations are `list`: each
  // slot initialised once as init_problem asks, the protocol checked on every run of a thread; then its arrives
  // count in two added registers and its waits are .relaxed (the pair check orders by the counts). false, with
  // `why`, when they are not such arrays.
  bool follow_pipeline(const std::vector<std::pair<std::uint32_t, MbarrierAddress>>& list, std::map<Object, std::vector<std::uint32_t>>& ops,
                       MbarrierRewrite& out, const std::function<std::string(std::uint32_t)>& where, std::string& why) {
    PipelineArrays arrays;
    arrays.var = list.front().second.var;
    arrays.stride = list.front().second.stride;
    std::vector<std::int64_t> offsets;
    std::uint64_t last = 0;
    for (const auto& [i, a] : list) {
      if (a.stride != arrays.stride || a.offset < 0 || a.offset >= a.stride) { why = "its slots are not addressed alike (" + where(i) + ")"; return false; }
      last = std::max(last, a.last_index);
      if (std::find(offsets.begin(), offsets.end(), a.offset) == offsets.end()) offsets.push_back(a.offset);
    }
    std::sort(offsets.begin(), offsets.end());
    if (offsets.size() != 2 || offsets[0] + 8 > offsets[1] || offsets[1] + 8 > offsets[0] + arrays.stride) {
      why = "it is not two arrays of mbarriers (a pipeline's \"full\" and \"empty\")";
      return false;
    }
    arrays.offset = {offsets[0], offsets[1]};
    arrays.slots = last + 1;
    std::set<std::uint32_t> array_ops;
    for (const auto& [i, a] : list) {
      const Instruction& in = f_.body[i];
      const MbarrierOp op = ptx::ir::mbarrier_op(in);
      const bool arrive = op == MbarrierOp::arrive && !in.q.has(Flag::expect_tx) && !in.q.has_word("noComplete") && !in.q.has_word("arrive_drop");
      // (which arrives release and which waits acquire: the model's answer, model_rules.hpp)
      const bool orders = op == MbarrierOp::copy_arrive || (arrive && barrier_arrive_releases(in)) || (op == MbarrierOp::wait && barrier_wait_acquires(in));
      if (!orders) {
        why = "the operation at " + where(i) + " is not a releasing arrive, an acquiring parity wait or cp.async.mbarrier.arrive";
        return false;
      }
      arrays.ops.push_back({i, a.offset == offsets[0] ? 0 : 1, op});
      array_ops.insert(i);
    }
    // Each slot: one mbarrier.init (at a constant address) and no other operation but those on the array.
    std::vector<std::uint32_t> inits;
    for (std::size_t a = 0; a < 2; ++a)
      for (std::uint64_t slot = 0; slot < arrays.slots; ++slot) {
        const std::int64_t offset = arrays.offset[a] + arrays.stride * static_cast<std::int64_t>(slot);
        const std::string object = "the mbarrier at offset " + std::to_string(offset) + " of " + addresses_.name(arrays.var);
        auto it = ops.find(Object{arrays.var, offset});
        std::vector<std::uint32_t> own;
        if (it != ops.end())
          for (auto i : it->second) if (!array_ops.count(i)) own.push_back(i);
        // Besides: mbarrier.inval (the pipeline's destructor, by the last thread to leave), after which the
        // thread uses no slot.
        std::vector<std::uint32_t> init, invals;
        for (auto i : own) (ptx::ir::mbarrier_op(f_.body[i]) == MbarrierOp::init ? init : invals).push_back(i);
        if (init.size() != 1 || init.size() + invals.size() != own.size() ||
            std::any_of(invals.begin(), invals.end(), [&](std::uint32_t i) { return ptx::ir::mbarrier_op(f_.body[i]) != MbarrierOp::inval; })) {
          why = object + " is not initialised exactly once (and used only as a slot, or invalidated)";
          return false;
        }
        std::vector<bool> after_inval(f_.body.size(), false);
        std::vector<std::uint32_t> from;
        for (auto i : invals) for (auto k : next_instructions(g_, i)) from.push_back(k);
        mark_reachable(g_, from, after_inval, true);
        for (auto i : array_ops)
          if (after_inval[i]) { why = object + " may be used at " + where(i) + " after its mbarrier.inval"; return false; }
        if (why = init_problem(init[0], array_ops, object, where); !why.empty()) return false;
        inits.push_back(init[0]);
      }
    auto protocol = check_pipeline_protocol(f_, g_, arrays, where, why);
    if (!protocol) return false;
    // Rewrite: arrives count, waits order nothing by themselves.
    std::array<int, 2> counter{};
    for (int a = 0; a < 2; ++a) {
      counter[static_cast<std::size_t>(a)] = static_cast<int>(f_.registers.size());
      f_.registers.push_back({pipeline_counter_name(a == protocol->full), ptx::ir::Type{ptx::ir::ScalarType::u32, 1}});
    }
    std::string arrives;
    for (const PipelineOp& op : arrays.ops) {
      Instruction& in = f_.body[op.instr];
      if (op.op == MbarrierOp::arrive) {
        in = count_arrive(in, counter[static_cast<std::size_t>(op.array)]);
        arrives += (arrives.empty() ? "" : ", ") + where(op.instr);
      } else if (op.op == MbarrierOp::wait) {
        in.q.semantics = ptx::ir::MemorySemantics::relaxed;
      }
    }
    for (auto it = ops.begin(); it != ops.end();) {
      if (variable_key(it->first.var) == variable_key(arrays.var)) it = ops.erase(it);
      else ++it;
    }
    out.inits.insert(out.inits.end(), inits.begin(), inits.end());
    out.pipeline = MbarrierRewrite::Pipeline{static_cast<std::int64_t>(arrays.slots), std::move(protocol->wait_bounds),
                                             addresses_.name(arrays.var) + " (" + std::to_string(arrays.slots) + " stages; arrives at " + arrives + ")"};
    return true;
  }

  // `add.u32 counter, counter, 1` at an arrive's place: the thread's arrives on the array, counted.
  static Instruction count_arrive(const Instruction& arrive, int counter) {
    Instruction add;
    add.op = Opcode::add_;
    ptx::ir::decode_qualifiers(Opcode::add_, {"u32"}, add.q);
    Operand r;
    r.kind = OK::Register;
    r.reg = counter;
    Operand one;
    one.kind = OK::Immediate;
    one.imm = 1;
    add.operands = {r, r, one};
    add.guard = arrive.guard;  // (a guarded arrive counts when it runs)
    add.guard_negated = arrive.guard_negated;
    add.loc = arrive.loc;
    return add;
  }

  // An object's operations in the barrier pattern of mbarrier.hpp.
  struct Pattern {
    std::uint32_t init = 0;
    std::vector<std::uint32_t> arrives;
    std::set<std::uint32_t> waits;          // in the arrives' regions
    std::vector<std::uint32_t> copy_arrives;  // cp.async.mbarrier.arrive, each followed by an arrive
    std::vector<std::pair<std::uint32_t, std::vector<std::uint32_t>>> split;  // arrive -> accesses before its wait
  };

  // Why the object's operations `list` are not the barrier pattern of mbarrier.hpp (empty: they are, as `p`).
  std::string check_object(const std::vector<std::uint32_t>& list, Pattern& p, const std::function<std::string(std::uint32_t)>& where) const {
    const std::set<std::uint32_t> object_ops(list.begin(), list.end());
    auto& arrives = p.arrives;
    auto& waits = p.waits;
    int init = -1;
    const std::string object = "the mbarrier object first used at " + where(list.front());
    for (auto i : list) {
      const Instruction& in = f_.body[i];
      const MbarrierOp op = ptx::ir::mbarrier_op(in);
      if (op == MbarrierOp::init) {
        if (init >= 0) return object + " has more than one mbarrier.init";
        init = static_cast<int>(i);
      } else if (op == MbarrierOp::wait) {
        continue;
      } else if (op == MbarrierOp::copy_arrive && !in.q.has(Flag::noinc) && in.guard < 0) {
        p.copy_arrives.push_back(i);  // (.noinc counts in the init's count, which then is not the thread count)
      } else if (op == MbarrierOp::arrive && !in.q.has(Flag::expect_tx) && !in.q.has_word("noComplete") && !in.q.has_word("arrive_drop")) {
        arrives.push_back(i);
      } else {
        return object + " has operations other than init, arrive, wait and cp.async.mbarrier.arrive (" + where(i) + ")";
      }
    }
    if (init < 0 || f_.body[static_cast<std::size_t>(init)].operands.size() < 2) return object + " is not initialised in the kernel";
    if (arrives.empty()) return object + " has no arrive";
    const auto init_at = static_cast<std::uint32_t>(init);
    p.init = init_at;
    if (auto why = init_problem(init_at, object_ops, object, where); !why.empty()) return why;
    for (auto a : arrives) {
      const Instruction& in = f_.body[a];
      const auto& x = in.operands;
      const std::string arrive = "the arrive at " + where(a);
      if (in.guard >= 0 || uni_.divergent[static_cast<std::size_t>(g_.block_of[a])])
        return arrive + " may be skipped by some threads of the CTA (a guard or a thread-dependent branch)";
      if (!barrier_arrive_releases(in)) return arrive + " does not release (.relaxed, ISA 9.7.13.15.13)";
      if (x.size() > 2 && values_.constant(x[2]) != std::optional<std::uint64_t>(1)) return arrive + " does not count 1 arrival";
      if (x.empty() || x[0].kind != OK::Register || single_def(x[0].reg) != static_cast<int>(a))
        return arrive + " does not keep the state it returns in a register of its own";
      std::string why;
      std::vector<std::uint32_t> between;
      auto region = wait_region(a, x[0].reg, object_ops, between, why);
      if (!region) return arrive + ": " + why;
      if (region->empty()) return arrive + " is not followed by a wait on its state";
      for (auto w : *region)  // (the model's answer, model_rules.hpp)
        if (!barrier_wait_acquires(f_.body[w])) return "the wait at " + where(w) + " does not acquire (.relaxed, ISA 9.7.13.15.16)";
      waits.insert(region->begin(), region->end());
      if (!between.empty()) p.split.emplace_back(a, std::move(between));
    }
    // ISA 9.7.13.15.15: the arrive-on a cp.async.mbarrier.arrive (without .noinc) triggers when the thread's earlier
    // copies complete, and its phase cannot complete before; when the thread reaches its own arrive next with no
    // memory access between, its copies land in that arrive's barrier interval: a wait_all there says as much.
    for (auto c : p.copy_arrives) {
      std::vector<bool> seen(f_.body.size(), false);
      std::vector<std::uint32_t> todo = next_instructions(g_, c);
      if (todo.empty()) return "the cp.async.mbarrier.arrive at " + where(c) + " is not followed by an arrive";
      while (!todo.empty()) {
        const std::uint32_t i = todo.back();
        todo.pop_back();
        if (seen[i] || std::count(arrives.begin(), arrives.end(), i)) continue;
        seen[i] = true;
        const Instruction& in = f_.body[i];
        if (!register_only(in.op) || in.op == Opcode::bar_ || in.op == Opcode::barrier_ || in.op == Opcode::ret_ || in.op == Opcode::exit_)
          return "after the cp.async.mbarrier.arrive at " + where(c) + " the thread may run " + ptx::ir::opcode_name(in.op) + " at " +
                 where(i) + " before its arrive";
        for (auto k : next_instructions(g_, i)) todo.push_back(k);
      }
    }
    return "";
  }

  // `cp.async.wait_all` at a cp.async.mbarrier.arrive's place (see check_object).
  static Instruction copies_complete(const Instruction& copy_arrive) {
    Instruction w;
    w.op = Opcode::cp_;
    w.q.words = {"async", "wait_all"};
    w.loc = copy_arrive.loc;
    return w;
  }

  Function& f_;
  const Cfg g_;
  const LaunchValues values_;  // counts over the launch shape
  const MbarrierAddresses addresses_;
  std::vector<std::vector<std::uint32_t>> defs_;  // register -> the instructions writing it
  Uniformity uni_;
};

}  // namespace

MbarrierRewrite rewrite_mbarrier_barriers(const ptx::ir::Module& m, ptx::ir::Function& f, const Shape& block, bool x_only,
                                          const std::function<std::string(std::uint32_t)>& where) {
  return Recognizer(m, f, block, x_only).run(where);
}

}  // namespace ptxcheck::race
