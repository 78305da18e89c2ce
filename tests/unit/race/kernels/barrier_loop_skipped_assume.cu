// expect: race-free  launch: --blockDim=64 --gridDim=2  options: --assume='arg2 > 0 && arg2 < 1000'
// barrier_loop_skipped.cu under n > 0: a thread after the loop in the first barrier interval would not have entered
// it (check.cpp reached_from_loop), which n > 0 rules out, so the loop's barrier orders the write before the read.
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
