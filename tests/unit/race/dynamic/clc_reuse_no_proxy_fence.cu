// expect: race 20 28   (ISA 8.6, 9.7.13.17: a generic write to the response, then an async-proxy write, no fence)
// nvcc: -arch=sm_100a
#include "cluster_launch_control.cuh"
// clc_persistent.cu whose thread 0 clears the response's word 3 (a generic st.shared, like a kernel marking the
// buffer empty) after every thread has read it, then asks again with no fence.proxy.async between. 9.7.13.17: the
// response is "asynchronously written using weak async-proxy writes" (said of .multicast::cluster::all; taken alike
// for this unicast form, docs/race/async-proxy.md); 8.6 / 8.9.5: accesses of two proxies are
// ordered only through a proxy fence (9.7.13.4's fence.proxy.async). The CTA barrier and program order put the
// clear (line 28) before the next request's write (line 20) in base causality order, which is not enough: a race.
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
      resp[3] = 0;  // (no fence.proxy.async after it)
    }
    __syncthreads();
    if (!r.canceled) break;
    tile = r.x;
  }
}
