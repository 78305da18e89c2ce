// expect: race-free  launch: --blockDim=64 --gridDim=2
// A thread whose input is negative traps before the barrier: `trap` aborts the whole launch (ISA 9.7.19.4), so
// the other threads never wait for it and the barrier does not diverge.
__global__ void k(const int* in, int* out) {
  __shared__ int s[64];
  int v = in[blockIdx.x * 64 + threadIdx.x];
  if (v < 0) __trap();
  s[threadIdx.x] = v;
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = s[63 - threadIdx.x];
}
