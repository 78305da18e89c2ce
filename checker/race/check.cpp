// Pairs of accesses of two symbolic threads asked to Z3 (see check.hpp): barrier intervals from barrier-free
// reachability, loop iterations aligned across a CTA by barriers, moral strength per ISA 8.6, and barrier
// divergence as "one thread of a CTA reaches a barrier instance that another does not".
#include "checker/race/check.hpp"
#include "checker/race/kernel_check.hpp"
#include "checker/race/model_rules.hpp"
#include "checker/race/notes.hpp"

#include <algorithm>
#include <chrono>

namespace ptxcheck::race {

std::string z3_failure(const std::string& z3_message, const Options& o) {
  return "z3: " + z3_message + " (memory cap " + std::to_string(o.memory_mb) + " MB)";
}

std::string Where::key() const { return file.empty() || !line ? "ptx line " + std::to_string(ptx_line) : file + ":" + std::to_string(line) + ":" + std::to_string(column); }

RaceKey race_key(const Where& a, const Where& b) {
  std::string x = a.key(), y = b.key();
  return x < y ? RaceKey{x, y} : RaceKey{y, x};
}

std::string Where::text() const {
  if (file.empty()) return ptx_file + ":" + std::to_string(ptx_line);
  if (!line) return file + " (no source line: nvcc's .loc says line 0, code it merged from several lines; ptx line " + std::to_string(ptx_line) + ")";
  return file + ":" + std::to_string(line) + ":" + std::to_string(column) + " (ptx line " + std::to_string(ptx_line) + ")";
}

namespace {
// Z3's own cap on what it allocates, beside the guard's on the whole process: Z3 does not stop at once when
// interrupted while it bit-blasts one formula, but it checks its cap at every allocation. Past the cap the solver
// is not used again (check_on; Z3 4.8 can abort the process when it is).
void cap_z3_memory(const Options& o) {
  z3::set_param("memory_max_size", static_cast<int>(std::max(16u, o.memory_mb * 9 / 10)));  // the rest: the process's own
}

// check_kernel under its guard: every stage (encoding, loop summaries, pair search, replay) stops when the guard's
// CPU, wall or memory budget runs out.
// `res` collects the findings as they are made (check_kernel keeps them when a budget stops the check).
void check_kernel_guarded(const ptx::ir::Module& m, const ptx::ir::Function& kernel, const Options& o, ResourceGuard& guard, KernelResult& res) {
  auto t0 = std::chrono::steady_clock::now();
  res.kernel = kernel.name;
  const PreparedKernel prepared(m, kernel, o, res);
  cap_z3_memory(o);
  KernelCheck check(m, kernel, o, guard, prepared, res);
  check.constrain_pair();
  check.settle_named_barriers();
  check.add_writer_counter_facts();
  check.mark_orderings();
  check.check_barrier_divergence();
  check.check_mbarrier_inits();
  check.check_grid_sync_divergence();
  check.settle_locks();
  // ---- data races
  check.index_objects();
  check.place_accesses();
  check.collect_lane_facts();
  check.find_flags();
  check.find_tickets();
  check.search_pairs();
  check.note_flags();
  check.note_locks();
  check.note_tickets();
  check.check_own_copies();
  check.finish();
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// A race whose witness is exact (not `possible`) or a barrier divergence is evidence on its own.
bool definite_finding(const KernelResult& r) {
  return !r.divergences.empty() || std::any_of(r.races.begin(), r.races.end(), [](const RaceReport& x) { return !x.possible; });
}
}  // namespace

void account_for_unanswered_model(KernelResult& k) {
  const std::string why = model_rules_problem();
  if (why.empty()) return;
  k.notes.push_back(note::model_unanswered(why));
  if (k.verdict != KernelResult::Verdict::race || !k.divergences.empty()) return;
  k.verdict = KernelResult::Verdict::unknown;
  k.unknown_reasons.push_back("the memory model could not be asked which operations release and acquire (" + why +
                              "): the races found may be orderings it gives");
}

KernelResult check_kernel(const ptx::ir::Module& m, const ptx::ir::Function& kernel, const Options& o) {
  ResourceGuard guard(o.limits());
  const auto t0 = std::chrono::steady_clock::now();
  KernelResult found;
  // Stopped by a budget: unknown, unless a definite race or divergence was found first, which stands (the pairs
  // not yet searched could only add reports).
  auto unknown = [&](const std::string& why) {
    KernelResult r;
    r.kernel = kernel.name;
    if (definite_finding(found)) {
      r = std::move(found);
      std::erase_if(r.races, [](const RaceReport& x) { return x.possible; });
      r.verdict = KernelResult::Verdict::race;
      r.notes.push_back(note::stopped_early(why));
    } else {
      r.verdict = KernelResult::Verdict::unknown;
      r.unknown_reasons.push_back(why);
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.cpu_seconds = guard.cpu_seconds();
    return r;
  };
  try {
    check_kernel_guarded(m, kernel, o, guard, found);
    found.cpu_seconds = guard.cpu_seconds();
    account_for_unanswered_model(found);
    return found;
  } catch (const BudgetExhausted& e) {
    return unknown(e.what());
  } catch (const z3::exception& e) {  // Z3's own memory cap, or canceled by the guard
    return unknown(guard.exhausted().value_or(z3_failure(e.msg(), o)));
  } catch (const std::bad_alloc&) {
    return unknown("out of memory (budget " + std::to_string(o.memory_mb) + " MB)");
  }
}

}  // namespace ptxcheck::race
