// expect: race  launch: --blockDim=32 --gridDim=1
// barrier_loop_first_iteration.cu with the first iteration writing words 0-31: before any barrier of the loop, it
// overwrites the words other threads read before it (ISA 8.7.1).
__global__ void rotate(int* out, int n) {
  __shared__ int tile[128];
  const int before = tile[threadIdx.x % 4];
  for (int i = 0; i < n; ++i) {
    tile[(threadIdx.x + 32 * i) % 128] = i;
    __syncthreads();
  }
  out[threadIdx.x] = before;
}
