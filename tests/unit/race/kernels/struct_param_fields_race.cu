// expect: race  launch: --blockDim=64 --gridDim=1
// The two fields of the vector load are two arguments: with s.y = s.x + 1 thread t reads the element thread t+1
// writes, a race (8.7.1).
struct S { int x; int y; int* unused; };
__global__ void k(float* out, S s) { out[threadIdx.x + s.x] = out[threadIdx.x + s.y]; }
