// expect: race-free  launch: --blockDim=32 --gridDim=1
// The exchange through volatile shared memory: ld/st.volatile are strong (relaxed, .sys scope, ISA 8.4), so the
// conflicting accesses are morally strong (8.7) and not a data race (8.7.1), though the values are unordered.
__global__ void k(int* out) {
  __shared__ volatile int s[32];
  s[threadIdx.x] = threadIdx.x;
  out[threadIdx.x] = s[threadIdx.x ^ 1];
}
