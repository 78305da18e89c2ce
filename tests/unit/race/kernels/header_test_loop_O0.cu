// expect: race-free  launch: --blockDim=64 --gridDim=2  options: --O0
// -O0 keeps the loop test at the header (`setp.lt y, n; @!p bra EXIT; ... bra HEADER`): the facts of every earlier
// iteration's path to the back edge (y < n and not y >= 1) bound y to 0 without wrap-around, so each thread reads
// and writes only its own element.
__global__ void k(int* a, int n) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int y = 0; y < n; y++) {
    if (y >= 1) break;
    a[t] = a[t + y] + 1;
  }
}
