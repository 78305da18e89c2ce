// expect: race-free  launch: --blockDim=32 --gridDim=4
// The lock taken by an atom.acquire.gpu.cas and released by st.release.gpu, without fences: each is its own
// acquire or release pattern (ISA 8.8, form 1).
__device__ unsigned lock = 0;
__device__ unsigned take(unsigned* l) {
  unsigned old;
  asm volatile("atom.acquire.gpu.global.cas.b32 %0, [%1], 0, 1;" : "=r"(old) : "l"(l) : "memory");
  return old;
}
__device__ void give(unsigned* l) { asm volatile("st.release.gpu.global.u32 [%0], 0;" ::"l"(l) : "memory"); }
__global__ void k(unsigned* total, const unsigned* in) {
  while (take(&lock) != 0u) {}
  *total = *total + in[blockIdx.x * blockDim.x + threadIdx.x];
  give(&lock);
}
