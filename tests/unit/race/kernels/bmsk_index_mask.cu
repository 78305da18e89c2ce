// expect: race-free  launch: --blockDim=256 --gridDim=2
// ISA 9.7.1.22 bmsk: bmsk.clamp.b32 d, 0, 8 is the mask 0xff (8 bits from bit 0), so tid & mask is tid for 256 threads:
// every thread writes its own slot, and the reads after the barrier are ordered. (bmsk was havocked before: unknown.)
__global__ void k(int* out) {
  __shared__ int s[256];
  unsigned mask;
  asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(mask) : "r"(0u), "r"(8u));
  s[threadIdx.x & mask] = threadIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x + 1) & mask];
}
