// expect: race-free  launch: --blockDim=32 --gridDim=1
// Writes before the barrier of each iteration, a read after the loop: every write is in an iteration that ends at
// a barrier the reader passed too (ISA 9.7.13.1), and a thread that has left the loop does so after the barrier of
// its last iteration, as every thread of the CTA does (the same trip count). (Found by the differential test of the
// two engines, test_differential.cpp.)
__global__ void rotate(int* out, int n) {
  __shared__ int tile[128];
  for (int i = 0; i < n; ++i) {
    tile[(threadIdx.x + 32 * i) % 128] = i;
    __syncthreads();
  }
  out[threadIdx.x] = tile[(threadIdx.x + 1) % 32];
}
