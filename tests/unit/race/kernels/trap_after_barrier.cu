// expect: barrier-divergence  launch: --blockDim=64 --gridDim=1
// Only even threads reach the barrier; an odd thread does not trap (only a negative input after the barrier
// does), so a CTA's even threads wait for odd threads that never arrive (ISA 9.7.13.1).
__global__ void k(const int* in, int* out) {
  if (threadIdx.x % 2 == 0) __syncthreads();
  if (in[threadIdx.x] < 0) __trap();
  out[threadIdx.x] = 1;
}
