// expect: race 20 24   (ISA 8.9.5, 9.7.13.17: the next request's async-proxy write follows the generic load unfenced)
// nvcc: -arch=sm_100a
#include "cluster_launch_control.cuh"
// clc_persistent.cu without fence.proxy.async after the load. 9.7.13.17 says the response is "asynchronously written
// using weak async-proxy writes" (of .multicast::cluster::all; taken alike for this unicast form, as in
// docs/race/async-proxy.md); 8.9.5 orders a generic access before an async-proxy one
// only with a proxy fence on the path (the text's own example fences, "Fence generic->async", after loading the
// handle and before the next request). The CTA barrier orders the load (line 24) before thread 0's next request
// (line 20) in base causality order, but not across the proxies: a race.
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
    mbar_wait(&bar, parity);
    parity ^= 1;
    const Response r = read_response(resp);
    __syncthreads();  // (no fence.proxy.async before it)
    if (!r.canceled) break;
    tile = r.x;
  }
}
