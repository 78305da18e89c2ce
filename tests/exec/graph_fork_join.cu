// expect-exit: 0
// expect-stdout: during capture: s1 capturing 1, s0 depends on 2 nodes after the joins
// expect-stdout: graph: 6 nodes, 2 roots, 5 edges, the add node depends on 2
// expect-stdout: first launch: 1024 of 1024 match
// expect-stdout: second launch, new input: 1024 of 1024 match
// A capture forked into two streams and joined back through events (CUDA Programming Guide, "CUDA Graphs",
// cross-stream dependencies, as in the simpleCudaGraphs sample): each stream's work depends on the point of the
// capture it waited for, the origin waits for both before the final kernel. The graph's shape is counted by hand
// from the calls below; results are checked against the host's own computation, on two launches (the copies read
// the host input when the graph runs).
#include <cstdio>

__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}
__global__ void add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int matches(const float* hx, const float* hy, const float* hz, int n) {
  int ok = 0;
  for (int i = 0; i < n; ++i) ok += hz[i] == 3.0f * hx[i] + 2.0f * hy[i];
  return ok;
}

int main() {
  const int n = 1024;
  static float hx[n], hy[n], hz[n];
  for (int i = 0; i < n; ++i) hx[i] = 0.5f * i, hy[i] = 1000.0f - i;
  float *dx, *dy, *dz;
  cudaMalloc(&dx, sizeof hx);
  cudaMalloc(&dy, sizeof hy);
  cudaMalloc(&dz, sizeof hz);
  cudaStream_t s0, s1, s2;
  cudaStreamCreate(&s0);
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  cudaEvent_t fork, joined1, joined2;
  cudaEventCreate(&fork);
  cudaEventCreate(&joined1);
  cudaEventCreate(&joined2);

  cudaGraph_t graph;
  cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal);
  cudaEventRecord(fork, s0);  // the capture's start: no node
  cudaStreamWaitEvent(s1, fork, 0);
  cudaStreamWaitEvent(s2, fork, 0);
  cudaMemcpyAsync(dy, hy, sizeof hy, cudaMemcpyHostToDevice, s1);  // a root
  scale<<<n / 256, 256, 0, s1>>>(dy, 2.0f, n);                       // after the copy of y
  cudaMemcpyAsync(dx, hx, sizeof hx, cudaMemcpyHostToDevice, s2);  // a root
  scale<<<n / 256, 256, 0, s2>>>(dx, 3.0f, n);                       // after the copy of x
  cudaEventRecord(joined1, s1);
  cudaEventRecord(joined2, s2);
  cudaStreamWaitEvent(s0, joined1, 0);
  cudaStreamWaitEvent(s0, joined2, 0);
  cudaStreamCaptureStatus status;
  cudaStreamIsCapturing(s1, &status);
  size_t deps = 0;
  cudaStreamGetCaptureInfo(s0, &status, nullptr, nullptr, nullptr, nullptr, &deps);
  add<<<n / 256, 256, 0, s0>>>(dx, dy, dz, n);                      // after both scales
  cudaMemcpyAsync(hz, dz, sizeof hz, cudaMemcpyDeviceToHost, s0);   // after the add
  if (cudaStreamEndCapture(s0, &graph) != cudaSuccess) return 1;
  printf("during capture: s1 capturing %d, s0 depends on %zu nodes after the joins\n", status == cudaStreamCaptureStatusActive, deps);

  size_t nodes = 0, roots = 0, edges = 0;
  cudaGraphGetNodes(graph, nullptr, &nodes);
  cudaGraphGetRootNodes(graph, nullptr, &roots);
  cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &edges);
  cudaGraphNode_t all[6];
  size_t six = 6, add_deps = 0;
  cudaGraphGetNodes(graph, all, &six);
  cudaGraphNodeGetDependencies(all[4], nullptr, nullptr, &add_deps);  // the fifth node captured: the add
  printf("graph: %zu nodes, %zu roots, %zu edges, the add node depends on %zu\n", nodes, roots, edges, add_deps);

  cudaGraphExec_t exec;
  if (cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess) return 1;
  cudaGraphLaunch(exec, s0);
  cudaStreamSynchronize(s0);
  printf("first launch: %d of %d match\n", matches(hx, hy, hz, n), n);
  for (int i = 0; i < n; ++i) hx[i] = 7.0f - i;
  cudaGraphLaunch(exec, s0);
  cudaStreamSynchronize(s0);
  printf("second launch, new input: %d of %d match\n", matches(hx, hy, hz, n), n);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  return 0;
}
