// expect: race  launch: --blockDim=64 --gridDim=2
// As shift_recurrence_powers.cu, but the odd thread writes column 4, which the even one writes in iteration 2.
__global__ void k(int* rows, unsigned n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int* row = rows + (t / 2) * 64;
  if (t % 2 == 1) {
    row[4] = 1;
    return;
  }
  for (unsigned bit = 1; bit < 64 && bit < n; bit <<= 1) row[bit] = n;
}
