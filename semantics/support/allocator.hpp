// Process-wide allocator tuning, called once by every program's main: parsing allocates and frees many
// large vectors, and glibc's default mmap/trim thresholds returned them to the kernel each time (a third
// of the parse time went to page faults, measured with perf in bench/parse).
#pragma once
#include <malloc.h>

namespace ptxcheck {
inline void tune_allocator() {
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
}
}  // namespace ptxcheck
