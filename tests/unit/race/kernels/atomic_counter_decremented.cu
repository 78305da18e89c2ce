// expect: race  launch: --blockDim=128 --gridDim=1
// The counter also goes down (atomicSub is atom.add of -1): two threads can claim the same slot.
__global__ void k(unsigned* count, int* slots) {
  unsigned s = atomicAdd(count, 1u);
  slots[s] = threadIdx.x;
  atomicSub(count, 1u);
}
