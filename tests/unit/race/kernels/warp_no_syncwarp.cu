// expect: race  launch: --blockDim=32 --gridDim=1
// Warp-synchronous exchange without __syncwarp: under independent thread scheduling (ISA 3.2) nothing orders the
// weak accesses. (With `volatile` they would be relaxed.sys, morally strong, and not a data race.)
__global__ void k(int* out) {
  __shared__ int s[32];
  s[threadIdx.x] = threadIdx.x;
  out[threadIdx.x] = s[threadIdx.x ^ 1];
}
