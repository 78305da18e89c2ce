// expect: race-free  launch: --blockDim=64 --gridDim=4
// A lock in shared memory, one per CTA, initialised by thread 0 before a barrier (which orders that write with
// every lock operation, ISA 8.9.4 item 2), taken with .cta atomics and .cta fences: enough, since only the threads
// of the CTA reach it. The CTA's sum is written out after a second barrier.
__global__ void k(int* out, const int* in) {
  __shared__ int lock, sum;
  if (threadIdx.x == 0) { lock = 0; sum = 0; }
  __syncthreads();
  while (atomicCAS_block(&lock, 0, 1) != 0) {}
  __threadfence_block();
  sum = sum + in[blockIdx.x * blockDim.x + threadIdx.x];
  __threadfence_block();
  atomicExch_block(&lock, 0);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}
