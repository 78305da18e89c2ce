// exec-flags: --memcheck
// expect-exit: 0
// expect-stdout: graph memory memcheck done
// expect-stderr: memcheck: read of uninitialized memory: 4 bytes at graph allocation #1+0
// expect-stderr: graph_memory_memcheck.cu:15
// expect-stderr: memcheck: access to freed memory: 4 bytes at graph allocation #1+0
// expect-stderr: graph_memory_memcheck.cu:18
// --memcheck on graph memory (CUDA Programming Guide, "Graph Memory Nodes"): "Graph allocations are considered
// recreated every time a graph runs", so a kernel node reading one before anything wrote it reads uninitialized
// bytes; work must be "ordered before the operation freeing the memory", so a kernel using the address after the
// graph's free node ran accesses freed memory.
#include "check_call.cuh"

__global__ void read_first(const int* a, int* out) {
  *out = a[0];
}
__global__ void write_first(int* a) {
  a[0] = 1;
}

int main() {
  int* result;
  CHECK(cudaMalloc(&result, sizeof(int)));
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaMemAllocNodeParams ap = {};
  ap.poolProps.allocType = cudaMemAllocationTypePinned;
  ap.poolProps.location.type = cudaMemLocationTypeDevice;
  ap.bytesize = 64;
  cudaGraphNode_t alloc, read, freed;
  CHECK(cudaGraphAddMemAllocNode(&alloc, g, nullptr, 0, &ap));
  const int* a = static_cast<const int*>(ap.dptr);
  void* args[] = {&a, &result};
  cudaKernelNodeParams kp = {};
  kp.func = (void*)read_first;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(1);
  kp.kernelParams = args;
  CHECK(cudaGraphAddKernelNode(&read, g, &alloc, 1, &kp));
  CHECK(cudaGraphAddMemFreeNode(&freed, g, &read, 1, ap.dptr));
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0));
  CHECK(cudaGraphLaunch(x, 0));
  write_first<<<1, 1>>>(static_cast<int*>(ap.dptr));  // after the free node: freed memory
  CHECK(cudaDeviceSynchronize());
  printf("graph memory memcheck done\n");
  return 0;
}
