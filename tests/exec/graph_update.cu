// expect-exit: 0
// expect-stdout: get: kernel 1 grid 4 block 128 k 2, memset value 1 width 512, memcpy 2048 bytes to the host 1, host 1
// expect-stdout: graph edited after instantiation: exec gives: 512 of 512 = 2
// expect-stdout: exec kernel k=5: 512 of 512 = 5
// expect-stdout: exec memset 3: 512 of 512 = 15
// expect-stdout: exec memcpy to the second buffer: 512 of 512 = 15, first untouched 512
// expect-stdout: exec host node: first counter 4, second 2
// expect-stdout: kernel disabled (enabled 0): 512 of 512 = 3; enabled again (1): 512 of 512 = 15
// expect-stdout: refused: memset height cudaErrorInvalidValue, 2D memcpy cudaErrorInvalidValue, disabling a host node 1
// expect-stdout: update: cudaSuccess result 0, then 512 of 512 = 28
// expect-stdout: update with a node more: cudaErrorGraphExecUpdateFailure result 2, error node null 1
// expect-stdout: update with a node type changed: cudaErrorGraphExecUpdateFailure result 3, error node is it 1
// measured on an H200 (tests/hardware/h200/exec.txt):
// expect-stdout: update with an edge moved: cudaErrorGraphExecUpdateFailure result 2, error node 1, from node 0
// expect-stdout: after the failed updates: 512 of 512 = 28
// expect-stdout: captured nodes: 2 kernels, scale by 3 1, copy of 2048 bytes 1
// expect-stdout: captured then updated: 512 of 512 = 9, then 512 of 512 = 18
// expect-stdout: update to a cooperative launch: cudaErrorGraphExecUpdateFailure result 8
// expect-stdout: cooperative node with k=4: 512 of 512 = 12, updated from its graph: cudaSuccess, 512 of 512 = 6
// expect-stdout: child graph node: 512 of 512 = 6, updated 512 of 512 = 8, other topology cudaErrorGraphExecUpdateFailure, still 512 of 512 = 8
// Changing graphs and instantiated graphs (CUDA Runtime API, "Graph Management"). A graph memset(value) ->
// kernel scale(k) -> memcpy to the host -> host node gives value * k in every element. Expectations, from those
// pages:
// - Get*Params return what the node was given; the kernel's arguments are the node's own copy;
// - cudaGraphExec*SetParams change only later launches of that exec, and "node is also not modified"; changing the
//   graph after instantiation does not change the exec (it is instantiated from the graph as it was);
// - cudaGraphExecMemsetNodeSetParams: "For 1d memsets, changes in height are explicitly rejected";
//   cudaGraphExecMemcpyNodeSetParams: operands "must be 1-dimensional";
// - cudaGraphNodeSetEnabled: "Disabled nodes are functionally equivalent to empty nodes", "Currently only kernel,
//   memset and memcpy nodes are supported";
// - cudaGraphExecUpdate with "a topologically identical graph" takes its parameters; a different node count is
//   cudaGraphExecUpdateErrorTopologyChanged with errorNode NULL, a changed node type
//   cudaGraphExecUpdateErrorNodeTypeChanged with the node of the new graph, a dependency that does not match its
//   pair TopologyChanged with errorNode set (errorFromNode, documented as the error edge's from node, is not the
//   moved edge's on an H200), a kernel node made cooperative (a node attribute:
//   "A cooperative node cannot be updated to a non-cooperative node") AttributesChanged; a failed update returns
//   cudaErrorGraphExecUpdateFailure and leaves the exec as it was; cudaGraphExecChildGraphNodeSetParams needs the
//   child's topology "as well as the node insertion order" to match.
#include "check_call.cuh"

