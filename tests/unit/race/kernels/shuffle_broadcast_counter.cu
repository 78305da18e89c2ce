// expect: race-free  launch: --blockDim=128 --gridDim=8
// Warp-aggregated atomics: lane 0 of each warp reserves 32 slots with atomicAdd and broadcasts the start with
// __shfl_sync; each lane writes its own slot. Every lane receives lane 0's value (ISA 9.7.9.6), and two warps'
// adds of a non-negative amount take disjoint ranges (ISA 8.10 Atomicity; the counter does not wrap).
__global__ void k(const int* in, int* out, unsigned* count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  unsigned base = 0;
  if (lane == 0) base = atomicAdd(count, 32u);
  base = __shfl_sync(0xffffffffu, base, 0);
  out[base + lane] = in[i];
}
