// expect: race-free  launch: --blockDim=128 --gridDim=8
// Every thread reads the same word and writes its own: reads never conflict.
__global__ void k(const int* a, int* b) { b[blockIdx.x * blockDim.x + threadIdx.x] = a[0] + a[1]; }
