// expect: race  launch: --blockDim=64 --gridDim=1
// The step depends on data the loop reads: i is not an induction variable, and a thread stepping by 1 reaches
// the next thread's element.
__global__ void k(int* a, int n) {
  for (int i = threadIdx.x; i < n; i += (a[i] & 1) ? 64 : 1) a[i] = 0;
}
