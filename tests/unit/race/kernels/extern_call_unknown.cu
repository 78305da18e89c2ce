// expect: unknown  launch: --blockDim=64 --gridDim=2
// A call of a function declared without a body: what it does is unknown, so is the verdict (by default).
__device__ int lookup(int);
__global__ void k(int* a) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = lookup((int)i);
}
