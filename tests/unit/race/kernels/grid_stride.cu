// expect: race-free  launch: --blockDim=128 --gridDim=4
// Grid-stride loop: thread i touches i, i + stride, i + 2*stride ...: disjoint across threads.
__global__ void k(float* a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) a[i] = 2.0f * a[i];
}
