// expect: race-free  launch: --blockDim=64 --gridDim=1
// Faial's drf-loop2: j counts down from n to 0 and reads y[0..n]; the writes go to y[n+1+i]. The loop's exit
// test (j >= 0 after every decrement) keeps j from wrapping around, so the reads never reach the writes.
__global__ void k(unsigned n, float* x, float* y) {
  float f = 0.0f;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = n; j >= 0; j--) f += y[j];
  y[i + n + 1] = x[i] + f;
}
