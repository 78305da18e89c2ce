// expect: race-free  launch: --blockDim=256 --gridDim=2   (bar.sync 1, 256: every thread of the CTA takes part, ISA 9.7.13.1)
__global__ void rotate_named(int* out) {
  __shared__ int buf[256];
  int t = threadIdx.x;
  buf[t] = t * 7;
  asm volatile("bar.sync 1, 256;" ::: "memory");
  out[blockIdx.x * 256 + t] = buf[(t + 1) % 256];
}
