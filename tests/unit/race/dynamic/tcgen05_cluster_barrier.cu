// expect: race-free
// nvcc: -arch=sm_100a
#include "tcgen05_flag.cuh"
// ISA 9.7.16.6.3: the tcgen05 fences compose with "barrier instructions" too. Warp 0 writes its cells
// (tcgen05.st, tcgen05.wait::st); every thread fences (tcgen05.fence::before_thread_sync), arrives at the cluster
// barrier with barrier.cluster.arrive.relaxed (9.7.13.3: no release), waits, fences (after_thread_sync); warp 4
// then reads the cells. The relaxed arrive orders no memory access, but the fences make it order the tcgen05
// operations, as 9.7.16.6.4.3-4 do with mbarrier.arrive.relaxed: no race.
__global__ void __cluster_dims__(1, 1, 1) handover(int* out) {
  __shared__ unsigned slot;
  __shared__ int flag[32];
  const unsigned tmem = tmem_setup(&slot, flag), warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp == 0) {
    tmem_store(tmem, threadIdx.x + 1);
    tmem_wait_store();
  }
  tc_fence_before();
  cluster_arrive_relaxed();
  cluster_wait();
  tc_fence_after();
  if (warp == 4) out[lane] = tmem_load(tmem);
  tmem_teardown(tmem);
}
