// expect: race-free  launch: --blockDim=32 --gridDim=1
// A read before a barrier loop is concurrent only with the loop's first iteration (every iteration ends at a
// barrier, ISA 9.7.13.1): iteration 0 writes words 64-95, and the iteration that comes back to words 0-31 runs
// after two barriers. (Found by the differential test of the two engines, test_differential.cpp.)
__global__ void rotate(int* out, int n) {
  __shared__ int tile[128];
  const int before = tile[threadIdx.x % 4];
  for (int i = 0; i < n; ++i) {
    tile[(threadIdx.x + 32 * i + 64) % 128] = i;
    __syncthreads();
  }
  out[threadIdx.x] = before;
}
