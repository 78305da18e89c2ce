// expect: race-free   (ISA 9.7.13.4: fence.proxy.async orders the generic write before the next async-proxy response)
// nvcc: -arch=sm_100a
#include "cluster_launch_control.cuh"
// clc_reuse_no_proxy_fence.cu with thread 0's fence.proxy.async after it clears the response's word 3. 8.9.5 item 3
// (9.7.13.4: "the memory ordering is established between the async proxy and the generic proxy"): the clear and
// the next request's async-proxy write of the same bytes are ordered through the fence on the base causality path
// (program order of thread 0); the loads are fenced too, and the clear follows the wait that saw the earlier
// response land (its completion is followed by an implicit generic-async proxy fence, as for bulk copies).
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
    fence_proxy_async_shared();  // the loads are fenced
    __syncthreads();
    if (threadIdx.x == 0) {
      resp[3] = 0;
      fence_proxy_async_shared();
    }
    __syncthreads();
    if (!r.canceled) break;
    tile = r.x;
  }
}
