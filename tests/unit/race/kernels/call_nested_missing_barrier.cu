// expect: race  launch: --blockDim=64 --gridDim=2
// The same exchange without the barrier: the neighbour's store in store() races with the load in exchange().
__device__ __noinline__ void store(int* s, unsigned i, int v) {
  s[i] = v;
}
__device__ __noinline__ int exchange(int* s, unsigned t) {
  store(s, t, (int)t * 2);
  return s[(t + 1) % 64];
}
__global__ void k(int* out) {
  __shared__ int s[64];
  out[blockIdx.x * blockDim.x + threadIdx.x] = exchange(s, threadIdx.x);
}
