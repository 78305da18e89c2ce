// expect: race  launch: --blockDim=32 --gridDim=4   (ISA 8.5: clusters of 2 CTAs tile the grid; CTAs 0 and 2 are in different clusters, so neither .cluster reduction includes the other thread, 8.7)
__global__ void __cluster_dims__(2, 1, 1) count(int* counter) {
  asm volatile("red.relaxed.cluster.global.add.u32 [%0], 1;" ::"l"(counter) : "memory");
}
