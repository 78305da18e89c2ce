// expect: race-free  launch: --blockDim=256 --gridDim=8
// Persistent CTAs: each round thread 0 takes the CTA's next work item from a global queue and broadcasts it
// through shared memory. The item is one value per CTA and round, so the exit test is uniform (no barrier
// divergence), and the queue hands distinct items to every CTA and round (atomicAdd of 1 never repeats a value).
__global__ void k(unsigned* queue, unsigned n, int* out) {
  __shared__ unsigned item;
  while (true) {
    if (threadIdx.x == 0) item = atomicAdd(queue, 1u);
    __syncthreads();
    unsigned i = item;
    if (i >= n) break;
    out[(unsigned long long)i * 256 + threadIdx.x] = threadIdx.x;
    __syncthreads();
  }
}
