// expect: race-free  launch: --blockDim=64 --gridDim=1
// Thread 0 would write b[0] only if its two loads of b[0] returned 0 and non-zero: one thread's two loads of one
// location with nothing between them that writes or synchronizes read the same value (else a race with a write
// in between, ISA 8.7.1), so no thread writes b[0] while the others read it.
__global__ void k(const int* g, int* out) {
  __shared__ int b[64];
  b[threadIdx.x] = g[threadIdx.x];
  __syncthreads();
  if (b[threadIdx.x] == 0 && b[0] != 0) b[threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] = b[threadIdx.x];
}
