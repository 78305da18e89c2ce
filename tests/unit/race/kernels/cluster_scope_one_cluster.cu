// expect: race-free  launch: --blockDim=32 --gridDim=4   (ISA 8.5, 8.7: .cluster reductions by threads of one cluster, .reqnctapercluster 4, are morally strong)
__global__ void __cluster_dims__(4, 1, 1) count(int* counter) {
  asm volatile("red.relaxed.cluster.global.add.u32 [%0], 1;" ::"l"(counter) : "memory");
}
