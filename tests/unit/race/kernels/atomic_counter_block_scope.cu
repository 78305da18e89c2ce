// expect: race  launch: --blockDim=64 --gridDim=2
// Block-scoped adds from different CTAs are not morally strong (ISA 8.6): Atomicity does not order them, and two
// threads of different CTAs can read the same count.
__global__ void k(unsigned* count, int* slots) {
  unsigned s = atomicAdd_block(count, 1u);
  slots[s] = threadIdx.x;
}
