// expect: race  launch: --blockDim=64 --gridDim=2
// Every thread writes a[0]: a write-write race between any two threads (PTX 8.7.1 has no benign equal-value writes).
__global__ void k(int* a) { a[0] = 1; }
