#include "checker/race/async_copy.hpp"
#include "checker/race/encode.hpp"
#include "semantics/support/resource_guard.hpp"

#include <algorithm>
#include <set>
#include <tuple>

namespace ptxcheck::race {

using ptx::ir::AsyncCopyRole;

namespace {

// Whether the encoding may record a memory access at `in` (encode.cpp): anything but register-only opcodes, mbarrier
// operations (their 8 bytes are not data) and the cp.async group controls. Over-approximated: a form unknown here
// counts as an access.
bool may_access_memory(const ptx::ir::Instruction& in) {
  if (register_only(in.op) || in.op == ptx::ir::Opcode::mbarrier_) return false;
  return !(in.op == ptx::ir::Opcode::cp_ && ptx::ir::async_copy_role(in) != AsyncCopyRole::copy);
}

}  // namespace

LoopsObserved observed_loops(const ptx::ir::Function& f, const Cfg& g) {
  LoopsObserved o;
  o.after_leaving.assign(g.loops.size(), false);
  o.entered.assign(g.loops.size(), false);
  for (std::size_t L = 0; L < g.loops.size(); ++L)
    for (int b : g.loops[L].body)
      for (std::uint32_t i = g.blocks[static_cast<std::size_t>(b)].begin; i < g.blocks[static_cast<std::size_t>(b)].end; ++i) {
        if (separating_cta_barrier(f.body[i])) o.after_leaving[L] = o.entered[L] = true;
        if (may_access_memory(f.body[i])) o.entered[L] = true;
      }
  return o;
}

std::map<std::uint32_t, std::vector<AsyncPosition>> async_spans(const ptx::ir::Function& f, const Cfg& g) {
  std::map<std::uint32_t, std::vector<AsyncPosition>> out;
  // Commits past the largest N of any wait complete every wait: counting further tells nothing new.
  std::uint32_t enough_commits = 1;
  for (const auto& in : f.body)
    if (ptx::ir::async_copy_role(in) == AsyncCopyRole::wait) enough_commits = std::max(enough_commits, ptx::ir::async_wait_pending(in) + 1);
  std::size_t states = 0;
  const LoopsObserved observed = observed_loops(f, g);
  for (std::uint32_t issue = 0; issue < f.body.size(); ++issue) {
    if (ptx::ir::async_copy_role(f.body[issue]) != AsyncCopyRole::copy) continue;
    const std::set<int> around_set = loops_around(g, issue);
    const std::vector<int> around(around_set.begin(), around_set.end());
    struct State {
      std::uint32_t instr, commits;
      std::vector<int> later;    // per loop of `around`
      std::map<int, int> entered;
      std::map<int, std::uint32_t> left_from;
      int last_barrier;
      auto key() const { return std::tie(instr, commits, later, entered, left_from, last_barrier); }
      bool operator<(const State& o) const { return key() < o.key(); }
    };
    std::set<State> seen;
    std::set<std::tuple<std::uint32_t, std::vector<int>, std::map<int, int>, std::map<int, std::uint32_t>, int>> recorded;
    std::vector<AsyncPosition>& positions = out[issue];
    std::vector<State> todo{{issue, 0, std::vector<int>(around.size(), 0), {}, {}, -1}};
    auto holds = [&](int L, std::uint32_t i) { return in_loop(g, static_cast<std::size_t>(L), i); };
    auto header_of = [&](int L) { return loop_header(g, static_cast<std::size_t>(L)); };
    // An edge from the body to the header's first instruction is a back edge: the next iteration.
    auto next_iteration = [&](int& iteration) {
      if (iteration != AsyncPosition::any_iteration && ++iteration > max_async_iterations) iteration = AsyncPosition::any_iteration;
    };
    while (!todo.empty()) {
      // The states multiply with the loops around and after the copy (their iteration counts): the kernel's budget
      // holds here too, and a bound on the states keeps the memory (and the time to free it) small.
      ptxcheck::ResourceGuard::checkpoint();
      if (++states > max_async_states)
        throw ptxcheck::BudgetExhausted("the cp.async in-flight analysis reached its bound of " + std::to_string(max_async_states) +
                                        " states (copies inside several loops, async_copy.hpp)");
      State s = std::move(todo.back());
      todo.pop_back();
      if (!seen.insert(s).second) continue;
      if (recorded.insert({s.instr, s.later, s.entered, s.left_from, s.last_barrier}).second) {
        AsyncPosition p{s.instr, {}, s.entered, s.left_from, s.last_barrier};
        for (std::size_t k = 0; k < around.size(); ++k) p.later[around[k]] = s.later[k];
        positions.push_back(std::move(p));
      }
      const auto& in = f.body[s.instr];
      const AsyncCopyRole role = ptx::ir::async_copy_role(in);
      const std::uint32_t commits = std::min(s.commits + ptx::ir::async_commits(in), enough_commits);
      // ISA 9.7.9.25.3.3: wait_group N completes every group but the N most recent (wait_all: commit, wait_group 0).
      if (role == AsyncCopyRole::wait && commits >= ptx::ir::async_wait_pending(in) + 1) continue;
      const bool barrier = separating_cta_barrier(in);
      for (std::uint32_t next : next_instructions(g, s.instr)) {
        State n{next, commits, s.later, s.entered, barrier ? std::map<int, std::uint32_t>{} : s.left_from,
                barrier ? static_cast<int>(s.instr) : s.last_barrier};
        // Leaving a loop keeps the iteration it was left in, and where from (not from a barrier: whether the thread
        // is past it is not told by the instruction).
        // (Only for loops whose entries a pair check reads: see LoopsObserved.)
        for (int L = 0; L < static_cast<int>(g.loops.size()); ++L) {
          const bool leaves = holds(L, s.instr) && !holds(L, next);
          if (leaves && !observed.after_leaving[static_cast<std::size_t>(L)]) n.entered.erase(L);
          else if (leaves && !barrier) n.left_from[L] = s.instr;
          if (holds(L, next)) n.left_from.erase(L);
        }
        for (std::size_t k = 0; k < around.size(); ++k) {
          const int L = around[k];
          if (!holds(L, next)) {
            if (!observed.after_leaving[static_cast<std::size_t>(L)]) n.later[k] = AsyncPosition::any_iteration;
            continue;
          }
          if (!holds(L, s.instr)) n.later[k] = AsyncPosition::any_iteration;  // back in it (an outer loop's next iteration)
          else if (next == header_of(L)) next_iteration(n.later[k]);
        }
        for (int L = 0; L < static_cast<int>(g.loops.size()); ++L) {
          if (around_set.count(L) || !holds(L, next) || !observed.entered[static_cast<std::size_t>(L)]) continue;
          if (!holds(L, s.instr)) n.entered[L] = 0;  // entered from outside: its first iteration
          else if (next == header_of(L)) next_iteration(n.entered[L]);
        }
        todo.push_back(std::move(n));
      }
    }
  }
  return out;
}

}  // namespace ptxcheck::race
