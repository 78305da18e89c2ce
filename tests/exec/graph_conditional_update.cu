// expect-exit: 0
// expect-stdout: instantiated: 10
// expect-stdout: update to default 0: cudaSuccess, body not run: 10
// expect-stdout: update to default 1, body adding 20: cudaSuccess, 30
// measured on an H200 (tests/hardware/h200/exec.txt):
// expect-stdout: IF to WHILE: cudaErrorGraphExecUpdateFailure result 6, error node 1
// expect-stdout: one body to two: cudaErrorGraphExecUpdateFailure result 6, error node 1
// expect-stdout: a body node more: cudaErrorGraphExecUpdateFailure result 2, error node 0
// expect-stdout: a body node of another type: cudaErrorGraphExecUpdateFailure result 3, error node 0
// expect-stdout: after the failed updates: 50
// cudaGraphExecUpdate of graphs with conditional nodes (CUDA Runtime API, cudaGraphExecUpdate, "Conditional
// nodes: Changing node parameters is not supported. Changing parameters of nodes within the conditional body graph
// is subject to the rules above. Conditional handle flags and default values are updated as part of the graph
// update."). Every graph here is one IF node whose handle has cudaGraphCondAssignDefault and a default value D,
// and whose body adds K to a counter starting at 0. Expected values by hand:
// - instantiated with D=1, K=10: one launch gives 10;
// - updated from a graph with D=0, K=20: the IF does not run, still 10 (with the old default it would run: 30);
// - updated from D=1, K=20: 30 (the old body would give 20);
// - a WHILE instead of the IF, or two bodies instead of one, changes the node's parameters, which "is not
//   supported": cudaGraphExecUpdateErrorNotSupported (6) at the new graph's conditional node (the H200's result);
//   a second node in the body is cudaGraphExecUpdateErrorTopologyChanged (2), a memset in place of the body's
//   kernel cudaGraphExecUpdateErrorNodeTypeChanged (3), both reported inside the body, not at the conditional
//   node. A failed update changes nothing: the next launch adds 20 again, 50.
#include "check_call.cuh"

__global__ void add(int* out, int k) { *out += k; }

int* counter;

struct Built {
  cudaGraph_t graph;
  cudaGraphNode_t conditional;
};
enum BodyShape { one_kernel, two_kernels, a_memset };
// The graph described above, of conditional `type` with `size` bodies; body 0 of the given shape.
Built build(cudaGraphConditionalNodeType type, unsigned size, unsigned default_value, int k, BodyShape shape = one_kernel) {
  Built b;
  cudaGraphCreate(&b.graph, 0);
  cudaGraphConditionalHandle h;
  cudaGraphConditionalHandleCreate(&h, b.graph, default_value, cudaGraphCondAssignDefault);
  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeConditional;
  p.conditional.handle = h;
  p.conditional.type = type;
  p.conditional.size = size;
  cudaGraphAddNode(&b.conditional, b.graph, nullptr, nullptr, 0, &p);
  cudaGraph_t body = p.conditional.phGraph_out[0];
  void* args[] = {&counter, &k};
  cudaKernelNodeParams kp = {};
  kp.func = (void*)add;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(1);
  kp.kernelParams = args;
  cudaGraphNode_t first, second;
  if (shape == a_memset) {
    cudaMemsetParams mp = {};
    mp.dst = counter;
    mp.elementSize = 4;
    mp.width = 1;
    mp.height = 1;
    cudaGraphAddMemsetNode(&first, body, nullptr, 0, &mp);
  } else {
    cudaGraphAddKernelNode(&first, body, nullptr, 0, &kp);
  }
  if (shape == two_kernels) cudaGraphAddKernelNode(&second, body, &first, 1, &kp);
  return b;
}
int value() {
  int v = -1;
  cudaMemcpy(&v, counter, sizeof v, cudaMemcpyDeviceToHost);
  return v;
}
int launch(cudaGraphExec_t exec) {
  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaDeviceSynchronize());
  return 0;
}
// Updates `exec` from `b`, prints the error, the result and whether the error node is b's conditional node.
void refused(cudaGraphExec_t exec, const Built& b, const char* what) {
  cudaGraphExecUpdateResultInfo info = {};
  cudaError_t e = cudaGraphExecUpdate(exec, b.graph, &info);
  cudaGetLastError();
  printf("%s: %s result %d, error node %d\n", what, cudaGetErrorName(e), (int)info.result, info.errorNode == b.conditional);
}

int main() {
  CHECK(cudaMalloc(&counter, sizeof(int)));
  CHECK(cudaMemset(counter, 0, sizeof(int)));
  Built first = build(cudaGraphCondTypeIf, 1, 1, 10);
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, first.graph, 0));
  if (launch(exec)) return 1;
  printf("instantiated: %d\n", value());

  cudaGraphExecUpdateResultInfo info;
  cudaError_t e = cudaGraphExecUpdate(exec, build(cudaGraphCondTypeIf, 1, 0, 20).graph, &info);
  if (launch(exec)) return 1;
  printf("update to default 0: %s, body not run: %d\n", cudaGetErrorName(e), value());
  e = cudaGraphExecUpdate(exec, build(cudaGraphCondTypeIf, 1, 1, 20).graph, &info);
  if (launch(exec)) return 1;
  printf("update to default 1, body adding 20: %s, %d\n", cudaGetErrorName(e), value());

  refused(exec, build(cudaGraphCondTypeWhile, 1, 1, 20), "IF to WHILE");
  refused(exec, build(cudaGraphCondTypeIf, 2, 1, 20), "one body to two");
  refused(exec, build(cudaGraphCondTypeIf, 1, 1, 20, two_kernels), "a body node more");
  refused(exec, build(cudaGraphCondTypeIf, 1, 1, 20, a_memset), "a body node of another type");
  if (launch(exec)) return 1;
  printf("after the failed updates: %d\n", value());
  return 0;
}
