// expect: race  launch: --blockDim=256 --gridDim=8
// As broadcast_done_flag.cu without the barrier after the flag's store: thread 0 writes the flag while other
// threads read it for the loop's test.
__global__ void k(const int* limit, int* out) {
  __shared__ int done;
  if (threadIdx.x == 0) done = 0;
  __syncthreads();
  int round = 0;
  while (!done) {
    out[blockIdx.x * 256 + threadIdx.x] += round;
    __syncthreads();
    if (threadIdx.x == 0) done = ++round > limit[blockIdx.x];
  }
}
