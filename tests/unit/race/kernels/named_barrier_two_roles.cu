// expect: race-free  launch: --blockDim=64 --gridDim=2
// The producer/consumer example of ISA 9.7.13.1: warp 0 writes the buffer and arrives at barrier 0, then waits at
// barrier 1 before overwriting it; warp 1 waits at barrier 0, reads, and arrives at barrier 1. Each barrier is passed
// once by every thread with the CTA's count: the arrive synchronizes with the sync (8.9.4 item 2), so the read
// follows the first write and precedes the second.
__global__ void k(const int* in, int* out) {
  __shared__ int buf[32];
  const int lane = threadIdx.x % 32;
  if (threadIdx.x < 32) {
    buf[lane] = in[blockIdx.x * 64 + lane];
    asm volatile("bar.arrive 0, 64;" ::: "memory");
    const int next = in[blockIdx.x * 64 + 32 + lane];
    asm volatile("bar.sync 1, 64;" ::: "memory");
    buf[lane] = next;
  } else {
    asm volatile("bar.sync 0, 64;" ::: "memory");
    out[blockIdx.x * 32 + lane] = buf[31 - lane];
    asm volatile("bar.arrive 1, 64;" ::: "memory");
  }
}
