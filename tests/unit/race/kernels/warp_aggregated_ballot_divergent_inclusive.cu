// expect: race  launch: --blockDim=256 --gridDim=4
// As warp_aggregated_ballot_divergent.cu with a wrong rank: mask & (1 << lane) is the lane's own bit only, so every
// lane of a warp writes out[base + 1].
__global__ void k(const int* in, int* out, unsigned* count, int n) {
  unsigned lane = threadIdx.x % 32;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool keep = i < n && in[i] > 0;
  unsigned mask = __ballot_sync(0xffffffffu, keep);
  if (!keep) return;
  unsigned leader = __ffs(mask) - 1;
  unsigned base;
  if (lane == leader) base = atomicAdd(count, __popc(mask));
  base = __shfl_sync(mask, base, leader);
  out[base + __popc(mask & (1u << lane))] = in[i];
}
