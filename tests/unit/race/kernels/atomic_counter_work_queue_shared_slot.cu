// expect: race  launch: --blockDim=128 --gridDim=4
// As atomic_counter_work_queue.cu, but items 2j and 2j+1 write the same slot out[j]: two threads' distinct items
// still meet there.
__device__ unsigned next = 0;
__global__ void k(const float* in, float* out, unsigned n) {
  unsigned i;
  while ((i = atomicAdd(&next, 1u)) < n) out[i / 2] = in[i] * 2.0f;
}
