// expect: race-free  launch: --blockDim=64 --gridDim=8
// Every thread adds its element to one total inside a spin lock's critical section: atomicCAS then
// __threadfence() (an acquire pattern, ISA 8.8), __threadfence() then atomicExch (a release pattern). Each
// release synchronizes with the next holder's acquire (8.9.4 item 4), so the weak accesses to *total are ordered.
__device__ int lock = 0;
__global__ void k(int* total, const int* in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  while (atomicCAS(&lock, 0, 1) != 0) {}
  __threadfence();
  *total = *total + in[i];
  __threadfence();
  atomicExch(&lock, 0);
}
