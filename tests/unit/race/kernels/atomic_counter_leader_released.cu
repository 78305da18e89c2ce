// expect: race  launch: --blockDim=64 --gridDim=4
// The leader gives its ticket back (atomicSub): a later thread's atomicAdd can return 0 again, so two threads may
// both write out[0]. The counter is no longer written only by adds of non-negative amounts.
__device__ int arrived = 0;
__global__ void k(int* out, const int* in) {
  if (atomicAdd(&arrived, 1) == 0) {
    out[0] = in[blockIdx.x];
    atomicSub(&arrived, 1);
  }
}
