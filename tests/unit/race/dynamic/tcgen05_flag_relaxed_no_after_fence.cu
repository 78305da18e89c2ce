// expect: race 13 20
// nvcc: -arch=sm_100a
#include "tcgen05_flag.cuh"
// tcgen05_flag_relaxed.cu without warp 4's tcgen05.fence::after_thread_sync. ISA 9.7.16.6.3 orders an asynchronous
// tcgen05 operation after earlier execution ordering operations only when an after_thread_sync lies between them,
// and a relaxed read is no acquire (8.8): the tcgen05.ld (line 20) is not ordered after the flag read, so not after
// warp 0's tcgen05.st (line 13) of the same cell. A race (the report says the fence is missing).
__global__ void handover(int* out) {
  __shared__ unsigned slot;
  __shared__ int flag[32];
  const unsigned tmem = tmem_setup(&slot, flag), warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp == 0) {
    tmem_store(tmem, threadIdx.x + 1);
    tmem_wait_store();
    tc_fence_before();
    flag_set_relaxed(&flag[lane]);
  } else if (warp == 4) {
    flag_wait_relaxed(&flag[lane]);
    // (no tcgen05.fence::after_thread_sync)
    out[lane] = tmem_load(tmem);
  }
  tmem_teardown(tmem);
}
