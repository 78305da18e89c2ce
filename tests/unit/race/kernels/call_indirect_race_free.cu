// expect: race-free  launch: --blockDim=64 --gridDim=2
// An indirect call: the targets are the functions whose address the module takes (twice, set_one, with the
// call's prototype); both write only the calling thread's element.
typedef void (*op_t)(int*, unsigned);
__device__ __noinline__ void twice(int* a, unsigned i) { a[i] = 2 * a[i]; }
__device__ __noinline__ void set_one(int* a, unsigned i) { a[i] = 1; }
__global__ void k(int* a, int which) {
  op_t f = which ? twice : set_one;
  f(a, blockIdx.x * blockDim.x + threadIdx.x);
}
