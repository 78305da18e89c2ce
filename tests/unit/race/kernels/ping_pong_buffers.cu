// expect: race-free  launch: --blockDim=256 --gridDim=2
// In-place Jacobi smoothing with ping-pong buffers: each iteration reads cur, writes next, synchronises and swaps the
// two pointers (`float* t = cur; cur = next; next = t;`). The swapped registers are a rotation of two, in closed form
// of the iteration (encode.cpp rotation_recurrences), and the 32-bit shared addresses keep their buffer (check.cpp
// object_term: a zero extension of a 32-bit address); both were havocked, a false race.
__global__ void k(float* out, const float* in, int iters) {
  __shared__ float a[258], b[258];
  float* cur = a;
  float* next = b;
  int i = threadIdx.x + 1;
  cur[i] = in[blockIdx.x * 256 + threadIdx.x];
  if (threadIdx.x == 0) { a[0] = b[0] = 0; a[257] = b[257] = 0; }
  __syncthreads();
  for (int it = 0; it < iters; ++it) {
    next[i] = 0.5f * (cur[i - 1] + cur[i + 1]);
    __syncthreads();
    float* t = cur; cur = next; next = t;
  }
  out[blockIdx.x * 256 + threadIdx.x] = cur[i];
}
