// expect: race 6 11   (no fence between a CTA's partial sum and its atomicInc: a relaxed atomic alone is no release pattern)
__device__ unsigned retired;
__global__ void k(const float* in, float* partial, float* out) {
  if (threadIdx.x == 0) {
    // (With a fence after the atomicInc in every CTA, Fence-SC order would order this execution: 8.9.4 item 1.)
    partial[blockIdx.x] = in[blockIdx.x];
    unsigned ticket = atomicInc(&retired, gridDim.x);
    if (ticket == gridDim.x - 1) {
      __threadfence();
      float sum = 0;
      for (unsigned b = 0; b < gridDim.x; ++b) sum += partial[b];
      out[0] = sum;
    }
  }
}
