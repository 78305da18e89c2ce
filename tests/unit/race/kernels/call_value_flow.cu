// expect: race-free  launch: --blockDim=64 --gridDim=2
// Arguments and results pass through .param variables (PTX ABI 2.3): the index is computed by one called function
// and used by another, so each thread writes its own element only if the values flow through both calls.
__device__ __noinline__ unsigned global_index(unsigned b, unsigned n, unsigned t) {
  return b * n + t;
}
__device__ __noinline__ void put(int* a, unsigned i, int v) {
  a[i] = v;
}
__global__ void k(int* a) {
  put(a, global_index(blockIdx.x, blockDim.x, threadIdx.x), 7);
}
