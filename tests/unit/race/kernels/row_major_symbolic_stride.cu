// expect: race-free  launch: --blockDim=16,16 --gridDim=4,4  options: --assume='arg4 >= 64 && arg4 <= 4096'
// The textbook matrix product with a symbolic n: thread (row, col) writes C[row * n + col]. With 64 <= n (the grid
// covers 64 rows and columns, so col < n) the elements are distinct; seeing it takes the factored address difference
// n * (row1 - row2) + (col1 - col2) (difference.hpp): the plain form's two 32-bit products were beyond the solver's
// budget (unknown).
__global__ void matmul(const float* A, const float* B, float* C, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    float acc = 0;
    for (int k = 0; k < n; ++k) acc += A[row * n + k] * B[k * n + col];
    C[row * n + col] = acc;
  }
}
