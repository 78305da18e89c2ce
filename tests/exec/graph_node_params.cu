// expect-exit: 0
// expect-stdout: graph: 512 of 512 = 2
// expect-stdout: cudaGraphNodeSetParams kernel k=3: 512 of 512 = 3
// expect-stdout: cudaGraphNodeSetParams memset 4: 512 of 512 = 12
// expect-stdout: cudaGraphNodeSetParams memcpy to the second buffer: 512 of 512 = 12, first untouched 512
// expect-stdout: cudaGraphNodeSetParams host: first counter 4, second 1
// expect-stdout: type mismatch cudaErrorInvalidValue, empty cudaSuccess, no params cudaErrorInvalidValue
// expect-stdout: cudaGraphExecNodeSetParams kernel k=5: 512 of 512 = 20, graph node still k=3 1
// expect-stdout: cudaGraphExecNodeSetParams memset 1 and 2D copy refused: cudaErrorInvalidValue cudaErrorInvalidValue
// measured on an H200 (tests/hardware/h200/exec.txt):
// expect-stdout: exec type mismatch cudaErrorInvalidValue, node of another graph cudaSuccess
// expect-stdout: child graph: set 512 of 512 = 7, exec set 512 of 512 = 9, other topology cudaErrorGraphExecUpdateFailure
// expect-stdout: event record: set cudaSuccess, exec set cudaSuccess, exec records the exec's event 1, not the graph's cudaErrorInvalidResourceHandle nor the first cudaErrorInvalidResourceHandle
// expect-stdout: memory nodes: alloc cudaErrorNotSupported, free cudaErrorNotSupported, exec alloc cudaErrorNotSupported
// expect-stdout: conditional: cudaErrorNotSupported
// expect-stderr: cudaGraphNodeSetParams of a conditional node is not implemented by ptxcheck
// The generic cudaGraphNodeSetParams / cudaGraphExecNodeSetParams (CUDA Runtime API, "Graph Management"). A
// graph memset(value) -> kernel scale(k) -> memcpy to the host -> host node gives value * k everywhere; expected
// values from those pages:
// - cudaGraphNodeSetParams: "Sets the parameters of graph node node to nodeParams. The node type specified by
//   nodeParams->type must match the type of node" (else cudaErrorInvalidValue); "Modifying parameters is not
//   supported for node types cudaGraphNodeTypeMemAlloc and cudaGraphNodeTypeMemFree" (cudaErrorNotSupported).
//   The graph's kernel k=3 on memset 1 gives 3; memset 4 then 12; the copy into the second buffer leaves the first
//   as reset (-1); the host node counting into the second counter: first 4 (the four launches before), second 1.
// - cudaGraphExecNodeSetParams: "The modifications only affect future launches of graphExec ... node is also not
//   modified"; its table: kernel as cudaGraphExecKernelNodeSetParams (k=5 on memset 4: 20), memset and memcpy as
//   their Exec calls (a 1D memset's height cannot change; copies must be 1-dimensional), child graph "Topology
//   must match", event record "Unrestricted", memory allocation "API unsupported".
// - A child graph node set to a graph of one kernel add(7) on zeros gives 7; the exec's set to add(9) gives 9; a
//   child of two nodes for the exec is refused (the topology differs: cudaErrorGraphExecUpdateFailure on an H200).
// - cudaGraphExecNodeSetParams with empty parameters for an empty node of another graph: nothing to set, and an
//   H200 answers cudaSuccess.
// - Conditional nodes are in neither table: ptxcheck refuses them by name (cudaErrorNotSupported).
#include "check_call.cuh"

__global__ void scale(int* a, int k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= k;
}
__global__ void add(int* a, int k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += k;
}
void count_call(void* counter) { ++*static_cast<int*>(counter); }

