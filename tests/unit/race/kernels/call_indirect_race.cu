// expect: race  launch: --blockDim=64 --gridDim=2
// An indirect call one of whose candidate targets (first) writes one element from every thread.
typedef void (*op_t)(int*, unsigned);
__device__ __noinline__ void own(int* a, unsigned i) { a[i] = 1; }
__device__ __noinline__ void first(int* a, unsigned i) { a[0] = (int)i; }
__global__ void k(int* a, int which) {
  op_t f = which ? own : first;
  f(a, blockIdx.x * blockDim.x + threadIdx.x);
}
