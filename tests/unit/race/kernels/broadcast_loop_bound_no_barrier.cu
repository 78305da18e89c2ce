// expect: race  launch: --blockDim=256 --gridDim=8
// As broadcast_loop_bound.cu, but the count is read before the barrier that publishes it: threads other than 0
// read `n` while thread 0 writes it.
__global__ void k(const int* n_in, int* out) {
  __shared__ int n;
  __shared__ int buf[256];
  if (threadIdx.x == 0) n = *n_in;
  int count = n;
  __syncthreads();
  for (int it = 0; it < count; ++it) {
    buf[threadIdx.x] = it;
    __syncthreads();
    out[blockIdx.x * 256 + threadIdx.x] += buf[255 - threadIdx.x];
    __syncthreads();
  }
}
