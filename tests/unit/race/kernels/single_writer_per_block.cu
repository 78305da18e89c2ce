// expect: race  launch: --blockDim=64 --gridDim=4
// Thread 0 of every CTA writes the same word: the CTAs race with each other.
__global__ void k(int* a) { if (threadIdx.x == 0) a[0] = blockIdx.x; }
