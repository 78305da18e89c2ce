// expect: race-free  launch: --blockDim=32 --gridDim=4
// A test-and-set lock: atomicExch(&lock, 1) returning 0 takes it (ISA 9.7.13.5 atom.exch), a fence then an
// exchange back to 0 releases it.
__device__ unsigned lock = 0;
__global__ void k(unsigned* hist, const unsigned* in) {
  unsigned v = in[blockIdx.x * blockDim.x + threadIdx.x] % 16;
  while (atomicExch(&lock, 1u) != 0u) {}
  __threadfence();
  hist[v] = hist[v] + 1;
  __threadfence();
  atomicExch(&lock, 0u);
}
