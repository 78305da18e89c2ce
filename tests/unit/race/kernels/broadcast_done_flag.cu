// expect: race-free  launch: --blockDim=256 --gridDim=8
// The CTA loops until thread 0 sets a shared flag. The flag has two stores, but barriers keep both out of the
// intervals where it is read, so every thread of the CTA reads one value in each round: the loop's exit is
// uniform and its barriers are reached by all.
__global__ void k(const int* limit, int* out) {
  __shared__ int done;
  if (threadIdx.x == 0) done = 0;
  __syncthreads();
  int round = 0;
  while (!done) {
    out[blockIdx.x * 256 + threadIdx.x] += round;
    __syncthreads();
    if (threadIdx.x == 0) done = ++round > limit[blockIdx.x];
    __syncthreads();
  }
}
