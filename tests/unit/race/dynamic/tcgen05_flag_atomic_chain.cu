// expect: race-free
// nvcc: -arch=sm_100a
#include "tcgen05_flag.cuh"
// tcgen05_flag_relaxed.cu with the flag passed on by a third warp: warp 0 sets its lane's flag to 1 (st.relaxed)
// after tcgen05.fence::before_thread_sync; warp 2, which accesses no Tensor Memory, waits for 1 and makes it 2 in
// one atom.relaxed.cas; warp 4 waits for 2 (ld.relaxed), fences with after_thread_sync and reads the cell. ISA 8.9.2:
// observation order relates a write to a read "through an optional sequence of atomic read-modify-write
// operations", so warp 0's flag write precedes warp 4's read in observation order, morally strong throughout; with
// 9.7.16.6.3's fences the tcgen05.st is ordered before the tcgen05.ld: no race.
__global__ void handover(int* out) {
  __shared__ unsigned slot;
  __shared__ int flag[32];
  const unsigned tmem = tmem_setup(&slot, flag), warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp == 0) {
    tmem_store(tmem, threadIdx.x + 1);
    tmem_wait_store();
    tc_fence_before();
    flag_set_relaxed(&flag[lane]);
  } else if (warp == 2) {
    flag_pass_on(&flag[lane]);
  } else if (warp == 4) {
    flag_wait_relaxed(&flag[lane], 2);
    tc_fence_after();
    out[lane] = tmem_load(tmem);
  }
  tmem_teardown(tmem);
}
