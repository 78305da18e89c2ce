// expect: race-free
// nvcc: -arch=sm_100a
#include "tcgen05_flag.cuh"
// ISA 9.7.16.6.3: "The tcgen05.fence::before_thread_sync and tcgen05.fence::after_thread_sync composes with
// execution ordering instructions, like morally strong ld/st/atom instructions, mbarrier instruction, barrier
// instructions and so on, to establish an ordering between the tcgen05 operations across threads." Warp 0 writes its
// lanes' cells (tcgen05.st), waits for the store (tcgen05.wait::st, 9.7.16.6.2.3), fences, and sets its lane's flag
// with st.release; warp 4's lane spins on it with ld.acquire, fences, and reads the cell (9.7.16.6.4.4's pattern,
// a flag in place of the mbarrier): the write is ordered before the read. No race.
__global__ void handover(int* out) {
  __shared__ unsigned slot;
  __shared__ int flag[32];
  const unsigned tmem = tmem_setup(&slot, flag), warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp == 0) {
    tmem_store(tmem, threadIdx.x + 1);
    tmem_wait_store();
    tc_fence_before();
    flag_set_release(&flag[lane]);
  } else if (warp == 4) {
    flag_wait_acquire(&flag[lane]);
    tc_fence_after();
    out[lane] = tmem_load(tmem);
  }
  tmem_teardown(tmem);
}
