// expect: race  launch: --blockDim=64 --gridDim=4  options: --assume='retired == 0'
// Every thread takes a ticket (64 per CTA), but the last one is taken to be gridDim.x - 1: that is no last block,
// and the CTAs' writes of partial race with the reads.
__device__ unsigned retired = 0;
__global__ void k(const float* in, float* partial, float* out) {
  partial[blockIdx.x * blockDim.x + threadIdx.x] = in[blockIdx.x];
  __threadfence();
  unsigned ticket = atomicInc(&retired, gridDim.x * blockDim.x);
  if (ticket == gridDim.x - 1) {
    __threadfence();
    float sum = 0;
    for (unsigned b = 0; b < gridDim.x * blockDim.x; ++b) sum += partial[b];
    out[0] = sum;
  }
}
