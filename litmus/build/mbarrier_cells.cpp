// mbarrier cells as memory events on the object's state value (mbarrier_cells.hpp, mbarrier_counter.hpp).
#include "litmus/build/mbarrier_cells.hpp"

#include "litmus/build/async_proxy.hpp"
#include "litmus/build/cell_text.hpp"
#include "litmus/build/dialect_words.hpp"
#include "litmus/build/mbarrier_counter.hpp"
#include "semantics/ops/effect.hpp"

#include <map>
#include <set>

namespace ptxcheck::litmus {
namespace {
using ptx::ir::MbarrierOp;

// 9.7.13.15.2: expected arrival counts lie in [1, 2^20 - 1].
constexpr std::int64_t kMaxCount = (1 << 20) - 1;
}  // namespace

std::optional<MbarrierCell> decode_mbarrier_cell(const Instr& in, std::string& why) {
  if (const auto word = cell_opcode(in); !word || word->op != ptx::ir::Opcode::mbarrier_)
    return why = "not an mbarrier instruction", std::nullopt;
  auto words = split_dots(in.opcode);
  words.erase(words.begin());
  ptx::ir::Instruction ins;
  ins.op = ptx::ir::Opcode::mbarrier_;
  for (const auto& w : ptx::ir::decode_qualifiers(ins.op, words, ins.q))
    return why = "unsupported qualifier '." + w + "' in '" + in.opcode + "'", std::nullopt;
  MbarrierCell c;
  c.op = ptx::ir::mbarrier_op(ins);
  const std::string name = "'" + in.opcode + "'";
  // What the counter reading leaves out: a changing expected count (arrive_drop, 9.7.13.15.14), the undefined
  // .noComplete completion (9.7.13.15.13), invalidation and pending_count.
  if (ins.q.has_word("arrive_drop"))
    return why = "unsupported instruction " + name + " (arrive_drop changes the expected count, ISA 9.7.13.15.14; not modelled)", std::nullopt;
  if (ins.q.has_word("noComplete"))
    return why = "unsupported instruction " + name + " (.noComplete, ISA 9.7.13.15.13, is not modelled)", std::nullopt;
  const std::size_t n = in.operands.size();
  switch (c.op) {
    case MbarrierOp::init:  // mbarrier.init [addr], count (9.7.13.15.9)
      c.object = 0, c.operands = 2;
      break;
    case MbarrierOp::arrive:  // mbarrier.arrive{.expect_tx} state, [addr]{, count | txCount} (9.7.13.15.13)
      c.object = 1, c.operands = n == 3 || ins.q.has(ptx::ir::Flag::expect_tx) ? 3 : 2;
      c.expect_tx = ins.q.has(ptx::ir::Flag::expect_tx);
      break;
    case MbarrierOp::expect_tx:    // mbarrier.expect_tx [addr], txCount (9.7.13.15.11)
    case MbarrierOp::complete_tx:  // mbarrier.complete_tx [addr], txCount (9.7.13.15.12)
      c.object = 0, c.operands = 2;
      break;
    case MbarrierOp::wait:  // test_wait / try_wait waitComplete, [addr], state|phaseParity{, suspendTimeHint} (9.7.13.15.16)
      c.object = 1, c.operands = n == 4 && ins.q.has(ptx::ir::Flag::try_wait) ? 4 : 3;
      c.parity = ins.q.has(ptx::ir::Flag::parity);
      break;
    default:
      return why = "unsupported instruction " + name + " (of the mbarrier operations, init, arrive, expect_tx, complete_tx, test_wait and try_wait are modelled)", std::nullopt;
  }
  if (n != c.operands) return why = name + " expects " + std::to_string(c.operands) + " operands", std::nullopt;
  using MS = ptx::ir::MemorySemantics;
  if (c.op == MbarrierOp::expect_tx || c.op == MbarrierOp::complete_tx) {
    // .sem = { .relaxed }, .scope = { .cta, .cluster }: "This operation does not provide any memory ordering semantics
    // and thus is a relaxed operation" (9.7.13.15.11, .12), a strong one. No default scope is stated: note_mbarrier_objects
    // takes .cta only where every thread on the object is in one CTA, where .cta and .cluster include the same threads.
    c.order.strong = true;
    c.order.sem = MS::relaxed;
    c.scope_stated = ins.q.scope.has_value();
    c.order.scope = ins.q.scope.value_or(ptx::ir::Scope::cta);
    if ((ins.q.semantics && *ins.q.semantics != MS::relaxed) ||
        (c.order.scope != ptx::ir::Scope::cta && c.order.scope != ptx::ir::Scope::cluster))
      return why = "unsupported qualifiers in " + name + " (ISA 9.7.13.15.11, .12)", std::nullopt;
    return c;
  }
  if (auto m = ptx::ir::mbarrier_order(ins)) c.order = *m;
  // .sem = { .release, .relaxed } for arrive, { .acquire, .relaxed } for the waits; .scope = { .cta, .cluster }.
  const MS allowed = c.op == MbarrierOp::arrive ? MS::release : MS::acquire;
  if (c.op != MbarrierOp::init && ((c.order.sem != allowed && c.order.sem != MS::relaxed) ||
                                   (c.order.scope != ptx::ir::Scope::cta && c.order.scope != ptx::ir::Scope::cluster)))
    return why = "unsupported qualifiers in " + name + " (ISA 9.7.13.15.13, .16)", std::nullopt;
  return c;
}

bool note_mbarrier_objects(const Test& t, Program& p, std::vector<Diagnostic>& diags) {
  auto refuse = [&](const Instr& in, const std::string& why) {
    diags.push_back(make_diagnostic(t.text, t.file, in.offset, why));
    return false;
  };
  std::map<int, const Instr*> other_access;  // physical location -> a non-mbarrier access of it
  std::map<int, const Instr*> used;          // physical location -> an mbarrier cell on it
  std::map<int, std::set<int>> users;        // physical location -> the threads (indices) of the cells on it
  std::map<int, const Instr*> unscoped;      // physical location -> an expect_tx / complete_tx without .scope
  auto location = [&](const std::string& operand) {
    const auto it = p.vloc_of.find(strip_brackets(operand));
    return it == p.vloc_of.end() ? -1 : p.phys_of[it->second];
  };
  for (std::size_t ti = 0; ti < p.threads.size(); ++ti)
    for (const Instr& in : p.threads[ti].code) {
      const auto cell = cell_opcode(in);
      const bool mbar = cell && ptx::ops::effect_of(cell->op) == ptx::ops::Effect::mbarrier;
      std::string bulk_why;
      // A bulk copy's [mbar] is its complete-tx's object (async_proxy.hpp), its other operands plain accesses.
      const bool copy = bulk_cell(in, bulk_why) == BulkCell::copy_mbarrier;
      if (!bulk_why.empty()) return refuse(in, bulk_why);
      if (!mbar) {
        for (std::size_t k = 0; k < in.operands.size(); ++k)  // (the dialect names a location with or without brackets)
          if (const int loc = location(in.operands[k]); loc >= 0) {
            if (copy && k == kBulkMbarrierOperand) used.emplace(loc, &in), users[loc].insert(static_cast<int>(ti));
            else other_access.emplace(loc, &in);
          }
        continue;
      }
      std::string why;
      const auto c = decode_mbarrier_cell(in, why);
      if (!c) return refuse(in, why);
      const int loc = location(in.operands[c->object]);
      if (loc < 0) return refuse(in, "unknown location '" + strip_brackets(in.operands[c->object]) + "'");
      used.emplace(loc, &in);
      users[loc].insert(static_cast<int>(ti));
      if (!c->scope_stated) unscoped.emplace(loc, &in);
      if (c->op != MbarrierOp::init) continue;
      const std::string& count = in.operands[1];
      if (!is_integer(count)) return refuse(in, "'" + in.opcode + "': the litmus engine needs the count as an immediate");
      const std::int64_t n = std::stoll(count);
      if (n < 1 || n > kMaxCount) return refuse(in, "'" + in.opcode + "': count " + count + " is outside [1, 2^20 - 1] (ISA 9.7.13.15.9)");
      if (!p.mbarrier_expected.emplace(loc, n).second)
        return refuse(in, "a second mbarrier.init of '" + p.pnames[loc] + "': undefined on an initialized object (ISA 9.7.13.15.9); mbarrier.inval is not modelled");
    }
  std::vector<mm::ThreadPlace> places;
  for (const auto& th : p.threads) places.push_back(mm::ThreadPlace{th.cta, th.cluster, th.gpu});
  for (const auto& [loc, in] : unscoped)
    for (int a : users[loc])
      for (int b : users[loc])
        if (!mm::scope_includes(mm::Scope::cta, places, a, b))
          return refuse(*in, "'" + in->opcode + "' without .scope on an object used by more than one CTA: ISA 9.7.13.15.11 and .12 "
                        "state no default scope, and .cta and .cluster differ here");
  for (const auto& [loc, in] : used) {
    if (!p.mbarrier_expected.count(loc))
      return refuse(*in, "'" + p.pnames[loc] + "' has no mbarrier.init: an mbarrier operation on an uninitialized object is undefined (ISA 9.7.13.15)");
    if (auto o = other_access.find(loc); o != other_access.end())
      return refuse(*o->second, "'" + p.pnames[loc] + "' is an mbarrier object: any other instruction on it is undefined (ISA 9.7.13.15)");
    if (p.init[static_cast<std::size_t>(loc)] != 0)
      return refuse(*in, "'" + p.pnames[loc] + "' is an mbarrier object: its initial value must be 0, the arrival count an init starts from");
  }
  return true;
}

std::int64_t mbarrier_phase(std::int64_t value, std::int64_t expected) { return decode_mbarrier(value, expected).phase; }

std::optional<bool> mbarrier_parity_complete(std::int64_t value, std::int64_t expected, std::int64_t parity) {
  if (parity != 0 && parity != 1) return std::nullopt;
  return parity != mbarrier_phase(value, expected) % 2;
}

std::optional<bool> mbarrier_state_complete(std::int64_t value, std::int64_t expected, std::int64_t state) {
  const std::int64_t phase = mbarrier_phase(value, expected);
  if (phase > state + 1) return std::nullopt;
  // phase < state: a value older than this thread's own arrive, which coherence (8.10.5) keeps it from reading.
  return phase == state + 1;
}

}  // namespace ptxcheck::litmus
