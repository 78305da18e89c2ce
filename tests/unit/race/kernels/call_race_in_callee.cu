// expect: race  launch: --blockDim=64 --gridDim=2
// A race inside a function that is not inlined by nvcc (a PTX `call`): every thread stores to a[0] in put().
__device__ __noinline__ void put(int* a, int i, int v) {
  a[i] = v;
}
__global__ void k(int* a) {
  put(a, 0, threadIdx.x);
}
