// expect: race  launch: --blockDim=128 --gridDim=8
// The warp-level work queue broadcasting from lane 1, which never set `base`: every lane gets an undefined value
// (the engine takes it as any value), so two warps may write one item.
__device__ unsigned next_item = 0;
__global__ void k(const float* in, float* out, unsigned n) {
  const unsigned lane = threadIdx.x % 32;
  while (true) {
    unsigned base;
    if (lane == 0) base = atomicAdd(&next_item, 32u);
    base = __shfl_sync(0xffffffffu, base, 1);
    if (base >= n) break;
    const unsigned i = base + lane;
    if (i < n) out[i] = in[i] * 2.0f;
  }
}
