// A solver call's budget in the race checker: semantics/support/solver.hpp's, whose default (20,000,000 Z3 resource
// units, 20 s) is set so that the resource count binds first on an ordinary machine (about 4000 units per
// millisecond): answers are then reproducible under any load, the time limit being the backstop.
#pragma once

#include "semantics/support/solver.hpp"

namespace ptxcheck::race {

using QueryBudget = solver::Budget;

// The checker's own small questions about a kernel's structure (a loop's recurrence, a fixed thread index, a thread
// count): a short budget, and unknown is taken as "no", which only leaves the structure unused.
inline constexpr QueryBudget kShortQuery{800'000, 200};

}  // namespace ptxcheck::race
