// expect: race  launch: --blockDim=256 --gridDim=2
// As bmsk_index_mask.cu with bmsk.wrap.b32 d, 1, 7: the mask 0xfe (7 bits from bit 1), so threads 2k and 2k+1
// write one slot: a race.
__global__ void k(int* out) {
  __shared__ int s[256];
  unsigned mask;
  asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(mask) : "r"(1u), "r"(7u));
  s[threadIdx.x & mask] = threadIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x + 1) & mask];
}
