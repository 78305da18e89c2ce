// expect: race-free  launch: --blockDim=256 --gridDim=8
// The iteration count is read by thread 0 and broadcast through shared memory: every thread of the CTA runs the
// loop equally often, so its barriers are reached by all (no divergence), and they order the buffer's accesses.
__global__ void k(const int* n_in, int* out) {
  __shared__ int n;
  __shared__ int buf[256];
  if (threadIdx.x == 0) n = *n_in;
  __syncthreads();
  for (int it = 0; it < n; ++it) {
    buf[threadIdx.x] = it;
    __syncthreads();
    out[blockIdx.x * 256 + threadIdx.x] += buf[255 - threadIdx.x];
    __syncthreads();
  }
}
