// exec-flags: --memcheck
// expect-exit: 0
// expect-stdout: memcheck program done
// expect-stderr: memcheck: read of uninitialized memory: 4 bytes at cudaMalloc #1+16 by ld.global
// expect-stderr: memcheck.cu:18
// expect-stderr: memcheck: access to freed memory
// expect-stderr: memcheck: 3 launches, 1 uninitialized reads, 1 accesses to freed memory
// --memcheck: a kernel reading cudaMalloc'd bytes that only partly were written (the first 4 of 8 ints), and a
// kernel writing through a pointer the program has freed. The second launch reads only written bytes: clean.
#include <cstdio>

__global__ void copy(const int* in, int* out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = in[i];
}

__global__ void sum_all(const int* in, int* out) {
  if (threadIdx.x == 0) { int s = 0; for (int i = 0; i < 8; ++i) s += in[i]; *out = s; }
}

int main() {
  int *in, *out, *gone;
  cudaMalloc(&in, 8 * sizeof(int));
  cudaMalloc(&out, 8 * sizeof(int));
  int h[4] = {1, 2, 3, 4};
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);  // ints 4..7 never written
  copy<<<1, 4>>>(in, out, 4);                            // clean: reads ints 0..3
  sum_all<<<1, 32>>>(in, out);                           // reads ints 4..7: uninitialized
  cudaMalloc(&gone, 4 * sizeof(int));
  cudaFree(gone);
  copy<<<1, 4>>>(out, gone, 4);                          // writes freed memory
  cudaDeviceSynchronize();
  std::printf("memcheck program done\n");
  return 0;
}
