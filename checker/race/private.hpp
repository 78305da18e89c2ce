// Thread-private memory as registers for the race engine: a `.local` variable (ISA 5.1.5, private to each thread)
// or a call site's `.param` variable (ISA 5.1.6) whose address is used only by loads and stores at constant
// offsets holds its values in registers, one per accessed cell: a store becomes a move into the cell's register,
// a load a move out of it. Values then flow through it as through registers (a loop havocs what it stores, as it
// does for the registers it writes).
#pragma once

#include "semantics/ir/ir.hpp"

#include <vector>

namespace ptxcheck::race {

struct Promoted {
  unsigned variables = 0;               // variables turned into registers
  std::vector<std::uint32_t> index;     // old instruction -> its first instruction in the rewritten body
};

// Rewrites f in place.
Promoted promote_private(ptx::ir::Function& f);

}  // namespace ptxcheck::race
