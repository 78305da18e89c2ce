// race.pipeline_phases_order: the order the race checker claims of a block-scope pipeline's two mbarrier arrays
// (checker/race/pipeline_order.hpp, the terms check_pipeline.cpp builds) holds in every interleaving of small
// pipelines run on the mbarrier's own rules. The checker proves per kernel that each thread follows the protocol
// (pipeline.hpp); that the protocol then puts every thread's k-th arrive in phase k / S of slot k mod S, and so
// orders what the terms say, is counting, which a finite litmus environment cannot express (issue 33). This is
// that lemma, checked by exhaustive exploration with vector clocks.
//
// The machine, from ISA 9.0 9.7.13.15: an mbarrier object has a pending count (the expected arrivals, here every
// thread of the CTA, T) and a phase; an arrive-on decrements the pending count and the phase completes when it
// reaches zero (9.7.13.15.1-2); `cp.async.mbarrier.arrive` without .noinc increments the pending count and
// arrives on completion of the thread's prior cp.async copies (9.7.13.15.15); `test_wait.parity` / `try_wait.parity`
// returns True when the current phase's parity differs from the operand, i.e. the phase of that parity completed
// (9.7.13.15.16). Memory order is the memory model's for these operations (model_rules.hpp answers that arrive
// releases and a wait that returns True acquires): an arrive is a release RMW of the object, a wait an acquire read
// of it, so a wait learns every arrive before it on that object (its clock), and an async copy is learnt through
// the arrive-on at its completion.
#include "checker/race/pipeline_order.hpp"
#include "proofs/race_pipeline.hpp"
#include "proofs/families.hpp"

#include <fmt/format.h>

#include <chrono>
#include <string>
#include <unordered_set>
#include <vector>

namespace ptxcheck::proofs {
namespace {

enum class Step : std::uint8_t { wait_empty, copy_arrive, arrive_full, wait_full, arrive_empty };
struct Op {
  Step step;
  int stage;
};

// The program every thread runs (cuda::pipeline in a loop, every thread both producer and consumer): produce the
// first `lag` stages, then for each stage consume it and produce the one `lag` ahead. Producing stage k: wait on
// empty[k mod S] (its k-th wait on "empty", for phase k / S - 1: the first S pass), issue the stage's copies and
// cp.async.mbarrier.arrive on full[k mod S], arrive on full[k mod S]. Consuming stage j: wait on full[j mod S] for
// phase j / S, read, arrive on empty[j mod S].
std::vector<Op> pipeline_program(int stages_total, int lag) {
  std::vector<Op> ops;
  int produced = 0;
  auto produce = [&] {
    ops.push_back({Step::wait_empty, produced});
    ops.push_back({Step::copy_arrive, produced});
    ops.push_back({Step::arrive_full, produced});
    ++produced;
  };
  while (produced < std::min(lag, stages_total)) produce();
  for (int j = 0; j < stages_total; ++j) {
    ops.push_back({Step::wait_full, j});
    ops.push_back({Step::arrive_empty, j});
    if (produced < stages_total) produce();
  }
  return ops;
}

// A thread's counts before each point p (after p operations): arrives on full / empty, waits on full / empty.
struct Counts {
  std::int64_t full_arrives = 0, empty_arrives = 0, full_waits = 0, empty_waits = 0;
};
std::vector<Counts> counts_at_points(const std::vector<Op>& program) {
  std::vector<Counts> out(1);
  for (const Op& op : program) {
    Counts c = out.back();
    if (op.step == Step::arrive_full) ++c.full_arrives;
    if (op.step == Step::arrive_empty) ++c.empty_arrives;
    if (op.step == Step::wait_full) ++c.full_waits;
    if (op.step == Step::wait_empty) ++c.empty_waits;
    out.push_back(c);
  }
  return out;
}

// The checker's terms evaluated on concrete counts: x at point p (or the copy issued at p), y at point q with the
// exact wait counts as its bounds (the checker's bounds are at most these, and the terms only claim less order
// with smaller bounds).
bool claimed(z3::context& ctx, const PipelineClaim& claim, const Counts& x, bool x_async, const Counts& y, int stages) {
  auto n = [&](std::int64_t v) { return ctx.bv_val(static_cast<std::uint64_t>(v), 64); };
  const std::array<std::int64_t, 4> least = {y.full_waits - y.full_arrives, y.full_waits - y.empty_arrives,
                                             y.empty_waits - y.full_arrives, y.empty_waits - y.empty_arrives};
  const z3::expr e = claim(n(x.full_arrives), n(x.empty_arrives), x_async, n(y.full_arrives),
                                            n(y.empty_arrives), least, stages).simplify();
  return e.is_true();
}

using Clock = std::vector<std::uint8_t>;  // T thread components (points known), then T*K copy tokens
void join(Clock& into, const Clock& from) {
  for (std::size_t i = 0; i < into.size(); ++i) into[i] = std::max(into[i], from[i]);
}

struct Slot {
  std::uint8_t pending = 0, completed = 0;
  Clock clock;
};
struct State {
  std::vector<std::uint8_t> pc;
  std::vector<Slot> slots;           // full[0..S-1], then empty[0..S-1]
  std::vector<std::uint8_t> copies;  // per thread and stage: 0 not issued, 1 in flight, 2 complete
  std::vector<Clock> clocks;         // per thread
  std::string key() const {
    std::string k(pc.begin(), pc.end());
    for (const Slot& s : slots) k += std::string{char(s.pending), char(s.completed)} + std::string(s.clock.begin(), s.clock.end());
    k.append(copies.begin(), copies.end());
    for (const Clock& c : clocks) k.append(c.begin(), c.end());
    return k;
  }
};

class Explorer {
 public:
  Explorer(int threads, int stages, int total, int lag, const PipelineClaim& claim)
      : T_(threads), S_(stages), K_(total), program_(pipeline_program(total, lag)), counts_(counts_at_points(program_)) {
    const std::size_t points = counts_.size();
    z3::context ctx;
    po_claim_.assign(points, std::vector<bool>(points));
    copy_claim_.assign(static_cast<std::size_t>(K_), std::vector<bool>(points));
    for (std::size_t q = 0; q < points; ++q) {
      for (std::size_t p = 0; p < points; ++p) po_claim_[p][q] = claimed(ctx, claim, counts_[p], false, counts_[q], S_);
      for (std::size_t i = 0; i < program_.size(); ++i)
        if (program_[i].step == Step::copy_arrive) copy_claim_[static_cast<std::size_t>(program_[i].stage)][q] = claimed(ctx, claim, counts_[i], true, counts_[q], S_);
    }
  }

