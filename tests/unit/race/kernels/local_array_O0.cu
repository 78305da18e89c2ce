// expect: race-free  launch: --blockDim=64 --gridDim=2  options: --O0
// At -O0 a local array lives in .local memory (the stack frame): the index stored in it must be read back, not
// havocked, for each thread to be seen writing its own element.
__global__ void k(int* a) {
  unsigned idx[2];
  idx[0] = blockIdx.x * blockDim.x + threadIdx.x;
  idx[1] = 0;
  for (int j = 0; j < 4; ++j) a[idx[0]] += j;
}
