// expect: race 13 20
// nvcc: -arch=sm_100a
#include "tcgen05_flag.cuh"
// tcgen05_flag_relaxed.cu with the flag written by a weak st (no .relaxed: ISA 8.4, weak), both tcgen05 fences
// kept. ISA 9.7.16.6.3 composes the fences with "morally strong ld/st/atom instructions"; 8.7: morally strong
// operations are both strong, and a weak st is not, so the flag read observing it orders nothing (and races with
// it, 8.7.1): warp 0's tcgen05.st (line 13) and warp 4's tcgen05.ld (line 20) of the same cell race.
__global__ void handover(int* out) {
  __shared__ unsigned slot;
  __shared__ int flag[32];
  const unsigned tmem = tmem_setup(&slot, flag), warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp == 0) {
    tmem_store(tmem, threadIdx.x + 1);
    tmem_wait_store();
    tc_fence_before();
    flag_set_weak(&flag[lane]);
  } else if (warp == 4) {
    flag_wait_relaxed(&flag[lane]);
    tc_fence_after();
    out[lane] = tmem_load(tmem);
  }
  tmem_teardown(tmem);
}
