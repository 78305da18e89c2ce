// expect: race-free
// nvcc: -arch=sm_100a
#include "tcgen05_flag.cuh"
// ISA 9.7.16.6.3: the tcgen05 fences compose with "execution ordering instructions, like morally strong
// ld/st/atom instructions": morally strong (8.7: both strong, each scope includes the other thread, the same
// bytes), not release/acquire, as the canonical patterns of 9.7.16.6.4 use mbarrier.arrive.relaxed and
// try_wait.relaxed. Here the flag is written st.relaxed.cta and read ld.relaxed.cta, a read that observes the write
// (8.9.2). Warp 0: tcgen05.st, tcgen05.wait::st, tcgen05.fence::before_thread_sync ("An asynchronous tcgen05
// operation prior to a tcgen05.fence::before_thread_sync is ordered before all subsequent tcgen05 and the execution
// ordering operations"), the flag; warp 4: the flag, tcgen05.fence::after_thread_sync ("An asynchronous tcgen05
// operation subsequent to a tcgen05.fence::after_thread_sync is ordered after all the prior tcgen05 and the
// execution ordering operations"), tcgen05.ld. The store is ordered before the load: no race.
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
    tc_fence_after();
    out[lane] = tmem_load(tmem);
  }
  tmem_teardown(tmem);
}
