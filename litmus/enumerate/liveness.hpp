// Liveness under fair scheduling, as Dat3M's liveness check defines it (docs/litmus-liveness.md): can an
// allowed execution hang, with a thread spinning forever on values no write changes any more, or waiting at a
// barrier that never completes? Reported apart from the verdict of the test's condition.
#pragma once

#include "litmus/enumerate/engine.hpp"

namespace ptxcheck::litmus {

// pr.traces: per thread, the complete traces and the stuck prefixes (Trace::End::spin / barrier) of
// thread_traces(..., stuck = true). bounded: some trace of some thread reached the unroll bound (a loop that is
// not a side-effect-free spin loop), so an execution outside the traces might hang. Sets res.liveness to
// ok | hang | unknown and res.liveness_detail to the hang's witness or the reason.
void check_liveness(const Prepared& pr, const cat::Model& model, const Options& opt, bool bounded, Result& res);

}  // namespace ptxcheck::litmus
