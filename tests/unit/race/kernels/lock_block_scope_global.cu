// expect: race  launch: --blockDim=32 --gridDim=2
// A lock in global memory taken with atomicCAS_block (atom.cta): two CTAs' RMWs are not morally strong (ISA 8.6),
// so both CTAs may hold the lock at once and their critical sections are unordered.
__device__ int lock = 0;
__global__ void k(int* total, const int* in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  while (atomicCAS_block(&lock, 0, 1) != 0) {}
  __threadfence();
  *total = *total + in[i];
  __threadfence();
  atomicExch_block(&lock, 0);
}
