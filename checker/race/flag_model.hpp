// Whether a flag orders a producer's access b before a consumer's access a, asked of the memory model
// (issue 33, "ordering asked of the model"): a litmus test is built for the candidate pair from the kernel's own
// instructions and run by the litmus engine under proofs/models/ptx-race.cat (over memmodel/models/ptx.cat),
// which says whether b and a race in an execution where the consumer's read R of the flag reads the producer's
// write W. flags.hpp keeps what the model cannot see: which instructions are a flag site, that b precedes W and
// that a follows R (and is in no loop around R), and, with the solver, that R can only have read W's value.
//
// The test for one pair (docs/race/message-passing.md has an example):
//   P0: b; the release side's path; W        P1: R; the acquire side's path; a
// b and a are weak accesses of a location `data` (a write where the instruction writes, else a read): the
// question is the flag's ordering, not their own strength (moral strength is the pair search's, check_overlap).
// W and R are the kernel's instructions on a location `flag` (their qualifiers as written, so the ISA's defaults
// are the litmus builder's). A path's cells are the fences and the strong memory operations on it in program
// order (the operations on a third location `other`), each as written. Weak accesses, barriers and every other
// instruction are left out: fewer events give the model fewer orderings, so a left-out instruction can make the
// answer "race" where the kernel is ordered, never the reverse (ptx.cat's axioms are monotone under removing
// events, the premise the litmus builder's spin-loop reduction states too).
//
// "On every path": each path from b to W (from R to a) gives a shape, the sequence of its cells. A path around a
// loop has the cells of a loop-free path as a subsequence, and a subsequence has fewer events, so the shapes that
// matter are the minimal ones; every pair of minimal shapes is asked, and the pair is ordered when no test races.
#pragma once

#include "checker/race/cfg.hpp"
#include "litmus/enumerate/enumerate.hpp"
#include "semantics/ir/scope.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ptxcheck::race {

using PathShape = std::vector<std::string>;  // a path's cells in program order; `{d}` stands for a destination register

// The cell of an instruction on a path: a memory fence, or a strong ld/st/atom/red on `other`; nullopt for every
// instruction the test leaves out.
std::optional<std::string> path_cell(const ptx::ir::Instruction& in);
// The cell of the flag's write W (value 1) or read R (into r0) on `flag`; nullopt when it cannot be written as one.
std::optional<std::string> flag_cell(const ptx::ir::Instruction& in, bool write);

// The cell of a one-location, synchronous memory instruction on `location`: its destination `dest`, every data
// operand `value`; nullopt when it cannot be written as one. (flag_cell is this on `flag` with value 1.)
std::optional<std::string> memory_cell(const ptx::ir::Instruction& in, const std::string& location, const std::string& dest,
                                       const std::string& value = "1");

// Where the paths of path_shapes may go (a lock's questions, lock_model.cpp): at `edge.first` only on to
// `edge.second` (the branch taken when the lock was taken), and nowhere past a `stops` instruction (another release).
struct PathBounds {
  std::optional<std::pair<std::uint32_t, std::uint32_t>> edge;
  std::vector<std::uint32_t> stops;
};

// The minimal shapes of the paths from `from` to `to` (both left out; a path that comes back to `from` is one from
// there). nullopt when more than `limit` shapes or a shape of more than `limit` cells would be needed.
std::optional<std::vector<PathShape>> path_shapes(const ptx::ir::Function& f, const Cfg& g, std::uint32_t from, std::uint32_t to,
                                              std::size_t limit = 8, const PathBounds& bounds = {});

// The places of the consumer every flag, ticket and lock question is asked in, nearest first: the producer's CTA,
// another CTA of its cluster, another cluster (8.5: the scopes that include the other thread).
inline constexpr std::array<ptx::ir::Nearness, 3> kPlaces = {ptx::ir::Nearness::same_cta, ptx::ir::Nearness::same_cluster,
                                                            ptx::ir::Nearness::same_gpu};

struct MessageQuestion {
  bool b_writes = true, a_writes = false;
  std::string write, read;  // flag_cell of W and R
  PathShape release, acquire;   // one shape of each side
  ptx::ir::Nearness nearness = ptx::ir::Nearness::same_gpu;  // of the consumer to the producer
  bool b_is_write = false;  // b is W itself (a ticket's increment): no b; a is on `flag`
  // A holder between the two (a lock's chain, check_lock_model.cpp): its read of the flag (`read`), its path and its
  // write, in a place of its own (seen from the producer; never the consumer's CTA or cluster unless both are the
  // producer's): then R may read the middle's write, and b and a race only through the chain.
  struct Middle {
    PathShape path;
    std::string write;
    ptx::ir::Nearness nearness = ptx::ir::Nearness::same_gpu;
  };
  std::optional<Middle> middle = std::nullopt;
};
// The litmus test (herd PTX dialect) whose consistent executions under ptx-race.cat with `message-race` non-empty
// are those in which R read W's 1 and b and a race.
std::string message_litmus(const MessageQuestion& q);

// A test's body from its threads' cells, one column per thread: a row per step, cells separated by `|`, each row
// ended by `;` (a thread with fewer cells leaves its column empty).
std::string litmus_rows(const std::vector<std::vector<std::string>>& columns);

// The model's answer: true when b and a race in some execution (not ordered), false when in none; nullopt when
// the test could not be answered (`why` says why: no ptx-race.cat, a cell the litmus builder refuses, no execution
// in which R reads W). Answers are kept per test text for the process (thread-safe).
std::optional<bool> message_races(const MessageQuestion& q, std::string& why);

// Any race question (grid_sync_model.hpp too): whether the litmus test `text` has a consistent execution under
// ptx-race.cat that satisfies its condition and in which the model's relation `relation` is non-empty. nullopt when
// it could not be answered (`why`; `none` when no consistent execution satisfies the condition). Answers are kept
// per relation and text for the process (thread-safe).
std::optional<bool> race_question(const std::string& text, const std::string& relation, litmus::Engine engine, const std::string& none,
                                  std::string& why);

// b's side of a question: a write W and the minimal shapes of the paths from b to it.
struct ReleaseSide {
  std::string write;  // flag_cell of W
  std::vector<PathShape> shapes;
};
// Whether b is ordered before a in q's place (q gives the accesses' kinds, R and the place; its write and shapes are
// set here): true when no test races, for every release side's shape and every acquire shape, directly and through
// each holder in `middles` in turn; false when one races; nullopt when one could not be answered and none races
// (`why` says why). The one loop flags, tickets and locks ask the model through.
std::optional<bool> ordered_in_place(MessageQuestion q, const std::vector<ReleaseSide>& releases, const std::vector<PathShape>& acquires,
                                     const std::vector<MessageQuestion::Middle>& middles, std::string& why);

}  // namespace ptxcheck::race
