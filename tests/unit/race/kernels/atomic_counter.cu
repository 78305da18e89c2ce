// expect: race-free  launch: --blockDim=64 --gridDim=8
// atomicAdd is atom.global.add (relaxed, gpu scope): morally strong between any two threads of the grid.
__global__ void k(int* c) { atomicAdd(c, 1); }
