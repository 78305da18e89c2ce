// expect: race  launch: --blockDim=32 --gridDim=1
// barrier_loop_then_read.cu with the write after the barrier: the last iteration's writes are not ordered before
// the other threads' reads after the loop (ISA 8.7.1).
__global__ void rotate(int* out, int n) {
  __shared__ int tile[128];
  for (int i = 0; i < n; ++i) {
    __syncthreads();
    tile[(threadIdx.x + 32 * i) % 128] = i;
  }
  out[threadIdx.x] = tile[(threadIdx.x + 1) % 32];
}
