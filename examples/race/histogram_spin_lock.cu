// Every thread adds to a histogram bucket under one global spin lock: atomicCAS + __threadfence() is an acquire
// pattern, __threadfence() + atomicExch a release pattern (PTX ISA 8.8), so the critical sections are ordered (8.9.4).
// ptxcheck race examples/race/histogram_spin_lock.cu --blockDim=128 --gridDim=4
__device__ int lock = 0;
__global__ void histogram(unsigned* bins, const unsigned char* in) {
  unsigned v = in[blockIdx.x * blockDim.x + threadIdx.x];
  while (atomicCAS(&lock, 0, 1) != 0) {}
  __threadfence();
  bins[v] = bins[v] + 1;
  __threadfence();
  atomicExch(&lock, 0);
}
