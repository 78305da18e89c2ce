// expect-exit: 0
// measured on an H200 (tests/hardware/h200/exec.txt):
// expect-stdout: own values: B 0, A 0, A 0, B 0
// expect-stdout: assign default: 4
// The default value of a conditional handle, with and without cudaGraphCondAssignDefault. The API reference calls
// cudaGraphConditionalHandleCreate's defaultLaunchValue the "initial value for the conditional variable",
// "applied at the beginning of each graph execution if cudaGraphCondAssignDefault is set in flags";
// cudaGraphExecUpdate: "Conditional handle flags and default values are updated as part of the graph update".
// Each graph here is one IF node whose handle has default 1 and whose body adds 1 to a counter and sets the
// handle to 0 (cudaGraphSetConditional). Exec A is instantiated from graph G1, exec B from G2, then A is updated
// from G2, so A and B run G2's handle; they are launched B, A, A, B.
// - Without cudaGraphCondAssignDefault the default is never applied: an H200 runs no body at all (0, 0, 0, 0),
//   so the value starts at 0, not at the "initial value" (reading it as the value before the first launch would
//   give 1, 2, 2, 2 with a value per executable).
// - With cudaGraphCondAssignDefault: every launch starts at 1 and runs the body once: two launches of each of two
//   executables, one of them updated from the other's graph, count 4.
#include "check_call.cuh"

#include <cstdio>

__global__ void add_and_clear(int* counter, cudaGraphConditionalHandle h) {
  *counter += 1;
  cudaGraphSetConditional(h, 0);
}

int* counter;

cudaGraph_t build(unsigned flags) {
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaGraphConditionalHandle h;
  cudaGraphConditionalHandleCreate(&h, g, 1, flags);
  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeConditional;
  p.conditional.handle = h;
  p.conditional.type = cudaGraphCondTypeIf;
  p.conditional.size = 1;
  cudaGraphNode_t node, kernel;
  cudaGraphAddNode(&node, g, nullptr, nullptr, 0, &p);
  void* args[] = {&counter, &h};
  cudaKernelNodeParams kp = {};
  kp.func = (void*)add_and_clear;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(1);
  kp.kernelParams = args;
  cudaGraphAddKernelNode(&kernel, p.conditional.phGraph_out[0], nullptr, 0, &kp);
  return g;
}
int launch(cudaGraphExec_t exec) {
  int v = -1;
  if (cudaGraphLaunch(exec, 0) != cudaSuccess || cudaMemcpy(&v, counter, sizeof v, cudaMemcpyDeviceToHost) != cudaSuccess) return -1;
  return v;
}
// Executables A (of G1, updated from G2) and B (of G2), launched B, A, A, B: the counter after each.
int run(unsigned flags, int after[4]) {
  CHECK(cudaMemset(counter, 0, sizeof(int)));
  cudaGraph_t g1 = build(flags), g2 = build(flags);
  cudaGraphExec_t a, b;
  CHECK(cudaGraphInstantiate(&a, g1, 0));
  CHECK(cudaGraphInstantiate(&b, g2, 0));
  cudaGraphExecUpdateResultInfo info;
  CHECK(cudaGraphExecUpdate(a, g2, &info));
  after[0] = launch(b);
  after[1] = launch(a);
  after[2] = launch(a);
  after[3] = launch(b);
  return 0;
}

int main() {
  CHECK(cudaMalloc(&counter, sizeof(int)));
  int after[4];
  if (run(0, after)) return 1;
  std::printf("own values: B %d, A %d, A %d, B %d\n", after[0], after[1], after[2], after[3]);
  if (run(cudaGraphCondAssignDefault, after)) return 1;
  std::printf("assign default: %d\n", after[3]);
  return 0;
}
