// expect: race-free  launch: --blockDim=64 --gridDim=1
// A struct argument's fields come in by one vector load (`ld.param.v2.u32 {%r1, %r2}`): every thread gets the
// same field values (the kernel's arguments), so `threadIdx.x + s.x` is distinct per thread.
struct S { int x; int y; int* unused; };
__global__ void k(float* out, S s) { out[threadIdx.x + s.x] = 2 * out[threadIdx.x + s.x]; }
