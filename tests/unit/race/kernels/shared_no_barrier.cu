// expect: race  launch: --blockDim=128 --gridDim=2
// The same exchange without the barrier: thread t+1 may write while thread t reads.
__global__ void k(int* out) {
  __shared__ int s[128];
  s[threadIdx.x] = threadIdx.x * 3;
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
}
