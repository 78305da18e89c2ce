// expect: race  launch: --blockDim=32 --gridDim=2   (no .reqnctapercluster: the default launch has clusters of one CTA, so .cluster is the CTA's scope and the two CTAs' reductions race, ISA 8.5, 8.7)
__global__ void count(int* counter) {
  asm volatile("red.relaxed.cluster.global.add.u32 [%0], 1;" ::"l"(counter) : "memory");
}
