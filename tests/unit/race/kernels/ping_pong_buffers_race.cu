// expect: race  launch: --blockDim=256 --gridDim=2
// As ping_pong_buffers.cu with a broken swap (`cur = next; next = cur;`): from the second iteration on both pointers
// name one buffer, and each thread writes next[i] while its neighbours read cur[i - 1] and cur[i + 1] there.
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
    float* t = cur; cur = next; next = cur; (void)t;
  }
  out[blockIdx.x * 256 + threadIdx.x] = cur[i];
}
