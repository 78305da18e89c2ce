// expect: unknown  launch: --blockDim=2 --gridDim=1
// Thread 1 waits for thread 0's atomic write of x with volatile (relaxed .sys) reads, then writes x plainly. The
// read that returns 1 observes the exchange (ISA 8.9.2) and precedes the write in program order, so the exchange
// precedes the write in causality order (8.9.5 item 2) with no fence or acquire: race free. The symbolic engine
// does not know which write a load returns: a strong read before an access makes the pair a possible race, which
// the replay does not show (tests/unit/race/dynamic/relaxed_flag_observed.cu: race free on the interpreter).
__global__ void k(int* x) {
  if (threadIdx.x == 0) *x = 0;
  __syncthreads();
  if (threadIdx.x == 0) atomicExch(x, 1);
  if (threadIdx.x == 1) {
    while (*(volatile int*)x != 1) {}
    *x = 2;
  }
}
