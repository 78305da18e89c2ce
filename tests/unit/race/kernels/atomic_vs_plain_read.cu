// expect: race  launch: --blockDim=64 --gridDim=2
// A plain (weak) read of a word other threads update atomically: not morally strong, a race.
__global__ void k(int* c, int* out) {
  atomicAdd(c, 1);
  out[blockIdx.x * blockDim.x + threadIdx.x] = c[0];
}
