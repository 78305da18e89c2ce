// mbarrier objects (ISA 9.7.13.15): init, inval, arrive, arrive_drop, expect_tx, complete_tx, test_wait, try_wait,
// pending_count, and cp.async.mbarrier.arrive (9.7.13.15.15). Threads run one at a time, so each operation is
// atomic on the object. What the spec leaves undefined (an operation on an object that is not initialized, counts
// out of range, a phase that completes under .noComplete, a wait on a phase that is neither the current nor the
// one before) stops the run as an `illegal` problem rather than picking a behaviour.
#include "semantics/interp/machine.hpp"

namespace ptx::interp {

using domain::Concrete;

namespace {

// 9.7.13.15.2: expected and pending arrival counts lie in [0, 2^20 - 1], tx-count in [-(2^20 - 1), 2^20 - 1].
constexpr std::int64_t kMaxCount = (1 << 20) - 1;

// The opaque state an arrive returns (9.7.13.15.13): the phase it arrived in, and (for mbarrier.pending_count,
// 9.7.13.15.17) the pending count before it, in the low 20 bits.
std::uint64_t state_token(std::uint64_t phase, std::uint32_t pending_before) { return (phase << 20) | pending_before; }
std::uint64_t token_phase(std::uint64_t state) { return state >> 20; }
std::uint32_t token_pending(std::uint64_t state) { return static_cast<std::uint32_t>(state & kMaxCount); }

// 9.7.13.15.6: the phase completes when no arrivals are pending and tx-count is zero; the next one starts with
// the expected arrival count.
bool complete_phase_if_done(Mbarrier& m) {
  if (m.pending != 0 || m.tx != 0) return false;
  ++m.phase;
  m.pending = m.expected;
  return true;
}

}  // namespace

// The object an mbarrier operand names: 8 bytes, 8-aligned, in shared memory (9.7.13.15.1, .8): the executing
// CTA's, or through a .shared::cluster address another CTA's of the cluster (cluster.cpp). Null cta, with the
// problem reported, when it is none.
SharedTarget Machine::mbarrier_object(Thread& t, const Operand& o, StateSpace given, const std::string& name, bool write) {
  const std::uint64_t address = access_address(t, o, given);
  auto [space, window_offset] = resolve(given == StateSpace::shared_cluster ? StateSpace::shared : given, address);
  if (space != StateSpace::shared) {
    fail(Problem::Kind::illegal, name + ": the mbarrier object's address is not in shared memory", {&t});
    return {};
  }
  if (!locate(t, given, address, 8, write)) return {};  // (out of bounds: reported)
  const SharedTarget where = shared_target(given, window_offset);
  if (where.offset % 8) {
    fail(Problem::Kind::misaligned, name + ": mbarrier object at shared offset " + std::to_string(where.offset) + " is not 8-byte aligned", {&t});
    return {};
  }
  return where;
}

void Machine::exec_mbarrier(Thread& t, const Instruction& ins) {
  const auto& o = ins.operands;
  using ir::MbarrierOp;
  const MbarrierOp op = ir::mbarrier_op(ins);
  const bool async_arrive = op == MbarrierOp::copy_arrive;  // cp.async.mbarrier.arrive{.noinc} [addr]
  const bool arrive = async_arrive || op == MbarrierOp::arrive, wait = op == MbarrierOp::wait;
  const bool drop = ins.q.has_word("arrive_drop"), expect_tx = ins.q.has(ir::Flag::expect_tx);
  const std::string name = ir::opcode_text(ins);
  auto illegal = [&](const std::string& why) { fail(Problem::Kind::illegal, name + ": " + why, {&t}); };
  // (The builder has checked that the instruction names an operation and has that form's operands.)

  if (op == MbarrierOp::pending_count) {  // pending_count count, state: no object involved
    write(t, o[0], Concrete::lit(32, token_pending(read(t, o[1], 64).u64())));
    return;
  }
  const auto addr_index = static_cast<std::size_t>(ir::mbarrier_object_operand(op));
  const SharedTarget where = mbarrier_object(t, o[addr_index], ins.q.space.value_or(StateSpace::generic), name, !wait);
  if (!where.cta) return;
  const std::uint64_t object = where.offset;
  // 9.7.13.15.11-.14: only arrive(-on), arrive_drop, expect_tx and complete_tx name an object in .shared::cluster
  // outside .shared::cta, and an arrive on one returns no state (the sink `_` is mandatory).
  Cta& home = *where.cta;
  if (&home != cta_) {
    const bool remote_ok = (op == MbarrierOp::arrive && !async_arrive) || op == MbarrierOp::expect_tx || op == MbarrierOp::complete_tx;
    if (!remote_ok) return illegal("the mbarrier object is in the shared memory of cluster CTA rank " + std::to_string(home.rank) +
                                   "; this operation takes only an object of the executing CTA (ISA 9.7.13.15)");
    if (arrive && o[0].kind != Operand::Kind::Sink)
      return illegal("an arrive on an object of another CTA (rank " + std::to_string(home.rank) + ") returns no state; its destination must be '_' (ISA 9.7.13.15.13)");
  }

  if (op == MbarrierOp::init) {
    const std::uint64_t count = read(t, o[1], 32).u64();
    if (count < 1 || count > kMaxCount) return illegal("count " + std::to_string(count) + " is outside [1, 2^20 - 1]");
    if (home.mbarriers.count(object)) return illegal("the object is already initialized (mbarrier.inval it first)");
    home.mbarriers[object] = Mbarrier{0, static_cast<std::uint32_t>(count), static_cast<std::uint32_t>(count), 0};
    ++epoch_;
    if (opt_.observer) opt_.observer->mbarrier_init(thread_ref(t), ins, cta_linear(home), object);
    return;
  }
  Mbarrier* found = initialized_mbarrier(t, home, object, name);
  if (!found) return;
  Mbarrier& m = *found;
  if (op == MbarrierOp::inval) {
    ++epoch_;
    home.mbarriers.erase(object);
    return;
  }
  auto complete_if_done = [&] { return complete_phase_if_done(m); };
  auto add_tx = [&](std::int64_t delta) {
    m.tx += delta;
    if (m.tx > kMaxCount || m.tx < -kMaxCount) illegal("tx-count " + std::to_string(m.tx) + " is outside [-(2^20 - 1), 2^20 - 1]");
  };

  if (wait) {
    // 9.7.13.15.16: valid only for the current phase (False) and the one before it (True). try_wait may suspend
    // the thread until then, but may also return False after a time limit: returning at once is one such run.
    // Bulk copies tracked by this object complete no later than now (9.7.9.25.1.2; bulk_copy.cpp).
    bulk_flush_mbarrier(home, object);
    if (stop_) return;
    bool complete = false;
    if (ins.q.has(ir::Flag::parity)) {
      const std::uint64_t parity = read(t, o[2], 32).u64();
      if (parity > 1) return illegal("phaseParity " + std::to_string(parity) + " is neither 0 nor 1");
      complete = parity != (m.phase & 1);
    } else {
      const std::uint64_t phase = token_phase(read(t, o[2], 64).u64());
      if (phase != m.phase && phase + 1 != m.phase)
        return illegal("the state names phase " + std::to_string(phase) + ", neither the current phase " + std::to_string(m.phase) +
                       " nor the one before it");
      complete = phase != m.phase;
    }
    write(t, o[0], Concrete::boolean(complete));
    if (complete) note_passed_wait(t);
    else note_failed_wait(t, ins);
    if (opt_.observer) {
      if (complete) opt_.observer->mbarrier_wait(thread_ref(t), ins, cta_linear(home), object, m.phase - 1);
      else opt_.observer->mbarrier_wait_incomplete(thread_ref(t), ins, cta_linear(home), object);
    }
    return;
  }
  ++epoch_;  // every other operation changes the object (note_failed_wait)
  if (!arrive) {  // mbarrier.expect_tx / complete_tx [addr], txCount (9.7.13.15.11-12)
    const auto tx = static_cast<std::int64_t>(read(t, o[1], 32).u64());
    if (opt_.observer) opt_.observer->mbarrier_tx(thread_ref(t), ins, cta_linear(home), object);
    if (op == MbarrierOp::complete_tx) {
      mbarrier_complete_tx(t, home, object, tx, name);
      return;
    }
    add_tx(tx);
    if (!stop_) complete_if_done();
    return;
  }

  // An arrive-on (9.7.13.15.7) with its count: 1 for cp.async.mbarrier.arrive and .expect_tx forms, else the
  // optional operand. cp.async.mbarrier.arrive without .noinc first adds the arrival it will make (9.7.13.15.15):
  // the interpreter completes cp.async copies at issue, so that arrival happens at once and the two cancel.
  std::uint64_t count = 1;
  if (async_arrive) {
    if (!ins.q.has(ir::Flag::noinc)) count = 0;
  } else {
    if (expect_tx) add_tx(static_cast<std::int64_t>(read(t, o[2], 32).u64()));
    else if (o.size() > 2) count = read(t, o[2], 32).u64();
    if (stop_) return;
  }
  if (count > kMaxCount) return illegal("count " + std::to_string(count) + " is outside [1, 2^20 - 1]");
  if (drop) {  // 9.7.13.15.14: fewer arrivals expected in this and every later phase
    if (count > m.expected) return illegal("arrive_drop of " + std::to_string(count) + " exceeds the expected count " + std::to_string(m.expected));
    m.expected -= static_cast<std::uint32_t>(count);
  }
  if (count > m.pending) return illegal("an arrive-on of " + std::to_string(count) + " exceeds the " + std::to_string(m.pending) + " pending arrivals");
  const std::uint64_t phase = m.phase;
  const std::uint32_t pending_before = m.pending;
  m.pending -= static_cast<std::uint32_t>(count);
  if (opt_.observer) opt_.observer->mbarrier_arrive(thread_ref(t), ins, cta_linear(home), object, phase);
  if (complete_if_done() && ins.q.has_word("noComplete")) return illegal("a .noComplete arrive completed the phase");
  if (!async_arrive) write(t, o[0], Concrete::lit(64, state_token(phase, pending_before)));
}

// The initialized object at shared offset `object` of `home`; null, with the problem reported, when there is none.
Mbarrier* Machine::initialized_mbarrier(Thread& t, Cta& home, std::uint64_t object, const std::string& name) {
  auto it = home.mbarriers.find(object);
  if (it != home.mbarriers.end()) return &it->second;
  fail(Problem::Kind::illegal, name + ": the mbarrier object at shared offset " + std::to_string(object) + " is not initialized", {&t});
  return nullptr;
}

// complete-tx (9.7.13.15.12) of `bytes` on the object at shared offset `object` of `home`: mbarrier.complete_tx
// and the completion of a bulk copy (9.7.9.25.4.1: "complete-tx ... with completeCount argument equal to amount of
// data copied in bytes"). tx-count decreases; the phase completes when no arrivals are pending and tx-count is 0
// (9.7.13.15.6).
bool Machine::mbarrier_complete_tx(Thread& t, Cta& home, std::uint64_t object, std::int64_t bytes, const std::string& name) {
  Mbarrier* found = initialized_mbarrier(t, home, object, name);
  if (!found) return false;
  Mbarrier& m = *found;
  ++epoch_;
  m.tx -= bytes;
  if (m.tx > kMaxCount || m.tx < -kMaxCount) {
    fail(Problem::Kind::illegal, name + ": tx-count " + std::to_string(m.tx) + " is outside [-(2^20 - 1), 2^20 - 1]", {&t});
    return false;
  }
  complete_phase_if_done(m);
  return true;
}

// The arrive-on an asynchronous operation's completion signals (tcgen05.commit's .mbarrier::arrive::one,
// 9.7.16.12.1): pending arrivals decrease by count and the phase completes when none are left and tx-count is 0.
bool Machine::mbarrier_async_arrive(Thread& t, Cta& home, std::uint64_t object, std::uint32_t count, const std::string& name) {
  Mbarrier* found = initialized_mbarrier(t, home, object, name);
  if (!found) return false;
  Mbarrier& m = *found;
  if (count > m.pending) {
    fail(Problem::Kind::illegal, name + ": an arrive-on of " + std::to_string(count) + " exceeds the " + std::to_string(m.pending) + " pending arrivals", {&t});
    return false;
  }
  ++epoch_;
  m.pending -= count;
  complete_phase_if_done(m);
  return true;
}

}  // namespace ptx::interp
