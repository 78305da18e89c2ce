// expect: race-free  launch: --blockDim=128 --gridDim=8
// A warp-level persistent work queue: lane 0 takes 32 items with atomicAdd and broadcasts the base to its warp
// (`__shfl_sync(~0u, base, 0)`: every lane reads lane 0's value, ISA 9.7.9.6), so the warp leaves the loop together
// and its lanes' shuffles pair up by iteration; two warps' (or iterations') bases are distinct adds' returns, whose
// ranges [base, base + 32) are disjoint (ISA 8.10 Atomicity).
__device__ unsigned next_item = 0;
__global__ void k(const float* in, float* out, unsigned n) {
  const unsigned lane = threadIdx.x % 32;
  while (true) {
    unsigned base;
    if (lane == 0) base = atomicAdd(&next_item, 32u);
    base = __shfl_sync(0xffffffffu, base, 0);
    if (base >= n) break;
    const unsigned i = base + lane;
    if (i < n) out[i] = in[i] * 2.0f;
  }
}
