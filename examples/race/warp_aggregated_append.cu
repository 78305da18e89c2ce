// Warp-aggregated append: lane 0 of each warp reserves 32 slots of the output with one atomicAdd and hands the
// start to its lanes with __shfl_sync; each lane fills its own slot (race free: the warps' ranges are disjoint).
// ptxcheck race examples/race/warp_aggregated_append.cu --blockDim=256 --gridDim=16
__global__ void append_squares(const float* in, float* out, unsigned* out_count) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x % 32;
  unsigned base = 0;
  if (lane == 0) base = atomicAdd(out_count, 32u);
  base = __shfl_sync(0xffffffffu, base, 0);
  out[base + lane] = in[i] * in[i];
}