const int n = 512;
static int h[n], h2[n];
int* d;
int size = n;
int counter1 = 0, counter2 = 0;
int matching(const int* buffer, int value) {
  int ok = 0;
  for (int i = 0; i < n; ++i) ok += buffer[i] == value;
  return ok;
}
int launch(cudaGraphExec_t x) {
  for (int i = 0; i < n; ++i) h[i] = h2[i] = -1;
  CHECK(cudaGraphLaunch(x, 0));
  CHECK(cudaDeviceSynchronize());
  return 0;
}
// A graph launch that must succeed: the program says which call failed and exits 1 otherwise.
#define LAUNCH(x)            \
  do {                       \
    if (launch(x)) return 1; \
  } while (0)
// Launches a fresh exec of `g`.
int launch_graph(cudaGraph_t g) {
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0));
  LAUNCH(x);
  cudaGraphExecDestroy(x);
  return 0;
}
cudaGraphNodeParams kernel_params(void* func, void** args) {
  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeKernel;
  p.kernel.func = func;
  p.kernel.gridDim = dim3(n / 128);
  p.kernel.blockDim = dim3(128);
  p.kernel.kernelParams = args;
  return p;
}
cudaGraphNodeParams memset_params(unsigned value) {
  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeMemset;
  p.memset.dst = d;
  p.memset.value = value;
  p.memset.elementSize = 4;
  p.memset.width = n;
  p.memset.height = 1;
  return p;
}
cudaGraphNodeParams copy_params(int* to) {
  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeMemcpy;
  p.memcpy.copyParams.srcPtr = make_cudaPitchedPtr(d, sizeof h, n, 1);
  p.memcpy.copyParams.dstPtr = make_cudaPitchedPtr(to, sizeof h, n, 1);
  p.memcpy.copyParams.extent = make_cudaExtent(sizeof h, 1, 1);
  p.memcpy.copyParams.kind = cudaMemcpyDeviceToHost;
  return p;
}

struct Nodes {
  cudaGraphNode_t set, kernel, copy, host, empty;
};
int k2 = 2, k3 = 3, k5 = 5;
void* args2[] = {&d, &k2, &size};
void* args3[] = {&d, &k3, &size};
void* args5[] = {&d, &k5, &size};

int build(cudaGraph_t g, Nodes& x) {
  cudaGraphNodeParams p = memset_params(1);
  CHECK(cudaGraphAddNode(&x.set, g, nullptr, nullptr, 0, &p));
  p = kernel_params((void*)scale, args2);
  CHECK(cudaGraphAddNode(&x.kernel, g, &x.set, nullptr, 1, &p));
  p = copy_params(h);
  CHECK(cudaGraphAddNode(&x.copy, g, &x.kernel, nullptr, 1, &p));
  p = {};
  p.type = cudaGraphNodeTypeHost;
  p.host.fn = count_call;
  p.host.userData = &counter1;
  CHECK(cudaGraphAddNode(&x.host, g, &x.copy, nullptr, 1, &p));
  CHECK(cudaGraphAddEmptyNode(&x.empty, g, &x.host, 1));
  return 0;
}

int graph_set(cudaGraph_t g, Nodes& x) {
  if (launch_graph(g)) return 1;
  printf("graph: %d of %d = 2\n", matching(h, 2), n);
  cudaGraphNodeParams p = kernel_params((void*)scale, args3);
  CHECK(cudaGraphNodeSetParams(x.kernel, &p));
  if (launch_graph(g)) return 1;
  printf("cudaGraphNodeSetParams kernel k=3: %d of %d = 3\n", matching(h, 3), n);
  p = memset_params(4);
  CHECK(cudaGraphNodeSetParams(x.set, &p));
  if (launch_graph(g)) return 1;
  printf("cudaGraphNodeSetParams memset 4: %d of %d = 12\n", matching(h, 12), n);
  p = copy_params(h2);
  CHECK(cudaGraphNodeSetParams(x.copy, &p));
  p = {};
  p.type = cudaGraphNodeTypeHost;
  p.host.fn = count_call;
  p.host.userData = &counter2;
  cudaGraphNodeParams host = p;
  if (launch_graph(g)) return 1;
  printf("cudaGraphNodeSetParams memcpy to the second buffer: %d of %d = 12, first untouched %d\n", matching(h2, 12), n, matching(h, -1));
  CHECK(cudaGraphNodeSetParams(x.host, &host));
  if (launch_graph(g)) return 1;
  printf("cudaGraphNodeSetParams host: first counter %d, second %d\n", counter1, counter2);
  cudaGraphNodeParams empty = {};
  empty.type = cudaGraphNodeTypeEmpty;
  p = memset_params(7);
  cudaError_t mismatch = cudaGraphNodeSetParams(x.kernel, &p), on_empty = cudaGraphNodeSetParams(x.empty, &empty);
  cudaError_t none = cudaGraphNodeSetParams(x.kernel, nullptr);
  cudaGetLastError();
  printf("type mismatch %s, empty %s, no params %s\n", cudaGetErrorName(mismatch), cudaGetErrorName(on_empty), cudaGetErrorName(none));
  return 0;
}

