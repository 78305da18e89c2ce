// expect: unknown  launch: --blockDim=32 --gridDim=4
// A grid barrier written by hand on a counter in the kernel's own memory: the symbolic engine does not order
// accesses through it (only the driver's cooperative-groups workspace is taken as a grid barrier), so the pair
// a[i + 1] / a[i] across CTAs stays a possible race. (A second use of `count` would also need it reset.)
__global__ void k(int* a, unsigned* count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int right = a[i + 1];
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    atomicAdd(count, 1);
    while (atomicAdd(count, 0) < gridDim.x) {}
    __threadfence();
  }
  __syncthreads();
  a[i] = right;
}
