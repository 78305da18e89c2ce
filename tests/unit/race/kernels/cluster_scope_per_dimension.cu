// expect: race-free  launch: --blockDim=32 --gridDim=2,2   (ISA 2.2.1: the cluster of CTA (x,y) with .reqnctapercluster 1,2,1 is (x, y/2): CTAs (x,0) and (x,1) share one, and only they touch counter[x])
__global__ void __cluster_dims__(1, 2, 1) count(int* counter) {
  asm volatile("red.relaxed.cluster.global.add.u32 [%0], 1;" ::"l"(counter + blockIdx.x) : "memory");
}
