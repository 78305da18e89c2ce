// expect: race-free  launch: --blockDim=128 --gridDim=4
// Each thread claims a slot with atomicAdd(count, 1) and writes it: the returns of two threads differ (ISA 8.10
// Atomicity; the counter is only ever incremented), so the writes never meet.
__global__ void k(unsigned* count, int* slots) {
  unsigned s = atomicAdd(count, 1u);
  slots[s] = threadIdx.x;
}
