// expect: race  launch: --blockDim=128 --gridDim=8
// The warp-level work queue with lane 0 reserving 16 items while the warp writes 32: lanes 16-31 of one warp write
// the items the next reservation hands to another warp.
__device__ unsigned next_item = 0;
__global__ void k(const float* in, float* out, unsigned n) {
  const unsigned lane = threadIdx.x % 32;
  while (true) {
    unsigned base;
    if (lane == 0) base = atomicAdd(&next_item, 16u);
    base = __shfl_sync(0xffffffffu, base, 0);
    if (base >= n) break;
    const unsigned i = base + lane;
    if (i < n) out[i] = in[i] * 2.0f;
  }
}
