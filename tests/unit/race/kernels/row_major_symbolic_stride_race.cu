// expect: race  launch: --blockDim=16,16 --gridDim=4,4  options: --assume='arg4 >= 16 && arg4 <= 4096'
// row_major_symbolic_stride.cu without the column bound and with n down to 16: col reaches 63, so thread (row, n)
// writes the element of thread (row + 1, 0), C[(row + 1) * n]. The factored difference must leave that collision.
__global__ void matmul(const float* A, const float* B, float* C, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n) {
    float acc = 0;
    for (int k = 0; k < n; ++k) acc += A[row * n + k] * B[k * n + col % n];
    C[row * n + col] = acc;
  }
}
