// Bulk copies in the async proxy (async_proxy.hpp).
#include "litmus/build/async_proxy.hpp"

#include "litmus/build/cell_text.hpp"
#include "litmus/build/dialect_words.hpp"
#include "litmus/build/mbarrier_cells.hpp"
#include "memmodel/graph/base_graph.hpp"
#include "semantics/ops/effect.hpp"

#include <map>
#include <set>

namespace ptxcheck::litmus {

BulkCell bulk_cell(const Instr& in, std::string& why) {
  const auto cell = cell_opcode(in);
  if (!cell || ptx::ops::effect_of(cell->op) != ptx::ops::Effect::async_copy) return BulkCell::none;
  const std::string& op = in.opcode;
  const std::string name = "'" + op + "'";
  if (op == "cp.async.bulk.commit_group") {
    if (!in.operands.empty()) return why = name + " takes no operands", BulkCell::none;
    return BulkCell::commit;
  }
  if (op == "cp.async.bulk.wait_group" || op == "cp.async.bulk.wait_group.read") {
    // 9.7.9.25.6.2: "Operand N is an integer constant".
    if (in.operands.size() != 1 || !is_integer(in.operands[0]) || std::stoll(in.operands[0]) < 0)
      return why = name + " expects one operand, N, a non-negative integer constant (ISA 9.7.9.25.6.2)", BulkCell::none;
    return BulkCell::wait;
  }
  if (op == "cp.async.bulk.global.shared::cta.bulk_group") {
    if (in.operands.size() != 3) return why = name + " expects 3 operands", BulkCell::none;
    return BulkCell::copy;
  }
  if (op == "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes") {
    if (in.operands.size() != 4) return why = name + " expects 4 operands", BulkCell::none;
    // 9.7.9.25.4.1: "size must be a multiple of 16. If the value is not a multiple of 16, then the behavior is
    // undefined"; it is the complete-tx's completeCount, so the engine needs it as an immediate.
    const std::string& size = in.operands[2];
    if (!is_integer(size) || std::stoll(size) < 16 || std::stoll(size) % 16 != 0)
      return why = name + ": size must be an immediate, a positive multiple of 16 (ISA 9.7.9.25.4.1)", BulkCell::none;
    return BulkCell::copy_mbarrier;
  }
  // Tensor, reduction, multicast, cache-hint and shared::cluster-destination forms are not modelled.
  why = "unsupported instruction " + name +
        " (of the bulk copies, the litmus engine models cp.async.bulk.global.shared::cta.bulk_group and "
        "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes)";
  return BulkCell::none;
}

namespace {
std::string object_of(const Instr& copy) { return strip_brackets(copy.operands[kBulkMbarrierOperand]); }

// A blocking CTA barrier cell (bar.sync / barrier.sync without a thread count), whose every participant's later
// events are ordered after every participant's earlier ones (ISA 9.7.13.1, 8.9.4 item 2).
bool blocking_barrier(const Instr& in) {
  const auto cell = cell_opcode(in);
  if (!cell || ptx::ops::effect_of(cell->op) != ptx::ops::Effect::barrier) return false;
  const auto w = split_dots(in.opcode);
  for (const auto& x : w) if (x == "arrive") return false;
  return in.operands.size() <= 2 && in.guard.empty();
}

// Whether a cell is an event that a complete-tx placed after it in program order would order: a memory access (but
// the dialect's `ld r, 1`, a move), a fence, an mbarrier or bulk-copy cell, or a barrier that does not block.
bool orders_memory(const Instr& in) {
  using ptx::ops::Effect;
  const auto cell = cell_opcode(in);
  switch (cell ? ptx::ops::effect_of(cell->op) : Effect::hint) {
    case Effect::memory:
      return !(cell->op == ptx::ir::Opcode::ld_ && cell->proxy == mm::Proxy::generic && in.operands.size() > 1 &&
               is_integer(in.operands[1]));
    case Effect::fence: case Effect::mbarrier: case Effect::async_copy: return true;
    case Effect::barrier: return !blocking_barrier(in);
    default: return false;
  }
}

// Whether the events of `copy`'s thread before it (code[0, at)) may stand in program order before its complete-tx.
// 8.9.1.1: the implicit complete-tx "is ordered only with respect to the memory operations performed by the same
// asynchronous instruction, and in particular it does not transitively establish ordering with respect to prior
// instructions from the issuing thread". Placed in program order, its .release write would release those prior
// events, so each must be one the complete-tx adds no ordering to: an operation on the same object (in its chain of
// RMWs, 8.9.2), an event before a release arrive on the object (that arrive releases it already, and every wait
// that observes the complete-tx observes the arrive, co-before it in that chain), a blocking barrier that every
// thread on the object also executes (those threads' later events follow it already), or an earlier copy on the
// same object touching other locations. `why` otherwise.
bool mbarrier_copy_issue_ok(const Program& p, std::size_t ti, std::size_t at, std::string& why) {
  const auto& code = p.threads[ti].code;
  const std::string object = object_of(code[at]);
  const Instr* uncovered = nullptr;
  auto names_object = [&](const Instr& in) {
    for (const auto& o : in.operands) if (strip_brackets(o) == object) return true;
    return false;
  };
  for (std::size_t k = 0; k < at; ++k) {
    const Instr& in = code[k];
    std::string ignored;
    const BulkCell kind = bulk_cell(in, ignored);
    const auto cell = cell_opcode(in);
    if (cell && ptx::ops::effect_of(cell->op) == ptx::ops::Effect::mbarrier && names_object(in)) {
      std::string why_not;
      const auto c = decode_mbarrier_cell(in, why_not);
      if (c && c->op == ptx::ir::MbarrierOp::arrive && c->order.sem == ptx::ir::MemorySemantics::release && in.guard.empty())
        uncovered = nullptr;
      continue;
    }
    if (kind == BulkCell::copy_mbarrier && object_of(in) == object) {
      for (std::size_t a = 0; a < 2; ++a)
        for (std::size_t b = 0; b < 2; ++b)
          if (strip_brackets(in.operands[a]) == strip_brackets(code[at].operands[b]))
            return why = "two bulk copies of one thread touching '" + strip_brackets(in.operands[a]) +
                         "': asynchronous operations are not ordered with each other (ISA 8.9.1.1), which the litmus "
                         "engine models only for copies on distinct locations", false;
      continue;
    }
    const bool memory = orders_memory(in);
    if (blocking_barrier(in)) {
      for (std::size_t tj = 0; tj < p.threads.size(); ++tj) {
        bool on_object = false, passes = false;
        for (const Instr& o : p.threads[tj].code) {
          on_object |= names_object(o);
          passes |= blocking_barrier(o) && o.opcode == in.opcode && o.operands == in.operands;
        }
        if (on_object && !passes) uncovered = &in;
      }
    } else if (memory && !uncovered) {
      uncovered = &in;
    }
  }
  if (!uncovered) return true;
  why = "'" + uncovered->opcode + "' before a bulk copy completing on '" + object + "' in its thread, with no release "
        "mbarrier.arrive on it in between: the copy's complete-tx does not order prior instructions of its thread (ISA "
        "8.9.1.1), and the litmus engine, which places it in program order, answers only where that adds no ordering";
  return false;
}
}  // namespace

bool check_async_proxy(const Test& t, const Program& p, std::vector<Diagnostic>& diags) {
  auto refuse = [&](const Instr& in, const std::string& why) {
    diags.push_back(make_diagnostic(t.text, t.file, in.offset, why));
    return false;
  };
  std::vector<mm::ThreadPlace> places;
  for (const auto& th : p.threads) places.push_back(mm::ThreadPlace{th.cta, th.cluster, th.gpu});
  std::map<int, std::pair<int, const Instr*>> async_access;  // physical location -> (thread, its copy)
  std::vector<std::set<int>> touched(p.threads.size());      // per thread: the locations its cells name
  std::vector<std::pair<std::size_t, std::size_t>> mbarrier_copies;  // (thread, index) of copies completing on an mbarrier
  for (std::size_t ti = 0; ti < p.threads.size(); ++ti) {
    const Instr* copy = nullptr;
    const auto& code = p.threads[ti].code;
    for (std::size_t k = 0; k < code.size(); ++k) {
      const Instr& in = code[k];
      std::string why;
      const BulkCell kind = bulk_cell(in, why);
      if (!why.empty()) return refuse(in, why);
      for (std::size_t o = 0; o < in.operands.size(); ++o)
        if (auto it = p.vloc_of.find(strip_brackets(in.operands[o])); it != p.vloc_of.end()) {
          touched[ti].insert(p.phys_of[it->second]);
          if (is_bulk_copy(kind) && o < 2) async_access.emplace(p.phys_of[it->second], std::pair{static_cast<int>(ti), &in});
        }
      if (copy && kind != BulkCell::commit && kind != BulkCell::wait && !is_bulk_copy(kind))
        return refuse(in, "'" + in.opcode + "' after a bulk copy completing on an mbarrier in the same thread: asynchronous "
                          "operations are not part of program order (ISA 8.9.1.1), which the litmus engine models for "
                          "those copies only as a thread's last instructions");
      if (kind == BulkCell::copy_mbarrier) copy = &in;
      if (kind == BulkCell::copy_mbarrier) mbarrier_copies.emplace_back(ti, k);
    }
  }
  for (const auto& [ti, k] : mbarrier_copies) {
    const Instr& in = p.threads[ti].code[k];
    std::string why;
    if (!mbarrier_copy_issue_ok(p, ti, k, why)) return refuse(in, why);
    const auto it = p.vloc_of.find(object_of(in));
    if (it == p.vloc_of.end()) continue;  // (note_mbarrier_objects names it)
    for (std::size_t tj = 0; tj < p.threads.size(); ++tj)
      if (touched[tj].count(p.phys_of[it->second]) && !mm::scope_includes(mm::Scope::cta, places, static_cast<int>(ti), static_cast<int>(tj)))
        return refuse(in, "'" + object_of(in) + "' is used by another CTA: the litmus engine models a bulk copy completing on "
                      "an mbarrier only when every thread on that object is in the copy's CTA (memmodel/models/NOTES.md, \"mbarrier\")");
  }
  for (const auto& [loc, where] : async_access)
    for (std::size_t tj = 0; tj < p.threads.size(); ++tj)
      if (touched[tj].count(loc) && !mm::scope_includes(mm::Scope::cta, places, where.first, static_cast<int>(tj)))
        return refuse(*where.second, "'" + p.pnames[loc] + "' is accessed through the async proxy and by another CTA: chapter 8 "
                      "does not decide how fence.proxy.async orders accesses of different CTAs (8.9.5 names same-proxy "
                      "causality only \"by the same thread block\"; 9.7.13.4 gives proxy fences no scope); not answered");
  return true;
}

}  // namespace ptxcheck::litmus
