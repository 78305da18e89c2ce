// expect: race  launch: --gridDim=1
// launch_bounds_wraparound.cu without __launch_bounds__: a block of more than 256 threads is a valid launch, and
// threads 0 and 256 write one slot.
__global__ void k(int* out) {
  if (threadIdx.y == 0 && threadIdx.z == 0) out[threadIdx.x % 256] = threadIdx.x;
}
