// expect: race  launch: --blockDim=128 --gridDim=4  options: --assume='arg3 <= 4096 && arg4 <= 4096'
// warp_per_row_unrolled.cu with a row stride of n - 1 for rows of n elements: each row's last element is the next
// row's first.
__global__ void scale_rows(const float* x, float* y, int rows, int n) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (warp >= rows) return;
  for (int i = lane; i < n; i += 32) y[warp * (n - 1) + i] = 2.0f * x[warp * n + i];
}
