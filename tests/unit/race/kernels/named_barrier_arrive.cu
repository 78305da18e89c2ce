// expect: race-free  launch: --blockDim=64 --gridDim=1
// Producer warp 0 writes s[] and arrives at named barrier 1; consumer warp 1 waits there (bar.sync 1, 64): the
// arrive synchronizes with the sync (ISA 8.9.4 item 2), so the read follows the write. Every thread passes one
// operation on the barrier, with the CTA's count (named_barriers.hpp).
__global__ void k(int* out) {
  __shared__ int s[32];
  if (threadIdx.x < 32) {
    s[threadIdx.x] = threadIdx.x;
    asm volatile("bar.arrive 1, 64;" ::: "memory");
  } else {
    asm volatile("bar.sync 1, 64;" ::: "memory");
    out[threadIdx.x - 32] = s[threadIdx.x - 32];
  }
}
