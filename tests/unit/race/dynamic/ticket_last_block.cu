// expect: race-free   (the last-block ticket: each CTA's partial sum is released before its atomicInc, and the CTA whose
// atomicInc returns gridDim.x - 1 acquires after it; the second implementation of ../kernels/atomic_ticket_*.cu)
__device__ unsigned retired;
__global__ void k(const float* in, float* partial, float* out) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = in[blockIdx.x];
    __threadfence();
    unsigned ticket = atomicInc(&retired, gridDim.x);
    __threadfence();
    last = ticket == gridDim.x - 1;
  }
  __syncthreads();
  if (last) {
    out[threadIdx.x] = partial[threadIdx.x % gridDim.x];
    if (threadIdx.x == 0) retired = 0;
  }
}
