// expect: race  launch: --blockDim=256 --gridDim=2
// As blockwise_strided_loop.cu, but the loop runs to WIDTH + 256: the last iteration of CTA 0 writes into the
// partition of CTA 1.
#define WIDTH 2064
__global__ void k(int* A) {
  for (int i = threadIdx.x; i < WIDTH + 256; i += blockDim.x) A[blockIdx.x * WIDTH + i] = i;
}
