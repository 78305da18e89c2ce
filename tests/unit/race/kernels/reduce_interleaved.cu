// expect: race-free  launch: --blockDim=256 --gridDim=4
// Reduction #2 of Harris, "Optimizing parallel reduction in CUDA": interleaved addressing with a strided index
// (index = 2 * s * tid). s doubles (`s *= 2`, a shift in closed form, encode.cpp recurrence); the loop test s < blockDim.x
// holds in every earlier iteration, so s stays below the block size (it was havocked: a false race).
__global__ void k(const int* g_idata, int* g_odata) {
  extern __shared__ int sdata[];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = g_idata[i];
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    int index = 2 * s * tid;
    if (index < blockDim.x) sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
