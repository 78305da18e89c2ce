// expect: race-free  launch: --blockDim=256 --gridDim=8
// Thread 0 of each CTA reserves blockDim.x slots with atomicAdd and broadcasts the start through shared memory;
// the CTA writes its own slots. Every thread of a CTA reads the one value its thread 0 stored (broadcast.hpp), and
// two CTAs' adds of a non-negative amount take disjoint ranges (ISA 8.10 Atomicity; the counter does not wrap).
__global__ void k(unsigned* counter, int* out) {
  __shared__ unsigned base;
  if (threadIdx.x == 0) base = atomicAdd(counter, blockDim.x);
  __syncthreads();
  out[base + threadIdx.x] = threadIdx.x;
}
