// expect: race-free  launch: --blockDim=32 --gridDim=1
// shuffle_after_loop_race.cu with a barrier after the loop: every write of the loop is ordered before the read.
__global__ void k(int* out, unsigned n) {
  __shared__ int s[32 * 64];
  unsigned t = threadIdx.x;
  #pragma unroll 1
  for (unsigned i = 0; i < (n & 31) + 4; ++i) s[t * 64 + i] = i;
  __syncthreads();
  int v = __shfl_sync(~0u, (int)t, (t + 1) & 31);
  out[t] = s[v * 64];
}
