// expect: race-free  launch: --blockDim=64 --gridDim=1
// Only thread 0 writes, and nobody else touches the word.
__global__ void k(int* a) { if (threadIdx.x == 0) a[0] = 42; }
