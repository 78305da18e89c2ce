// expect: race-free  launch: --blockDim=64 --gridDim=2
// __ffs(1u << lane) - 1 is the lane again (nvcc: brev then bfind.shiftamt, ISA 9.7.1.16-18), so each thread
// writes its own element: race free only if the checker follows bfind's value.
__global__ void k(int* out) {
  unsigned lane = threadIdx.x % 32;
  int slot = blockIdx.x * blockDim.x + (threadIdx.x / 32) * 32 + (__ffs(1u << lane) - 1);
  out[slot] = slot;
}