  // Empty when the lemma holds on every interleaving; else what broke, and where.
  std::string run() {
    State s;
    s.pc.assign(static_cast<std::size_t>(T_), 0);
    const std::size_t width = static_cast<std::size_t>(T_ + T_ * K_);
    s.slots.assign(static_cast<std::size_t>(2 * S_), Slot{static_cast<std::uint8_t>(T_), 0, Clock(width, 0)});
    s.copies.assign(static_cast<std::size_t>(T_ * K_), 0);
    s.clocks.assign(static_cast<std::size_t>(T_), Clock(width, 0));
    std::vector<State> todo{s};
    while (!todo.empty() && problem_.empty()) {
      State cur = std::move(todo.back());
      todo.pop_back();
      if (!seen_.insert(cur.key()).second) continue;
      check_orders(cur);
      bool moved = false, finished = true;
      for (int t = 0; t < T_; ++t) {
        if (cur.pc[static_cast<std::size_t>(t)] < program_.size()) finished = false;
        State next = cur;
        if (step(next, t)) { todo.push_back(std::move(next)); moved = true; }
      }
      for (int c = 0; c < T_ * K_; ++c)
        if (cur.copies[static_cast<std::size_t>(c)] == 1) {
          State next = cur;
          complete_copy(next, c);
          todo.push_back(std::move(next));
          moved = true;
        }
      if (!moved && !finished && problem_.empty()) problem_ = "a deadlock: no thread can go on";
    }
    return problem_;
  }
  std::size_t states() const { return seen_.size(); }

 private:
  Slot& full(State& s, int stage) { return s.slots[static_cast<std::size_t>(stage % S_)]; }
  Slot& empty(State& s, int stage) { return s.slots[static_cast<std::size_t>(S_ + stage % S_)]; }

