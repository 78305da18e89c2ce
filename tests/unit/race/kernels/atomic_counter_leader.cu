// expect: race-free  launch: --blockDim=64 --gridDim=4
// One leader per launch: only the thread whose atomicAdd returns 0 writes. Every write to the counter is an add of
// 1, so two threads' adds return different values (ISA 8.10 Atomicity; the report states that the counter is
// assumed not to wrap around), and no two threads both take the branch.
__device__ unsigned arrived = 0;
__global__ void k(int* out, const int* in) {
  if (atomicAdd(&arrived, 1u) == 0u) out[0] = in[0];
}
