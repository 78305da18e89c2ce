// expect: race  launch: --blockDim=128 --gridDim=4
// Grid-stride loop that also writes the next element: neighbouring threads collide.
__global__ void k(float* a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i + 1 < n; i += blockDim.x * gridDim.x) a[i + 1] = a[i];
}
