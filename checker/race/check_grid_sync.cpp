// Grid synchronisations as orderings (grid_sync.hpp): those find_grid_syncs recognises, each asked of the memory
// model (grid_sync_model.hpp); only those the model says order every question end a grid interval, and only their
// accesses of W are left out of the other orderings. Every recognised one's W is the driver's memory, in no race pair.
#include "checker/race/grid_sync_model.hpp"
#include "checker/race/kernel_check.hpp"
#include "checker/race/notes.hpp"

#include <cstdlib>
#include <fstream>

namespace ptxcheck::race {
namespace {

// The question that raced or was not answered, kept as a file in $PTXCHECK_RACE_QUESTIONS when that names a folder
// (for `ptxcheck litmus --model proofs/models/ptx-race.cat`); the file's path, or how to get it.
std::string keep_question(const std::string& text, std::uint32_t ptx_line) {
  const char* dir = std::getenv("PTXCHECK_RACE_QUESTIONS");
  if (!dir || !*dir) return "set PTXCHECK_RACE_QUESTIONS to a folder to keep its litmus test";
  const std::string path = std::string(dir) + "/grid-sync-line" + std::to_string(ptx_line) + ".litmus";
  std::ofstream out(path);
  out << text;
  return out ? "its litmus test: " + path : "its litmus test could not be written to " + path;
}

}  // namespace

void KernelCheck::settle_grid_syncs() {
  grid_syncs = find_grid_syncs(f, prep.cfg);
  for (const auto& gs : grid_syncs) {
    grid_workspace.insert(gs.counter.begin(), gs.counter.end());
    const Where where = where_of(m, f.body[gs.begin]);
    const std::string at = where.text();
    const GridOrder order = grid_sync_orders(f, prep.cfg, gs);
    if (order.ordered != true) {
      const std::string kept = order.question.empty() ? "" : "; " + keep_question(order.question, where.ptx_line);
      res.notes.push_back(note::grid_sync_not_ordered(at, order.ordered.has_value(), order.why + kept));
      continue;
    }
    grid_ends.insert(gs.end);
    grid_counter.insert(gs.counter.begin(), gs.counter.end());
    res.notes.push_back(note::grid_sync(at));
  }
  if (!grid_ends.empty()) an_grid.emplace(f, prep.cfg, [&](std::uint32_t i) { return grid_ends.count(i) > 0; });
}

}  // namespace ptxcheck::race
