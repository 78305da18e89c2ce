// expect: race  launch: --blockDim=256 --gridDim=4
// As warp_aggregated_ballot_divergent.cu, but the base is taken from lane 0, which need not be in the mask (its
// predicate false, it has returned): the shuffle's value is then undefined (ISA 9.7.9.6), and lanes of two warps
// may write one element.
__global__ void k(const int* in, int* out, unsigned* count, int n) {
  unsigned lane = threadIdx.x % 32;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool keep = i < n && in[i] > 0;
  unsigned mask = __ballot_sync(0xffffffffu, keep);
  if (!keep) return;
  unsigned leader = __ffs(mask) - 1;
  unsigned base;
  if (lane == leader) base = atomicAdd(count, __popc(mask));
  base = __shfl_sync(mask, base, 0);
  out[base + __popc(mask & ((1u << lane) - 1))] = in[i];
}
