// expect: race-free  launch: --blockDim=64 --gridDim=4
// Each thread of the grid owns one element: no two threads touch the same address.
__global__ void k(int* a, const int* b) { int i = blockIdx.x * blockDim.x + threadIdx.x; a[i] = b[i] * 2; }