int exec_set(cudaGraph_t g, Nodes& x) {
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  cudaGraphNodeParams p = kernel_params((void*)scale, args5);
  CHECK(cudaGraphExecNodeSetParams(exec, x.kernel, &p));
  LAUNCH(exec);
  cudaKernelNodeParams kp;
  CHECK(cudaGraphKernelNodeGetParams(x.kernel, &kp));
  printf("cudaGraphExecNodeSetParams kernel k=5: %d of %d = 20, graph node still k=3 %d\n", matching(h2, 20), n,
         *static_cast<int*>(kp.kernelParams[1]) == 3);
  p = memset_params(1);
  p.memset.height = 2;
  p.memset.pitch = sizeof h;
  cudaError_t memset_height = cudaGraphExecNodeSetParams(exec, x.set, &p);
  p = copy_params(h);
  p.memcpy.copyParams.extent.height = 2;
  cudaError_t copy_2d = cudaGraphExecNodeSetParams(exec, x.copy, &p);
  printf("cudaGraphExecNodeSetParams memset 1 and 2D copy refused: %s %s\n", cudaGetErrorName(memset_height), cudaGetErrorName(copy_2d));
  cudaGraph_t other;
  cudaGraphNode_t foreign;
  CHECK(cudaGraphCreate(&other, 0));
  CHECK(cudaGraphAddEmptyNode(&foreign, other, nullptr, 0));
  cudaGraphNodeParams empty = {};
  empty.type = cudaGraphNodeTypeEmpty;
  p = memset_params(1);
  cudaError_t mismatch = cudaGraphExecNodeSetParams(exec, x.kernel, &p), not_mine = cudaGraphExecNodeSetParams(exec, foreign, &empty);
  cudaGetLastError();
  printf("exec type mismatch %s, node of another graph %s\n", cudaGetErrorName(mismatch), cudaGetErrorName(not_mine));
  cudaGraphExecDestroy(exec);
  return 0;
}

// A graph of one kernel add(k) (two of them with `twice`).
cudaGraph_t adder(int& k, bool twice = false) {
  static void* args[3];
  args[0] = &d;
  args[1] = &k;
  args[2] = &size;
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaGraphNodeParams p = kernel_params((void*)add, args);
  cudaGraphNode_t a, b;
  cudaGraphAddNode(&a, g, nullptr, nullptr, 0, &p);
  if (twice) cudaGraphAddNode(&b, g, &a, nullptr, 1, &p);
  return g;
}
int child_graph() {
  int k1 = 1, k7 = 7, k9 = 9;
  cudaGraph_t g;
  cudaGraphNode_t zero, child, copy;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphNodeParams p = memset_params(0);
  CHECK(cudaGraphAddNode(&zero, g, nullptr, nullptr, 0, &p));
  CHECK(cudaGraphAddChildGraphNode(&child, g, &zero, 1, adder(k1)));
  p = copy_params(h);
  CHECK(cudaGraphAddNode(&copy, g, &child, nullptr, 1, &p));
  p = {};
  p.type = cudaGraphNodeTypeGraph;
  p.graph.graph = adder(k7);
  CHECK(cudaGraphNodeSetParams(child, &p));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  LAUNCH(exec);
  int set = matching(h, 7);
  p.graph.graph = adder(k9);
  CHECK(cudaGraphExecNodeSetParams(exec, child, &p));
  LAUNCH(exec);
  int exec_set = matching(h, 9);
  p.graph.graph = adder(k9, true);
  cudaError_t topology = cudaGraphExecNodeSetParams(exec, child, &p);
  cudaGetLastError();
  printf("child graph: set %d of %d = 7, exec set %d of %d = 9, other topology %s\n", set, n, exec_set, n, cudaGetErrorName(topology));
  return 0;
}

