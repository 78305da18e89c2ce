// expect: race  launch: --blockDim=64 --gridDim=2
// Every thread writes a[0] before its fence: causality order from one thread's write to another's would have to
// leave the first thread at or after the write and enter the second at or before its write (ISA 8.9.5), and
// nothing before the writes synchronizes, so the fence after them cannot order them (8.7.1: a race).
__global__ void k(int* a, int* flag) {
  a[0] = threadIdx.x;
  __threadfence();
  atomicExch(flag, 1);
}
