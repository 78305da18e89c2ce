// expect: race  launch: --blockDim=16,16 --gridDim=4,4  options: --assume='arg4 >= 64 && arg4 <= 100000'
// integer_parameter_64bit.cu storing to C[row * n + col / 2]: columns 2c and 2c + 1 write one element.
__global__ void matmul(const float* A, const float* B, float* C, long long n) {
  long long row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    float acc = 0;
    for (long long k = 0; k < n; ++k) acc += A[row * n + k] * B[k * n + col];
    C[row * n + col / 2] = acc;
  }
}
