// expect: race-free
// nvcc: -arch=sm_100a
#include "tcgen05_flag.cuh"
// tcgen05_flag_relaxed.cu with the flag set by atom.relaxed.cta.exch and polled by atom.relaxed.cta.or with 0:
// ISA 9.7.16.6.3's "morally strong ld/st/atom instructions" include atomics on either side (8.7: an atom is
// strong; the poll that returns 1 observes the exchange, 8.9.2). The tcgen05.st is ordered before the tcgen05.ld:
// no race.
__global__ void handover(int* out) {
  __shared__ unsigned slot;
  __shared__ int flag[32];
  const unsigned tmem = tmem_setup(&slot, flag), warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp == 0) {
    tmem_store(tmem, threadIdx.x + 1);
    tmem_wait_store();
    tc_fence_before();
    flag_set_atom_relaxed(&flag[lane]);
  } else if (warp == 4) {
    flag_wait_atom_relaxed(&flag[lane]);
    tc_fence_after();
    out[lane] = tmem_load(tmem);
  }
  tmem_teardown(tmem);
}
