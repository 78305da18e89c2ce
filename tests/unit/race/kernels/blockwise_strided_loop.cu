// expect: race-free  launch: --blockDim=256 --gridDim=2
// GPUVerify's reduced_strength_blockwise: each CTA writes its own partition of WIDTH elements with a
// blockDim stride; the loop test i < WIDTH keeps a CTA inside its partition.
#define WIDTH 2064
__global__ void k(int* A) {
  for (int i = threadIdx.x; i < WIDTH; i += blockDim.x) A[blockIdx.x * WIDTH + i] = i;
}
