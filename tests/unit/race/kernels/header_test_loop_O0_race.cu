// expect: race  launch: --blockDim=64 --gridDim=2  options: --O0
// As header_test_loop_O0.cu with the break one iteration later: y reaches 1, and thread t reads a[t + 1] while
// thread t + 1 writes it.
__global__ void k(int* a, int n) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int y = 0; y < n; y++) {
    if (y >= 2) break;
    a[t] = a[t + y] + 1;
  }
}
