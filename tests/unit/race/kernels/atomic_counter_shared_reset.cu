// expect: race-free  launch: --blockDim=256 --gridDim=4
// A leader per CTA: thread 0 resets a shared counter, a barrier, then the thread whose atomicAdd returns 0 writes.
// The reset shares no barrier interval with the adds, so the CTA's barrier orders it before all of them (ISA 8.9.4
// item 2) and between two adds only adds reach the counter: two threads' adds return different values.
__global__ void k(const int* in, int* out) {
  __shared__ unsigned first;
  if (threadIdx.x == 0) first = 0;
  __syncthreads();
  if (in[blockIdx.x * blockDim.x + threadIdx.x] > 0 && atomicAdd(&first, 1u) == 0u) out[blockIdx.x] = threadIdx.x;
}
