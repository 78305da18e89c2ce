// expect: race  launch: --blockDim=16,16 --gridDim=4,4
// row_major_symbolic_stride.cu without a precondition: for a huge n, 32-bit row * n + col wraps around (int
// overflow in C++; in PTX mul.lo.s32 and add.s32 keep the low 32 bits, ISA 9.7.1) and two threads' elements meet
// (the solver finds n near 2^31). A race under the PTX semantics; the factored difference must not hide it.
__global__ void matmul(const float* A, const float* B, float* C, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    float acc = 0;
    for (int k = 0; k < n; ++k) acc += A[row * n + k] * B[k * n + col];
    C[row * n + col] = acc;
  }
}
