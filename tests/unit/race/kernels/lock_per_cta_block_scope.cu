// expect: race-free  launch: --blockDim=64 --gridDim=4
// One lock per CTA in global memory, taken with atomicCAS_block (atom.cta) and given back with atomicExch_block:
// only the threads of CTA b take locks[b] (a solver check), so .cta scope includes every thread that may take it,
// and its critical sections are ordered (ISA 8.8, 8.9.4 item 4) as a shared-memory lock's are.
__global__ void k(int* totals, int* locks, const int* in) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  while (atomicCAS_block(&locks[blockIdx.x], 0, 1) != 0) {}
  __threadfence_block();
  totals[blockIdx.x] = totals[blockIdx.x] + in[i];
  __threadfence_block();
  atomicExch_block(&locks[blockIdx.x], 0);
}
