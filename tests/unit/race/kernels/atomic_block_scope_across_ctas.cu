// expect: race  launch: --blockDim=64 --gridDim=2
// atomicAdd_block is atom.cta: its scope does not include a thread of another CTA, so two CTAs race (8.6, 8.7.1).
__global__ void k(int* c) { atomicAdd_block(c, 1); }
