// expect: race-free  launch: --blockDim=64 --gridDim=2
// Threads 2r and 2r+1 share row r of 64 ints: the even one writes the columns 1, 2, 4, ..., 32 (`bit <<= 1` from 1:
// at the header of iteration k, bit = 1 << k), the odd one column 3, which no power of two is (encode.cpp
// recurrence: a shift by a constant has the closed form init << k*c).
__global__ void k(int* rows, unsigned n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int* row = rows + (t / 2) * 64;
  if (t % 2 == 1) {
    row[3] = 1;
    return;
  }
  for (unsigned bit = 1; bit < 64 && bit < n; bit <<= 1) row[bit] = n;
}
