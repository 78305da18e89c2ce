// expect: race-free  launch: --blockDim=64 --gridDim=2
// Calls nested two deep, with a shared-memory exchange separated by a barrier inside the callee.
__device__ __noinline__ void store(int* s, unsigned i, int v) {
  s[i] = v;
}
__device__ __noinline__ int exchange(int* s, unsigned t) {
  store(s, t, (int)t * 2);
  __syncthreads();
  return s[(t + 1) % 64];
}
__global__ void k(int* out) {
  __shared__ int s[64];
  out[blockIdx.x * blockDim.x + threadIdx.x] = exchange(s, threadIdx.x);
}