int event_record() {
  cudaEvent_t first, in_graph, in_exec;
  CHECK(cudaEventCreate(&first));
  CHECK(cudaEventCreate(&in_graph));
  CHECK(cudaEventCreate(&in_exec));
  cudaGraph_t g;
  cudaGraphNode_t record;
  CHECK(cudaGraphCreate(&g, 0));
  CHECK(cudaGraphAddEventRecordNode(&record, g, nullptr, 0, first));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeEventRecord;
  p.eventRecord.event = in_graph;
  cudaError_t set = cudaGraphNodeSetParams(record, &p);  // the graph's node: not the exec made before
  p.eventRecord.event = in_exec;
  cudaError_t exec_set = cudaGraphExecNodeSetParams(exec, record, &p);
  LAUNCH(exec);
  float ms;
  printf("event record: set %s, exec set %s, exec records the exec's event %d, not the graph's %s nor the first %s\n", cudaGetErrorName(set),
         cudaGetErrorName(exec_set), cudaEventElapsedTime(&ms, in_exec, in_exec) == cudaSuccess,
         cudaGetErrorName(cudaEventElapsedTime(&ms, in_graph, in_graph)), cudaGetErrorName(cudaEventElapsedTime(&ms, first, first)));
  return 0;
}

int memory_and_conditional() {
  cudaGraph_t g;
  cudaGraphNode_t alloc, free_node;
  CHECK(cudaGraphCreate(&g, 0));
  cudaMemAllocNodeParams ap = {};
  ap.poolProps.allocType = cudaMemAllocationTypePinned;
  ap.poolProps.location.type = cudaMemLocationTypeDevice;
  ap.poolProps.location.id = 0;
  ap.bytesize = 1024;
  CHECK(cudaGraphAddMemAllocNode(&alloc, g, nullptr, 0, &ap));
  CHECK(cudaGraphAddMemFreeNode(&free_node, g, &alloc, 1, ap.dptr));
  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeMemAlloc;
  p.alloc.poolProps = ap.poolProps;
  p.alloc.bytesize = 2048;
  cudaError_t on_alloc = cudaGraphNodeSetParams(alloc, &p);
  cudaGraphNodeParams f = {};
  f.type = cudaGraphNodeTypeMemFree;
  f.free.dptr = ap.dptr;
  cudaError_t on_free = cudaGraphNodeSetParams(free_node, &f);
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  cudaError_t exec_alloc = cudaGraphExecNodeSetParams(exec, alloc, &p);
  cudaGetLastError();
  printf("memory nodes: alloc %s, free %s, exec alloc %s\n", cudaGetErrorName(on_alloc), cudaGetErrorName(on_free), cudaGetErrorName(exec_alloc));

  cudaGraph_t cg;
  cudaGraphConditionalHandle handle;
  CHECK(cudaGraphCreate(&cg, 0));
  CHECK(cudaGraphConditionalHandleCreate(&handle, cg, 0, 0));
  cudaGraphNodeParams c = {};
  c.type = cudaGraphNodeTypeConditional;
  c.conditional.handle = handle;
  c.conditional.type = cudaGraphCondTypeIf;
  c.conditional.size = 1;
  cudaGraphNode_t cond;
  CHECK(cudaGraphAddNode(&cond, cg, nullptr, nullptr, 0, &c));
  printf("conditional: %s\n", cudaGetErrorName(cudaGraphNodeSetParams(cond, &c)));
  cudaGetLastError();
  return 0;
}

int main() {
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  cudaGraph_t g;
  Nodes x;
  CHECK(cudaGraphCreate(&g, 0));
  if (build(g, x) || graph_set(g, x) || exec_set(g, x) || child_graph() || event_record() || memory_and_conditional()) return 1;
  return 0;
}
