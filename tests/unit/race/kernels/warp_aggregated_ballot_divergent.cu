// expect: race-free  launch: --blockDim=256 --gridDim=4
// Warp-aggregated append (the "optimized filtering" idiom): a full-warp ballot of the predicate, then only the lanes
// whose predicate holds go on; the leader (lowest of them) reserves room for all with one atomicAdd and broadcasts
// the base over the ballot's mask. The shuffle is in code the other lanes skip: its source, the leader, is in the
// mask, so it took part in the ballot with a true predicate and reaches the shuffle too (ISA 9.7.13.9, 9.7.9.6), and
// every lane gets the leader's base; the atomic gives each warp a disjoint range (8.10 Atomicity).
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
  out[base + __popc(mask & ((1u << lane) - 1))] = in[i];
}
