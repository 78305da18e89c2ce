// expect: race  launch: --blockDim=64 --gridDim=2  options: --assume-pure-externs
// A pure bodiless function's results are unknown values, different calls may return the same one: two threads
// may write one element.
__device__ int lookup(int);
__global__ void k(int* a) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  a[lookup((int)i)] = 1;
}
