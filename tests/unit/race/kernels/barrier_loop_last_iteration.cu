// expect: race-free  launch: --blockDim=32 --gridDim=1
// Writes after the barrier of each iteration, a read after the loop: only the last iteration's writes (words
// 96-127) are not ordered before it; words 0-31 were written in the first iteration, three barriers earlier
// (ISA 9.7.13.1). A thread after the loop is in the interval of the other threads' last iteration, as they all run
// the loop the same number of times. (Found by the differential test of the two engines, test_differential.cpp.)
__global__ void rotate(int* out) {
  __shared__ int tile[128];
#pragma unroll 1
  for (int i = 0; i < 4; ++i) {
    __syncthreads();
    tile[(threadIdx.x + 32 * i) % 128] = i;
  }
  out[threadIdx.x] = tile[threadIdx.x % 32];
}
