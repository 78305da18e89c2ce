// Control-flow structure of one PTX function for the race checker: basic blocks, forward (DAG) order,
// natural loops, post-dominators, and barrier-free reachability (the barrier intervals of a kernel).
#pragma once

#include "semantics/ir/ir.hpp"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ptxcheck::race {

struct Block {
  std::uint32_t begin = 0, end = 0;  // instruction range [begin, end)
  std::vector<int> succ, pred;
};

struct Loop {
  int header = -1;
  std::set<int> body;       // blocks, header included
  std::set<int> modified;   // registers written inside the loop
};

struct Cfg {
  std::vector<Block> blocks;
  std::vector<int> block_of;            // instruction -> block
  std::vector<int> order;               // forward topological order (back edges removed)
  std::set<std::pair<int, int>> back;   // back edges (from, to)
  std::vector<Loop> loops;              // one per header
  std::vector<std::set<int>> dom;      // dominators of each block (reachable blocks)
  std::vector<int> ipdom;               // immediate post-dominator (-1 = the virtual exit); paths through `trap` do not count
  std::optional<std::string> irreducible;  // set when a retreating edge does not go to a dominator
};

Cfg build_cfg(const ptx::ir::Function& f);
// The instructions brx.idx `in` may branch to (ISA 9.7.12.4: its .branchtargets list, resolved by the builder);
// empty for any other instruction.
std::vector<std::uint32_t> indexed_targets(const ptx::ir::Instruction& in);

// Registers an instruction writes (operand 0 for most; both for PredPair; vector elements).
std::vector<int> written_registers(const ptx::ir::Instruction& in);
bool writes_register(const ptx::ir::Instruction& in, int reg);

// Instruction-level control flow: the instructions that can run right after (next) or right before (previous)
// instruction i, skipping empty blocks; `no_back` leaves out the loops' back edges.
std::vector<std::uint32_t> next_instructions(const Cfg& g, std::uint32_t i, bool no_back = false);
std::vector<std::uint32_t> previous_instructions(const Cfg& g, std::uint32_t i, bool no_back = false);
// Marks in `seen` (one flag per instruction) every instruction reachable from `from` (included) forwards, or that
// reaches it (backwards), back edges included; already marked ones are not walked again.
void mark_reachable(const Cfg& g, std::vector<std::uint32_t> from, std::vector<bool>& seen, bool forward);

// An operand's value at instruction `at` when it is an immediate, or a register last set earlier in the same block
// by an unguarded `mov` of an immediate (how nvcc passes the constants of atom.cas and shfl.sync).
std::optional<std::uint64_t> constant_at(const ptx::ir::Function& f, const Cfg& g, std::uint32_t at, const ptx::ir::Operand& o);

// The loops (indices into Cfg::loops) whose body holds instruction i.
std::set<int> loops_around(const Cfg& g, std::uint32_t i);
// Whether loop L's body holds instruction i; the first instruction of L's header.
bool in_loop(const Cfg& g, std::size_t L, std::uint32_t i);
std::uint32_t loop_header(const Cfg& g, std::size_t L);

// Whether a `marked` instruction may run before instruction y (or be y, when `inclusive`) in the first iteration
// of every loop around y: a path to y in the CFG without those loops' back edges. A loop that does not hold y runs
// whole before it, so its back edge stays.
bool marked_before_first_iteration(const Cfg& g, const std::vector<bool>& marked, std::uint32_t y, bool inclusive);

// A barrier that makes every thread of the CTA wait (bar.sync / barrier.sync / bar.red, without a thread count,
// ISA 9.7.13.1; a count that is the CTA's was dropped before, barrier_forms.hpp): the barriers whose divergence is
// checked.
bool cta_barrier(const ptx::ir::Instruction& in);
// One that ends a barrier interval: a CTA barrier that is not guarded (a guarded one may be skipped by the whole
// CTA) and that, as the memory model says (model_rules.hpp, ptx.cat's sync-barrier), both releases the thread's
// accesses before it and acquires for those after it what the other threads' arrivals released.
bool separating_cta_barrier(const ptx::ir::Instruction& in);

}  // namespace ptxcheck::race
