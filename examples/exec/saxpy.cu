// A plain CUDA program: `ptxcheck exec examples/exec/saxpy.cu` runs it on the CPU, kernels on ptxcheck's
// interpreter, no GPU needed.
#include <cstdio>

__global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
  if (i == 0) printf("saxpy on %d blocks of %d threads\n", gridDim.x, blockDim.x);
}

int main() {
  const int n = 1 << 12;
  float *x, *y, hx[n], hy[n];
  for (int i = 0; i < n; ++i) { hx[i] = 1.0f; hy[i] = float(i); }
  cudaMalloc(&x, sizeof hx);
  cudaMalloc(&y, sizeof hy);
  cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice);
  saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
  cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost);
  int errors = 0;
  for (int i = 0; i < n; ++i) errors += hy[i] != 2.0f + float(i);
  printf("%s: %d errors\n", cudaGetErrorString(cudaGetLastError()), errors);
  return errors != 0;
}
