// expect: race-free  launch: --blockDim=16,16 --gridDim=4,4  options: --assume='arg4 >= 64 && arg4 <= 100000'
// A 64-bit integer argument (`long long n`) is passed like a pointer (.u64); until it is used as one the checker
// treats it as a possible allocation. Here it only scales indices (mul.lo.s64), and a product or shift of a pointer
// is no pointer into it: the stores stay in C and the loads in A and B (before, the product made every address of
// an unknown allocation, and the loads of B raced with the stores to C).
__global__ void matmul(const float* A, const float* B, float* C, long long n) {
  long long row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    float acc = 0;
    for (long long k = 0; k < n; ++k) acc += A[row * n + k] * B[k * n + col];
    C[row * n + col] = acc;
  }
}
