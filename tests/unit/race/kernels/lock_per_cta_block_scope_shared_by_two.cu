// expect: race  launch: --blockDim=64 --gridDim=4
// As lock_per_cta_block_scope, but CTAs 2b and 2b+1 share locks[b] and totals[b]: their .cta-scoped RMWs are not
// morally strong (ISA 8.6), so both may hold the lock at once and the updates of totals[b] race.
__global__ void k(int* totals, int* locks, const int* in) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  while (atomicCAS_block(&locks[blockIdx.x / 2], 0, 1) != 0) {}
  __threadfence_block();
  totals[blockIdx.x / 2] = totals[blockIdx.x / 2] + in[i];
  __threadfence_block();
  atomicExch_block(&locks[blockIdx.x / 2], 0);
}
