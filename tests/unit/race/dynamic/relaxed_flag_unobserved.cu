// expect: race 10 13
// As relaxed_flag_observed, but thread 1 waits on a flag that thread 0 sets after the exchange with a relaxed
// write: a read that observes the flag orders the flag's write before thread 1's later operations (ISA 8.9.5
// item 2), not the exchange of x before it (observation order relates a write to reads of it, 8.9.2, and
// causality order item 2 is not transitive through program order on the writing side). The exchange and the plain
// write of x are in a data race (8.7.1).
__global__ void k(int* x, int* flag) {
  if (threadIdx.x == 0) { *x = 0; *flag = 0; }
  __syncthreads();
  if (threadIdx.x == 0) { atomicExch(x, 1); atomicExch(flag, 1); }
  if (threadIdx.x == 1) {
    while (*(volatile int*)flag != 1) {}
    *x = 2;
  }
}
