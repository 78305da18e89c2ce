// expect: race-free  launch: --blockDim=64 --gridDim=1
// atomicAdd_block within one CTA: the cta scope includes every thread involved.
__global__ void k(int* c) { atomicAdd_block(c, 1); }
