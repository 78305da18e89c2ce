// CPU time of the calling thread: the race checks' and the liveness search's budgets count it instead of wall
// time, so that a loaded machine (CI, parallel corpus runs) gives the same verdicts.
#pragma once

#include <ctime>

namespace ptxcheck {

inline double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

}  // namespace ptxcheck
