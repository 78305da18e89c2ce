// expect: race-free
// ISA 8.9.5 causality order item 2: thread 0's atomic write of x precedes, in observation order (8.9.2), thread 1's
// volatile read that returns it (both strong, scopes .gpu and .sys include each other), and that read precedes
// thread 1's plain write of x in program order, so the write is ordered after the exchange with no fence or
// acquire: no data race (8.7.1). The run ends only when the read has returned 1.
__global__ void k(int* x) {
  if (threadIdx.x == 0) *x = 0;
  __syncthreads();
  if (threadIdx.x == 0) atomicExch(x, 1);
  if (threadIdx.x == 1) {
    while (*(volatile int*)x != 1) {}
    *x = 2;
  }
}
