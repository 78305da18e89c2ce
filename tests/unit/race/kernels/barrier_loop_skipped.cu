// expect: race  launch: --blockDim=64 --gridDim=2
// The read after the loop is separated from the neighbour's write before it only by the loop's barrier: with n <= 0
// the loop runs zero times and they race. barrier_loop_skipped_assume.cu is the same kernel under n > 0.
__global__ void k(int* out, int n) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  int acc = 0;
  for (int i = 0; i < n; ++i) {
    __syncthreads();
    acc += s[threadIdx.x] * i;
  }
  out[blockIdx.x * 64 + threadIdx.x] = acc + s[(threadIdx.x + 1) % 64];
}
