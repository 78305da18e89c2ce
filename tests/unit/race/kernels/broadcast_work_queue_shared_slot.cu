// expect: race  launch: --blockDim=256 --gridDim=8
// As broadcast_work_queue.cu, but every thread of the CTA writes the item's one slot: a race inside the CTA.
__global__ void k(unsigned* queue, unsigned n, int* out) {
  __shared__ unsigned item;
  while (true) {
    if (threadIdx.x == 0) item = atomicAdd(queue, 1u);
    __syncthreads();
    unsigned i = item;
    if (i >= n) break;
    out[i] = threadIdx.x;
    __syncthreads();
  }
}
