// expect: race-free   (ISA 9.7.13.17: the response is read after a wait that saw its complete-tx; fenced before reuse)
// nvcc: -arch=sm_100a
#include "cluster_launch_control.cuh"
// A persistent CTA (clusters of one CTA), as CUTLASS's Blackwell tile schedulers: process a tile, ask to cancel a
// cluster that has not started, take its tile, until a request fails. 9.7.13.17: the response is written
// asynchronously and "The executing thread can then use mbarrier instructions to wait for completion"; the next
// request writes the same 16 bytes again in the async proxy, so each thread's generic read of the response is
// followed by fence.proxy.async (the text's own example: "Fence generic->async") and the CTA barrier carries the
// fenced reads to thread 0 before it asks again.
__global__ void persistent(int* out) {
  __shared__ alignas(16) int resp[4];
  __shared__ std::uint64_t bar;
  if (threadIdx.x == 0) mbar_init(&bar, 1);
  __syncthreads();
  unsigned tile = blockIdx.x, parity = 0;
  for (;;) {
    out[tile * 32 + threadIdx.x] = tile;  // the tile's work
    if (threadIdx.x == 0) {
      mbar_expect_tx(&bar, 16);
      try_cancel(resp, &bar);
    }
    mbar_wait(&bar, parity);
    parity ^= 1;
    const Response r = read_response(resp);
    fence_proxy_async_shared();
    __syncthreads();
    if (!r.canceled) break;
    tile = r.x;
  }
}
