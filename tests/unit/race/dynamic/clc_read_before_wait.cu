// expect: race 19 21   (ISA 9.7.13.17: only the mbarrier tells the response has landed; the load comes before the wait)
// nvcc: -arch=sm_100a
#include "cluster_launch_control.cuh"
// clc_persistent.cu with the response loaded before the mbarrier wait. 9.7.13.17: "It asynchronously writes an
// opaque response to shared memory"; "The executing thread can then use mbarrier instructions to wait for
// completion of the asynchronous operation. No other synchronization mechanisms described in Memory Consistency
// Model can be used to guarantee the completion". Nothing orders the response write (line 19) before the load
// (line 21): a race, whichever value the load happens to see.
__global__ void persistent(int* out) {
  __shared__ alignas(16) int resp[4];
  __shared__ std::uint64_t bar;
  if (threadIdx.x == 0) mbar_init(&bar, 1);
  __syncthreads();
  unsigned tile = blockIdx.x, parity = 0;
  for (;;) {
    out[tile * 32 + threadIdx.x] = tile;
    if (threadIdx.x == 0) {
      mbar_expect_tx(&bar, 16);
      try_cancel(resp, &bar);
    }
    const Response r = read_response(resp);  // belongs after the wait
    mbar_wait(&bar, parity);
    parity ^= 1;
    fence_proxy_async_shared();
    __syncthreads();
    if (!r.canceled) break;
    tile = r.x;
  }
}
