// expect: race  launch: --blockDim=256 --gridDim=8
// As broadcast_work_queue.cu without the barrier at the end of a round: thread 0 may store the next item while
// other threads still read the current one.
__global__ void k(unsigned* queue, unsigned n, int* out) {
  __shared__ unsigned item;
  while (true) {
    if (threadIdx.x == 0) item = atomicAdd(queue, 1u);
    __syncthreads();
    unsigned i = item;
    if (i >= n) break;
    out[(unsigned long long)i * 256 + threadIdx.x] = threadIdx.x;
  }
}
