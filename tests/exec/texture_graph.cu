// expect-exit: 0
// expect-stdout: captured: 3 nodes, the array untouched during capture: 1
// expect-stdout: launch 1: 64 of 64
// expect-stdout: launch 2, new host data: 64 of 64
// Copies to and from a CUDA array captured into a graph (cudaMemcpyToArrayAsync, a kernel reading the array through
// a texture object, cudaMemcpyFromArrayAsync): recorded, not run, during the capture, and each launch reads the
// host data as it is then (CUDA Programming Guide, "CUDA Graphs"). Checked against the host's own computation.
#include <cstdio>

#include "check_call.cuh"

__global__ void fetch(cudaTextureObject_t t, float* out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = tex1D<float>(t, i + 0.5f) * 2.0f;
}

int main() {
  const int n = 64;
  static float host[n], back[n];
  for (int i = 0; i < n; ++i) host[i] = 1.5f * i;
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t arr, out_arr;
  CHECK(cudaMallocArray(&arr, &fd, n));
  CHECK(cudaMallocArray(&out_arr, &fd, n));
  CHECK(cudaMemcpyToArray(arr, 0, 0, host, sizeof host, cudaMemcpyHostToDevice));  // launch 0's contents
  cudaResourceDesc rd{};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = arr;
  cudaTextureDesc td{};
  td.addressMode[0] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex;
  CHECK(cudaCreateTextureObject(&tex, &rd, &td, nullptr));
  float* dev;
  CHECK(cudaMalloc(&dev, sizeof back));

  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  for (int i = 0; i < n; ++i) host[i] = -1.0f;  // what the array would hold if the capture ran the copy
  cudaGraph_t graph;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaMemcpyToArrayAsync(arr, 0, 0, host, sizeof host, cudaMemcpyHostToDevice, s));
  fetch<<<1, n, 0, s>>>(tex, dev, n);
  CHECK(cudaMemcpyAsync(back, dev, sizeof back, cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamEndCapture(s, &graph));
  static float peek[n];
  CHECK(cudaMemcpyFromArray(peek, arr, 0, 0, sizeof peek, cudaMemcpyDeviceToHost));
  size_t nodes = 0;
  CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
  printf("captured: %zu nodes, the array untouched during capture: %d\n", nodes, peek[10] == 15.0f);

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int round = 1; round <= 2; ++round) {
    for (int i = 0; i < n; ++i) host[i] = round * 10.0f + i;
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    int ok = 0;
    for (int i = 0; i < n; ++i) ok += back[i] == 2.0f * host[i];
    printf(round == 1 ? "launch 1: %d of %d\n" : "launch 2, new host data: %d of %d\n", ok, n);
  }
  return 0;
}
