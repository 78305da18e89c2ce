// expect: race-free  launch: --blockDim=64 --gridDim=2  options: --assume-pure-externs
// Under --assume-pure-externs the bodiless function returns a fresh value and writes nothing.
__device__ int lookup(int);
__global__ void k(int* a) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = lookup((int)i);
}
