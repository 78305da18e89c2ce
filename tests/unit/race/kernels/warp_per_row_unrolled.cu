// expect: race-free  launch: --blockDim=128 --gridDim=4  options: --assume='arg3 <= 4096 && arg4 <= 4096'
// One warp per row of a row-major matrix with a symbolic row length n (layer norm's shape): nvcc peels a remainder
// loop and unrolls the rest by 4, whose stores at +32..+96 elements stay in the row only because the remainder left
// a multiple of 4 iterations. The stores of the two loops are different instructions whose addresses have different
// numbers of terms; their difference must still be factored, n * (row1 - row2) + ..., to be decided.
__global__ void scale_rows(const float* x, float* y, int rows, int n) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (warp >= rows) return;
  for (int i = lane; i < n; i += 32) y[warp * n + i] = 2.0f * x[warp * n + i];
}
