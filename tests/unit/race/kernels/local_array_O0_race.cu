// expect: race  launch: --blockDim=64 --gridDim=2  options: --O0
// As local_array_O0.cu, but the index read back is the constant one: every thread writes a[0].
__global__ void k(int* a) {
  unsigned idx[2];
  idx[0] = blockIdx.x * blockDim.x + threadIdx.x;
  idx[1] = 0;
  for (int j = 0; j < 4; ++j) a[idx[1]] += j;
}
