// expect: race  launch: --blockDim=128 --gridDim=8
// As shuffle_broadcast_counter, but lane 0 reserves 16 slots for 32 lanes: the next warp's range overlaps.
__global__ void k(const int* in, int* out, unsigned* count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  unsigned base = 0;
  if (lane == 0) base = atomicAdd(count, 16u);
  base = __shfl_sync(0xffffffffu, base, 0);
  out[base + lane] = in[i];
}
