// expect: race  launch: --blockDim=256 --gridDim=8
// The amount added is an argument, which may be negative as an int (a decrement): the counter may hand two
// CTAs overlapping ranges, so their writes to `out` race.
__global__ void k(int* counter, int* out, int amount) {
  __shared__ int base;
  if (threadIdx.x == 0) base = atomicAdd(counter, amount);
  __syncthreads();
  out[base + threadIdx.x] = threadIdx.x;
}
