// expect: race-free  launch: --blockDim=128 --gridDim=8
// Warp-aggregated atomics in a loop every thread runs alike (`rounds` is a kernel argument): in each round lane 0
// reserves 32 slots and broadcasts the start; two rounds' adds are distinct operations of one counter, so their
// ranges are disjoint too.
__global__ void k(int* out, unsigned* count, int rounds) {
  int lane = threadIdx.x % 32;
  for (int r = 0; r < rounds; ++r) {
    unsigned base = 0;
    if (lane == 0) base = atomicAdd(count, 32u);
    base = __shfl_sync(0xffffffffu, base, 0);
    out[base + lane] = r;
  }
}
