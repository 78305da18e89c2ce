// expect: race  launch: --blockDim=64 --gridDim=2
// The plain read of *m races with other threads' atomicMax (ISA 8.7.1: not morally strong). A thread's own earlier
// atomicMax, in an earlier iteration, may observe another's write and so order that write before the read (8.9.5
// item 2), but in the first iteration nothing precedes the read: there the pair is unordered in every execution.
__global__ void k(int* m, const int* v, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    if (*m < v[i]) atomicMax(m, v[i]);
}