  // An arrive-on: the thread's k-th arrive on an array must be in phase k / S of its slot (the lemma's claim).
  void arrive(Slot& slot, const Clock& released, int stage, const char* array, int t) {
    if (slot.completed != stage / S_ && problem_.empty())
      problem_ = fmt::format("thread {}'s arrive on {} for stage {} is in phase {}, not {}", t, array, stage, slot.completed, stage / S_);
    join(slot.clock, released);
    if (--slot.pending == 0) { ++slot.completed; slot.pending = static_cast<std::uint8_t>(T_); }
  }
  // A parity wait for `phase` (-1: the phase before the first, complete from the start) returns True when the
  // object's current phase has the other parity; it is exact when that phase is the next one.
  bool wait(Slot& slot, int phase, Clock& clock) {
    const int parity = (phase + 2) % 2;
    if (slot.completed % 2 == parity) return false;
    if (slot.completed != phase + 1 && problem_.empty())
      problem_ = fmt::format("a parity wait for phase {} returned True in phase {}", phase, slot.completed);
    join(clock, slot.clock);
    return true;
  }
  bool step(State& s, int t) {
    auto& pc = s.pc[static_cast<std::size_t>(t)];
    if (pc >= program_.size()) return false;
    const Op op = program_[pc];
    Clock& clock = s.clocks[static_cast<std::size_t>(t)];
    switch (op.step) {
      case Step::wait_empty: if (!wait(empty(s, op.stage), op.stage / S_ - 1, clock)) return false; break;
      case Step::wait_full: if (!wait(full(s, op.stage), op.stage / S_, clock)) return false; break;
      case Step::copy_arrive:
        ++full(s, op.stage).pending;
        s.copies[static_cast<std::size_t>(t * K_ + op.stage)] = 1;
        break;
      case Step::arrive_full: arrive(full(s, op.stage), clock, op.stage, "full", t); break;
      case Step::arrive_empty: arrive(empty(s, op.stage), clock, op.stage, "empty", t); break;
    }
    ++pc;
    clock[static_cast<std::size_t>(t)] = pc;
    return true;
  }
  // The copies of thread c / K's stage c % K complete: the pending arrive-on of cp.async.mbarrier.arrive, carrying
  // the copies' writes (their token).
  void complete_copy(State& s, int c) {
    const int stage = c % K_;
    Slot& slot = full(s, stage);
    slot.clock[static_cast<std::size_t>(T_ + c)] = 1;
    if (--slot.pending == 0) { ++slot.completed; slot.pending = static_cast<std::uint8_t>(T_); }
    s.copies[static_cast<std::size_t>(c)] = 2;
  }
  // Every order the checker's terms claim for an access y of each thread at its current point holds by the clocks.
  void check_orders(const State& s) {
    for (int t2 = 0; t2 < T_ && problem_.empty(); ++t2) {
      const std::size_t q = s.pc[static_cast<std::size_t>(t2)];
      const Clock& known = s.clocks[static_cast<std::size_t>(t2)];
      for (int t1 = 0; t1 < T_ && problem_.empty(); ++t1) {
        for (std::size_t p = 0; p < counts_.size() && t1 != t2; ++p)
          if (po_claim_[p][q] && known[static_cast<std::size_t>(t1)] < p)
            problem_ = fmt::format("an access of thread {} at point {} is claimed before one of thread {} at point {}, which does not know it", t1, p, t2, q);
        for (int k = 0; k < K_ && problem_.empty(); ++k)
          if (copy_claim_[static_cast<std::size_t>(k)][q] && !known[static_cast<std::size_t>(T_ + t1 * K_ + k)])
            problem_ = fmt::format("thread {}'s copy of stage {} is claimed before an access of thread {} at point {}, which does not know it", t1, k, t2, q);
      }
    }
  }

  int T_, S_, K_;
  std::vector<Op> program_;
  std::vector<Counts> counts_;
  std::vector<std::vector<bool>> po_claim_, copy_claim_;
  std::unordered_set<std::string> seen_;
  std::string problem_;
};

ProofResult pipeline_phases_order(const Budget& budget) {
  const auto start = std::chrono::steady_clock::now();
  std::size_t states = 0, pipelines = 0;
  for (int threads = 2; threads <= 3; ++threads)
    for (int stages = 1; stages <= 3; ++stages)
      for (int lag = 1; lag <= stages; ++lag)
        for (int total = stages; total <= 2 * stages + 1; ++total) {
          if (threads == 3 && total > stages + 2) continue;  // (the state space grows with T^ops)
          std::size_t visited = 0;
          const std::string problem = explore_pipeline(threads, stages, total, lag, race::pipeline_ordered, &visited);
          states += visited;
          ++pipelines;
          if (!problem.empty())
            return {Verdict::refuted, fmt::format("{} threads, {} stages, lag {}, {} stages in all: {}", threads, stages, lag, total, problem), 0};
          const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
          if (seconds * 1000 > budget.timeout_ms) return {Verdict::unknown, fmt::format("the time budget ran out after {} pipelines", pipelines), 0};
        }
  return {Verdict::proved, fmt::format("{} pipelines, {} states", pipelines, states), 0};
}

}  // namespace

std::string explore_pipeline(int threads, int stages, int total, int lag, const PipelineClaim& claim, std::size_t* states) {
  Explorer e(threads, stages, total, lag, claim);
  std::string problem = e.run();
  if (states) *states = e.states();
  return problem;
}

Theorem pipeline_phases_order_theorem() {
  return {"race.pipeline_phases_order",
          "the order the race checker claims of a block-scope pipeline's full and empty mbarrier arrays "
          "(checker/race/pipeline_order.hpp, with the exact wait counts as its bounds) holds: in every interleaving of "
          "threads that follow the protocol check_pipeline_protocol checks, on mbarriers with ISA 9.7.13.15's pending "
          "counts, phases and parity waits, every thread's k-th arrive on an array is in phase k / S of slot k mod S, "
          "each parity wait that returns True waits for the phase just completed, and an access (or async copy) the "
          "terms order before an access of another thread is known to it through arrive (release) and wait "
          "(acquire) (the counting lemma a finite litmus environment cannot express, issue 33)",
          "2 threads with 1 to 3 stages, prefetch depth 1 to S, S to 2S + 1 stages in all; 3 threads with up to S + 2 "
          "stages in all (exhaustive over interleavings and copy completion points)",
          pipeline_phases_order};
}

}  // namespace ptxcheck::proofs
