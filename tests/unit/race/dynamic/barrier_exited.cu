// expect: barrier-divergence 6   (threads 16..63 exit without the CTA-wide aligned barrier; ISA 9.7.13.1 .aligned)
// Only the first 16 threads of the CTA reach the barrier; the others exit.
__global__ void k(int* out) {
  __shared__ int s[64];
  s[threadIdx.x] = 1;
  if (threadIdx.x < 16) __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
