// expect: race  launch: --blockDim=256 --gridDim=4
// As atomic_counter_shared_reset.cu without the barrier: thread 0's weak reset races with the other threads' adds
// (ISA 8.7.1), and it may land after one of them, so that a second add returns 0 again and two threads of a CTA
// write out[blockIdx.x].
__global__ void k(const int* in, int* out) {
  __shared__ unsigned first;
  if (threadIdx.x == 0) first = 0;
  if (in[blockIdx.x * blockDim.x + threadIdx.x] > 0 && atomicAdd(&first, 1u) == 0u) out[blockIdx.x] = threadIdx.x;
}
