// expect: race  launch: --blockDim=128 --gridDim=8
// As shuffle_broadcast_counter, but the lanes take lane 1's value, which never reserved anything (0): every warp
// writes out[0..31].
__global__ void k(const int* in, int* out, unsigned* count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  unsigned base = 0;
  if (lane == 0) base = atomicAdd(count, 32u);
  base = __shfl_sync(0xffffffffu, base, 1);
  out[base + lane] = in[i];
}
