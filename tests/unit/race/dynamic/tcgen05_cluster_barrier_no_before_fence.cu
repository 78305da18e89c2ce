// expect: race 12 19
// nvcc: -arch=sm_100a
#include "tcgen05_flag.cuh"
// tcgen05_cluster_barrier.cu without tcgen05.fence::before_thread_sync: the relaxed arrive (ISA 9.7.13.3) releases
// nothing, and nothing (9.7.16.6.3) orders warp 0's tcgen05.st (line 12) before it, so warp 4's tcgen05.ld (line 19)
// of the same cells races with it.
__global__ void __cluster_dims__(1, 1, 1) handover(int* out) {
  __shared__ unsigned slot;
  __shared__ int flag[32];
  const unsigned tmem = tmem_setup(&slot, flag), warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp == 0) {
    tmem_store(tmem, threadIdx.x + 1);
    tmem_wait_store();
  }
  // (no tcgen05.fence::before_thread_sync)
  cluster_arrive_relaxed();
  cluster_wait();
  tc_fence_after();
  if (warp == 4) out[lane] = tmem_load(tmem);
  tmem_teardown(tmem);
}
