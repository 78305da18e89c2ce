// exec-flags: --memcheck
// expect-exit: 0
// expect-stdout: pool memcheck program done
// expect-stderr: memcheck: read of uninitialized memory
// expect-stderr: mempool_memcheck.cu:13
// expect-stderr: memcheck: access to freed memory
// expect-stderr: mempool_memcheck.cu:16
// --memcheck sees memory from pools as it sees cudaMalloc's: a kernel reading bytes of a cudaMallocFromPoolAsync
// allocation that nothing wrote (line 13), and one writing a cudaMallocAsync allocation after cudaFreeAsync (line 16).
#include <cstdio>

__global__ void copy(const int* in, int* out) {
  out[threadIdx.x] = in[threadIdx.x];
}
__global__ void store(int* p) {
  p[threadIdx.x] = 1;
}

int main() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  cudaMemPool_t pool;
  cudaMemPoolCreate(&pool, &props);
  int *in, *out, *gone;
  cudaMallocFromPoolAsync((void**)&in, 32 * sizeof(int), pool, s);
  cudaMallocAsync((void**)&out, 32 * sizeof(int), s);
  copy<<<1, 32, 0, s>>>(in, out);
  cudaMallocAsync((void**)&gone, 32 * sizeof(int), s);
  cudaFreeAsync(gone, s);
  store<<<1, 32, 0, s>>>(gone);
  cudaStreamSynchronize(s);
  std::printf("pool memcheck program done\n");
  return 0;
}
