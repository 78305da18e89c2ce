// expect: race  launch: --blockDim=64 --gridDim=8
// As lock_critical_section.cu without the fence before atomicExch: the relaxed exchange alone is no release
// pattern (ISA 8.8), so the next holder's acquire synchronizes with nothing and the accesses to *total race.
__device__ int lock = 0;
__global__ void k(int* total, const int* in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  while (atomicCAS(&lock, 0, 1) != 0) {}
  __threadfence();
  *total = *total + in[i];
  atomicExch(&lock, 0);
}