__global__ void scale(int* a, int k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= k;
}
__global__ void fill(int* a, int value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = value;
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
struct Nodes {
  cudaGraphNode_t set, kernel, copy, host;
};
// The graph above; with `type_changed` an empty node stands where the memset was.
Nodes build(cudaGraph_t g, int value, int& k, bool type_changed = false) {
  Nodes x;
  cudaMemsetParams mp = {};
  mp.dst = d;
  mp.value = value;
  mp.elementSize = 4;
  mp.width = n;
  mp.height = 1;
  if (type_changed) cudaGraphAddEmptyNode(&x.set, g, nullptr, 0);
  else cudaGraphAddMemsetNode(&x.set, g, nullptr, 0, &mp);
  void* args[] = {&d, &k, &size};
  cudaKernelNodeParams kp = {};
  kp.func = (void*)scale;
  kp.gridDim = dim3(n / 128);
  kp.blockDim = dim3(128);
  kp.kernelParams = args;
  cudaGraphAddKernelNode(&x.kernel, g, &x.set, 1, &kp);
  cudaGraphAddMemcpyNode1D(&x.copy, g, &x.kernel, 1, h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaHostNodeParams hp = {count_call, &counter1};
  cudaGraphAddHostNode(&x.host, g, &x.copy, 1, &hp);
  return x;
}
// Launches `x` with both host buffers reset to -1.
int launch(cudaGraphExec_t x) {
  for (int i = 0; i < n; ++i) h[i] = h2[i] = -1;
  CHECK(cudaGraphLaunch(x, 0));
  CHECK(cudaDeviceSynchronize());
  return 0;
}
#define EXPECT_ALL(buffer, value, ...)                               \
  do {                                                               \
    printf(__VA_ARGS__);                                             \
    printf(": %d of %d = %d\n", matching(buffer, value), n, value); \
  } while (0)

int get_and_set(Nodes& x, cudaGraphExec_t exec) {
  cudaKernelNodeParams kp;
  cudaMemsetParams mp;
  cudaMemcpy3DParms cp;
  cudaHostNodeParams hp;
  CHECK(cudaGraphKernelNodeGetParams(x.kernel, &kp));
  CHECK(cudaGraphMemsetNodeGetParams(x.set, &mp));
  CHECK(cudaGraphMemcpyNodeGetParams(x.copy, &cp));
  CHECK(cudaGraphHostNodeGetParams(x.host, &hp));
  printf("get: kernel %d grid %u block %u k %d, memset value %u width %zu, memcpy %zu bytes to the host %d, host %d\n", kp.func == (void*)scale,
         kp.gridDim.x, kp.blockDim.x, *static_cast<int*>(kp.kernelParams[1]), mp.value, mp.width, cp.extent.width,
         cp.dstPtr.ptr == h && cp.kind == cudaMemcpyDeviceToHost, hp.fn == count_call && hp.userData == &counter1);
  int k3 = 3;
  void* args3[] = {&d, &k3, &size};
  kp.kernelParams = args3;
  CHECK(cudaGraphKernelNodeSetParams(x.kernel, &kp));  // the graph changes, the exec does not
  if (launch(exec)) return 1;
  EXPECT_ALL(h, 2, "graph edited after instantiation: exec gives");
  int k5 = 5;
  void* args5[] = {&d, &k5, &size};
  kp.kernelParams = args5;
  CHECK(cudaGraphExecKernelNodeSetParams(exec, x.kernel, &kp));
  if (launch(exec)) return 1;
  EXPECT_ALL(h, 5, "exec kernel k=5");
  mp.value = 3;
  CHECK(cudaGraphExecMemsetNodeSetParams(exec, x.set, &mp));
  if (launch(exec)) return 1;
  EXPECT_ALL(h, 15, "exec memset 3");
  CHECK(cudaGraphExecMemcpyNodeSetParams1D(exec, x.copy, h2, d, sizeof h2, cudaMemcpyDeviceToHost));
  if (launch(exec)) return 1;
  printf("exec memcpy to the second buffer: %d of %d = 15, first untouched %d\n", matching(h2, 15), n, matching(h, -1));
  hp.userData = &counter2;
  CHECK(cudaGraphExecHostNodeSetParams(exec, x.host, &hp));
  if (launch(exec) || launch(exec)) return 1;
  printf("exec host node: first counter %d, second %d\n", counter1, counter2);
  return 0;
}

int enable_and_refuse(Nodes& x, cudaGraphExec_t exec) {
  unsigned off = 9, on = 9;
  CHECK(cudaGraphNodeSetEnabled(exec, x.kernel, 0));
  CHECK(cudaGraphNodeGetEnabled(exec, x.kernel, &off));
  if (launch(exec)) return 1;
  printf("kernel disabled (enabled %u): %d of %d = 3; ", off, matching(h2, 3), n);
  CHECK(cudaGraphNodeSetEnabled(exec, x.kernel, 1));
  CHECK(cudaGraphNodeGetEnabled(exec, x.kernel, &on));
  if (launch(exec)) return 1;
  printf("enabled again (%u): %d of %d = 15\n", on, matching(h2, 15), n);
  cudaMemsetParams mp;
  CHECK(cudaGraphMemsetNodeGetParams(x.set, &mp));
  mp.height = 2;
  mp.pitch = n * 4;
  cudaError_t height = cudaGraphExecMemsetNodeSetParams(exec, x.set, &mp);
  cudaMemcpy3DParms cp = {};
  cp.srcPtr = make_cudaPitchedPtr(d, 256, 256, 2);
  cp.dstPtr = make_cudaPitchedPtr(h2, 256, 256, 2);
  cp.extent = make_cudaExtent(256, 2, 1);
  cp.kind = cudaMemcpyDeviceToHost;
  cudaError_t copy2d = cudaGraphExecMemcpyNodeSetParams(exec, x.copy, &cp);
  cudaError_t host = cudaGraphNodeSetEnabled(exec, x.host, 0);
  cudaGetLastError();
  printf("refused: memset height %s, 2D memcpy %s, disabling a host node %d\n", cudaGetErrorName(height), cudaGetErrorName(copy2d),
         host != cudaSuccess);
  return 0;
}

int exec_update(cudaGraphExec_t exec) {
  cudaGraph_t same, more, typed, moved;
  cudaGraphExecUpdateResultInfo info;
  int k7 = 7;
  CHECK(cudaGraphCreate(&same, 0));
  build(same, 4, k7);  // writes to h: the update gives the exec this graph's copy too
  cudaError_t e = cudaGraphExecUpdate(exec, same, &info);
  if (launch(exec)) return 1;
  printf("update: %s result %d, then %d of %d = 28\n", cudaGetErrorName(e), info.result, matching(h, 28), n);
  CHECK(cudaGraphCreate(&more, 0));
  Nodes m = build(more, 4, k7);
  cudaGraphNode_t extra;
  CHECK(cudaGraphAddEmptyNode(&extra, more, &m.host, 1));
  e = cudaGraphExecUpdate(exec, more, &info);
  printf("update with a node more: %s result %d, error node null %d\n", cudaGetErrorName(e), info.result, info.errorNode == nullptr);
  CHECK(cudaGraphCreate(&typed, 0));
  Nodes t = build(typed, 4, k7, true);
  e = cudaGraphExecUpdate(exec, typed, &info);
  printf("update with a node type changed: %s result %d, error node is it %d\n", cudaGetErrorName(e), info.result, info.errorNode == t.set);
  CHECK(cudaGraphCreate(&moved, 0));
  Nodes v = build(moved, 4, k7);
  CHECK(cudaGraphRemoveDependencies(moved, &v.copy, &v.host, nullptr, 1));
  CHECK(cudaGraphAddDependencies(moved, &v.kernel, &v.host, nullptr, 1));  // host after the kernel, not the copy
  e = cudaGraphExecUpdate(exec, moved, &info);
  printf("update with an edge moved: %s result %d, error node %d, from node %d\n", cudaGetErrorName(e), info.result,
         info.errorNode == v.host, info.errorFromNode == v.kernel);
  cudaGetLastError();
  if (launch(exec)) return 1;
  EXPECT_ALL(h, 28, "after the failed updates");
  return 0;
}

// The usual use: capture the same work again with other arguments and update the exec from the new graph.
int capture(cudaStream_t s, int value, int k, cudaGraph_t& g) {
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  fill<<<n / 128, 128, 0, s>>>(d, value, n);
  scale<<<n / 128, 128, 0, s>>>(d, k, n);
  CHECK(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamEndCapture(s, &g));
  return 0;
}
int captured() {
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  cudaGraph_t first, second;
  cudaGraphExec_t exec;
  cudaGraphExecUpdateResultInfo info;
  if (capture(s, 3, 3, first)) return 1;
  cudaGraphNode_t nodes[3];
  size_t count = 3;
  CHECK(cudaGraphGetNodes(first, nodes, &count));
  int kernels = 0, ks = 0, copies = 0;
  for (size_t i = 0; i < count; ++i) {
    cudaKernelNodeParams kp;
    cudaMemcpy3DParms cp;
    if (cudaGraphKernelNodeGetParams(nodes[i], &kp) == cudaSuccess) ++kernels, ks += kp.func == (void*)scale && *static_cast<int*>(kp.kernelParams[1]) == 3;
    if (cudaGraphMemcpyNodeGetParams(nodes[i], &cp) == cudaSuccess) copies += cp.extent.width == sizeof h && cp.dstPtr.ptr == h;
  }
  cudaGetLastError();
  printf("captured nodes: %d kernels, scale by 3 %d, copy of %zu bytes %d\n", kernels, ks, sizeof h, copies);
  CHECK(cudaGraphInstantiate(&exec, first, 0));
  if (launch(exec)) return 1;
  printf("captured then updated: %d of %d = 9, ", matching(h, 9), n);
  if (capture(s, 3, 6, second)) return 1;
  CHECK(cudaGraphExecUpdate(exec, second, &info));
  if (launch(exec)) return 1;
  printf("then %d of %d = 18\n", matching(h, 18), n);
  // "A cooperative node cannot be updated to a non-cooperative node": a kernel node attribute
  cudaGraph_t cooperative;
  int k = 2;
  void* args[] = {&d, &k, &size};
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  fill<<<n / 128, 128, 0, s>>>(d, 3, n);
  CHECK(cudaLaunchCooperativeKernel((void*)scale, dim3(n / 128), dim3(128), args, 0, s));
  CHECK(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamEndCapture(s, &cooperative));
  cudaError_t e = cudaGraphExecUpdate(exec, cooperative, &info);
  cudaGetLastError();
  printf("update to a cooperative launch: %s result %d\n", cudaGetErrorName(e), info.result);
  // new kernel parameters leave the node's attributes: still cooperative, so the update from its graph succeeds
  cudaGraphExec_t coop_exec;
  cudaGraphNode_t coop_nodes[3];
  size_t coop_count = 3;
  CHECK(cudaGraphInstantiate(&coop_exec, cooperative, 0));
  CHECK(cudaGraphGetNodes(cooperative, coop_nodes, &coop_count));
  cudaKernelNodeParams kp = {};
  cudaGraphNode_t scale_node = nullptr;
  for (size_t i = 0; i < coop_count; ++i)
    if (cudaGraphKernelNodeGetParams(coop_nodes[i], &kp) == cudaSuccess && kp.func == (void*)scale) scale_node = coop_nodes[i];
  cudaGetLastError();
  CHECK(cudaGraphKernelNodeGetParams(scale_node, &kp));
  int k4 = 4;
  void* args4[] = {&d, &k4, &size};
  kp.kernelParams = args4;
  CHECK(cudaGraphExecKernelNodeSetParams(coop_exec, scale_node, &kp));
  if (launch(coop_exec)) return 1;
  printf("cooperative node with k=4: %d of %d = 12, ", matching(h, 12), n);
  e = cudaGraphExecUpdate(coop_exec, cooperative, &info);
  if (launch(coop_exec)) return 1;
  printf("updated from its graph: %s, %d of %d = 6\n", cudaGetErrorName(e), matching(h, 6), n);
  return 0;
}

// cudaGraphExecChildGraphNodeSetParams: the child's nodes take the parameters of a child graph of the same
// topology; another topology is refused (cudaErrorGraphExecUpdateFailure on an H200; the API reference lists only
// cudaErrorInvalidValue).
int child_with(cudaGraph_t child, int value, bool copy) {
  cudaMemsetParams mp = {d, 0, static_cast<unsigned>(value), 4, n, 1};
  cudaGraphNode_t set, out;
  CHECK(cudaGraphAddMemsetNode(&set, child, nullptr, 0, &mp));
  if (copy) CHECK(cudaGraphAddMemcpyNode1D(&out, child, &set, 1, h, d, sizeof h, cudaMemcpyDeviceToHost));
  return 0;
}
int child_update() {
  cudaGraph_t parent, child, same, other;
  cudaGraphNode_t node;
  cudaGraphExec_t exec;
  CHECK(cudaGraphCreate(&parent, 0));
  CHECK(cudaGraphCreate(&child, 0));
  CHECK(cudaGraphCreate(&same, 0));
  CHECK(cudaGraphCreate(&other, 0));
  if (child_with(child, 6, true) || child_with(same, 8, true) || child_with(other, 9, false)) return 1;
  CHECK(cudaGraphAddChildGraphNode(&node, parent, nullptr, 0, child));
  CHECK(cudaGraphInstantiate(&exec, parent, 0));
  if (launch(exec)) return 1;
  printf("child graph node: %d of %d = 6, ", matching(h, 6), n);
  CHECK(cudaGraphExecChildGraphNodeSetParams(exec, node, same));
  if (launch(exec)) return 1;
  printf("updated %d of %d = 8, ", matching(h, 8), n);
  cudaError_t e = cudaGraphExecChildGraphNodeSetParams(exec, node, other);
  cudaGetLastError();
  if (launch(exec)) return 1;
  printf("other topology %s, still %d of %d = 8\n", cudaGetErrorName(e), matching(h, 8), n);
  return 0;
}

int main() {
  CHECK(cudaMalloc(&d, sizeof h));
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  int k = 2;
  Nodes x = build(g, 1, k);
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  if (get_and_set(x, exec) || enable_and_refuse(x, exec)) return 1;
  // the later tests write to h again: the exec's copy goes to h2, so give it back its first destination
  CHECK(cudaGraphExecMemcpyNodeSetParams1D(exec, x.copy, h, d, sizeof h, cudaMemcpyDeviceToHost));
  if (exec_update(exec) || captured() || child_update()) return 1;
  return 0;
}
