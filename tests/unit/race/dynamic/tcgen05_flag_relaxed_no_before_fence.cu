// expect: race 13 20
// nvcc: -arch=sm_100a
#include "tcgen05_flag.cuh"
// tcgen05_flag_relaxed.cu without warp 0's tcgen05.fence::before_thread_sync. ISA 9.7.16.6.3 orders an asynchronous
// tcgen05 operation before later execution ordering operations only when a before_thread_sync lies between them,
// and a relaxed flag is no release (8.8): nothing orders the tcgen05.st (line 13) before the flag, so nothing orders
// it before warp 4's tcgen05.ld (line 20) of the same cell. A race.
__global__ void handover(int* out) {
  __shared__ unsigned slot;
  __shared__ int flag[32];
  const unsigned tmem = tmem_setup(&slot, flag), warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp == 0) {
    tmem_store(tmem, threadIdx.x + 1);
    tmem_wait_store();
    // (no tcgen05.fence::before_thread_sync)
    flag_set_relaxed(&flag[lane]);
  } else if (warp == 4) {
    flag_wait_relaxed(&flag[lane]);
    tc_fence_after();
    out[lane] = tmem_load(tmem);
  }
  tmem_teardown(tmem);
}
