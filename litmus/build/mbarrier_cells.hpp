// The litmus engine's reading of mbarrier cells (ISA 9.7.13.15; memmodel/models/NOTES.md, "mbarrier"): an mbarrier
// object is one memory location holding its state (phase, pending arrivals, tx-count) as one integer
// (mbarrier_counter.hpp), the expected arrival count N being the count of the test's one init of it. An arrive-on,
// expect-tx or complete-tx is an atomic read-modify-write of that value (9.7.13.15.5-.7), a wait a read of it whose
// waitComplete is computed from the phase read.
#pragma once

#include "litmus/build/threads.hpp"
#include "semantics/ir/mbarrier_order.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace ptxcheck::litmus {

struct MbarrierCell {
  ptx::ir::MbarrierOp op = ptx::ir::MbarrierOp::none;
  ptx::ir::MemoryOrder order;  // arrive and wait (semantics/ir/mbarrier_order.hpp); weak for init
  bool parity = false;         // a wait's .parity form: operand 2 is phaseParity, not a state
  bool expect_tx = false;      // arrive.expect_tx: operand 2 is txCount, the arrive-on's count is 1 (9.7.13.15.13)
  bool scope_stated = true;    // expect_tx / complete_tx: .scope given (neither section states a default)
  std::size_t object = 0;      // the operand naming the object, `[addr]`
  std::size_t operands = 0;    // how many the cell must have (a wait's suspendTimeHint is not counted: optional)
};

// The cell's mbarrier operation, or the reason it is not modelled (`why`, naming the ISA section).
std::optional<MbarrierCell> decode_mbarrier_cell(const Instr& in, std::string& why);

// Each mbarrier object's expected count (Program::mbarrier_expected) from its one mbarrier.init; false, with a
// located diagnostic, when a cell is not modelled or the test is undefined in a way the engine can see: no init or
// more than one, a count outside [1, 2^20 - 1] or not an immediate, another instruction on the object, an initial
// value other than 0 (9.7.13.15, .9).
bool note_mbarrier_objects(const Test& t, Program& p, std::vector<Diagnostic>& diags);

// 9.7.13.15.4: the current phase of the object holding `value` (mbarrier_counter.hpp).
std::int64_t mbarrier_phase(std::int64_t value, std::int64_t expected);
// 9.7.13.15.16, the .parity form: the phase of parity `parity` is complete when it is not the current one's (it is
// then the immediately preceding phase). nullopt: phaseParity is neither 0 nor 1.
std::optional<bool> mbarrier_parity_complete(std::int64_t value, std::int64_t expected, std::int64_t parity);
// 9.7.13.15.16, with the state of this thread's arrive in phase `state`: true when the current phase is the next one,
// false when it is still `state`. nullopt: a later phase, which the wait is not valid for (undefined).
std::optional<bool> mbarrier_state_complete(std::int64_t value, std::int64_t expected, std::int64_t state);

}  // namespace ptxcheck::litmus
