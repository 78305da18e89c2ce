// expect: race  launch: --blockDim=32 --gridDim=1
// barrier_loop_last_iteration.cu reading the words the last iteration writes (96-127): no barrier orders those
// writes before the other threads' reads after the loop (ISA 8.7.1).
__global__ void rotate(int* out) {
  __shared__ int tile[128];
#pragma unroll 1
  for (int i = 0; i < 4; ++i) {
    __syncthreads();
    tile[(threadIdx.x + 32 * i) % 128] = i;
  }
  out[threadIdx.x] = tile[96 + (threadIdx.x + 1) % 32];
}
