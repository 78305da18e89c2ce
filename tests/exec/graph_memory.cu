// expect-exit: 0
// expect-stdout: types: alloc 1 free 1
// expect-stdout: params: address kept 1, free node frees it 1, bytesize 2048
// expect-stdout: launch 1: 512 of 512
// expect-stdout: launch 2: 512 of 512
// expect-stdout: free twice: cudaErrorInvalidValue, free of cudaMalloc memory: cudaErrorInvalidValue
// expect-stdout: clone refused 1, child refused 1, edge removal refused 1
// expect-stdout: captured: 4 nodes, 1 alloc, 1 free, result 512 of 512
// expect-stdout: unfreed: second instantiation refused 1, readable after the launch 512 of 512, relaunch cudaErrorInvalidValue, after cudaFree cudaSuccess
// expect-stdout: auto free: cudaSuccess cudaSuccess
// Graph memory nodes (CUDA Programming Guide, "Graph Memory Nodes"; Runtime API cudaGraphAddMemAllocNode,
// cudaGraphAddMemFreeNode, cudaGraphLaunch). Expectations, from those pages:
// - the node returns the allocation's address in dptr when it is created, fixed across launches; the graph's nodes
//   ordered between the allocation and the free node may use it (a memset of 5, a kernel adding i: 5 + i);
// - cudaGraphAddMemFreeNode is cudaErrorInvalidValue for an allocation freed twice in a graph and for an address
//   no allocation node returned; a graph with memory nodes "cannot be cloned", is no plain child graph, and its
//   "Nodes and edges ... cannot be deleted";
// - cudaMallocAsync / cudaFreeAsync in a capturing stream record an allocation and a free node;
// - an allocation the graph does not free stays usable by stream work after the launch; relaunching before it is
//   freed "will fail with cudaErrorInvalidValue"; cudaFree frees it; cudaGraphInstantiateFlagAutoFreeOnLaunch frees
//   it before each relaunch; a graph with memory nodes has "at most one executable graph in existence" at a time
//   (cudaGraphInstantiate).
#include "check_call.cuh"

__global__ void add_index(int* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += i;
}
__global__ void fill(int* a, int base, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = base + i;
}

const int n = 512;
static int h[n];
int matching(int base, int step) {
  int ok = 0;
  for (int i = 0; i < n; ++i) ok += h[i] == base + step * i;
  return ok;
}
cudaMemAllocNodeParams alloc_params() {
  cudaMemAllocNodeParams p = {};
  p.poolProps.allocType = cudaMemAllocationTypePinned;
  p.poolProps.location.type = cudaMemLocationTypeDevice;
  p.poolProps.location.id = 0;
  p.bytesize = n * sizeof(int);
  return p;
}

int by_nodes() {
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaMemAllocNodeParams ap = alloc_params();
  cudaGraphNode_t alloc, set, add, out, freed, extra;
  CHECK(cudaGraphAddMemAllocNode(&alloc, g, nullptr, 0, &ap));
  int* d = static_cast<int*>(ap.dptr);
  cudaMemsetParams mp = {};
  mp.dst = d;
  mp.value = 5;
  mp.elementSize = 4;
  mp.width = n;
  mp.height = 1;
  CHECK(cudaGraphAddMemsetNode(&set, g, &alloc, 1, &mp));
  int size = n;
  void* args[] = {&d, &size};
  cudaKernelNodeParams kp = {};
  kp.func = (void*)add_index;
  kp.gridDim = dim3(n / 128);
  kp.blockDim = dim3(128);
  kp.kernelParams = args;
  CHECK(cudaGraphAddKernelNode(&add, g, &set, 1, &kp));
  CHECK(cudaGraphAddMemcpyNode1D(&out, g, &add, 1, h, d, sizeof h, cudaMemcpyDeviceToHost));
  CHECK(cudaGraphAddMemFreeNode(&freed, g, &out, 1, d));
  cudaGraphNodeType ta, tf;
  CHECK(cudaGraphNodeGetType(alloc, &ta));
  CHECK(cudaGraphNodeGetType(freed, &tf));
  printf("types: alloc %d free %d\n", ta == cudaGraphNodeTypeMemAlloc, tf == cudaGraphNodeTypeMemFree);
  cudaMemAllocNodeParams got = {};
  void* to_free = nullptr;
  CHECK(cudaGraphMemAllocNodeGetParams(alloc, &got));
  CHECK(cudaGraphMemFreeNodeGetParams(freed, &to_free));
  printf("params: address kept %d, free node frees it %d, bytesize %zu\n", got.dptr == d, to_free == d, got.bytesize);

  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0));
  for (int launch = 1; launch <= 2; ++launch) {
    for (int i = 0; i < n; ++i) h[i] = -1;
    CHECK(cudaGraphLaunch(x, 0));
    CHECK(cudaDeviceSynchronize());
    printf("launch %d: %d of %d\n", launch, matching(5, 1), n);
  }
  int* plain;
  CHECK(cudaMalloc(&plain, 4));
  cudaError_t twice = cudaGraphAddMemFreeNode(&extra, g, &freed, 1, d);
  cudaError_t not_graph = cudaGraphAddMemFreeNode(&extra, g, &freed, 1, plain);
  printf("free twice: %s, free of cudaMalloc memory: %s\n", cudaGetErrorName(twice), cudaGetErrorName(not_graph));
  cudaGraph_t copy, parent;
  CHECK(cudaGraphCreate(&parent, 0));
  cudaError_t cloned = cudaGraphClone(&copy, g);
  cudaError_t child = cudaGraphAddChildGraphNode(&extra, parent, nullptr, 0, g);
  cudaError_t removed = cudaGraphRemoveDependencies(g, &out, &freed, nullptr, 1);
  printf("clone refused %d, child refused %d, edge removal refused %d\n", cloned != cudaSuccess, child != cudaSuccess,
         removed != cudaSuccess);
  cudaGetLastError();
  return 0;
}

int by_capture() {
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  int* c = nullptr;
  CHECK(cudaMallocAsync(reinterpret_cast<void**>(&c), sizeof h, s));
  fill<<<n / 128, 128, 0, s>>>(c, 7, n);
  CHECK(cudaMemcpyAsync(h, c, sizeof h, cudaMemcpyDeviceToHost, s));
  CHECK(cudaFreeAsync(c, s));
  cudaGraph_t g;
  CHECK(cudaStreamEndCapture(s, &g));
  cudaGraphNode_t nodes[8];
  size_t count = 8;
  CHECK(cudaGraphGetNodes(g, nodes, &count));
  int allocs = 0, frees = 0;
  for (size_t i = 0; i < count; ++i) {
    cudaGraphNodeType t;
    CHECK(cudaGraphNodeGetType(nodes[i], &t));
    allocs += t == cudaGraphNodeTypeMemAlloc, frees += t == cudaGraphNodeTypeMemFree;
  }
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0));
  CHECK(cudaGraphLaunch(x, s));
  CHECK(cudaStreamSynchronize(s));
  printf("captured: %zu nodes, %d alloc, %d free, result %d of %d\n", count, allocs, frees, matching(7, 1), n);
  return 0;
}

int unfreed() {
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaMemAllocNodeParams ap = alloc_params();
  cudaGraphNode_t alloc, set;
  CHECK(cudaGraphAddMemAllocNode(&alloc, g, nullptr, 0, &ap));
  cudaMemsetParams mp = {};
  mp.dst = ap.dptr;
  mp.value = 9;
  mp.elementSize = 4;
  mp.width = n;
  mp.height = 1;
  CHECK(cudaGraphAddMemsetNode(&set, g, &alloc, 1, &mp));
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0));
  cudaGraphExec_t second;
  const int refused = cudaGraphInstantiate(&second, g, 0) != cudaSuccess;  // one instantiation at a time
  cudaGetLastError();
  CHECK(cudaGraphLaunch(x, 0));
  CHECK(cudaMemcpy(h, ap.dptr, sizeof h, cudaMemcpyDeviceToHost));  // ordered after the graph, before any free
  const int readable = matching(9, 0);
  cudaError_t again = cudaGraphLaunch(x, 0);
  cudaGetLastError();
  CHECK(cudaFree(ap.dptr));
  cudaError_t freed = cudaGraphLaunch(x, 0);
  printf("unfreed: second instantiation refused %d, readable after the launch %d of %d, relaunch %s, after cudaFree %s\n", refused,
         readable, n, cudaGetErrorName(again), cudaGetErrorName(freed));
  CHECK(cudaFreeAsync(ap.dptr, 0));
  CHECK(cudaGraphExecDestroy(x));  // "Only one instantiation of the graph may exist at any point in time"
  CHECK(cudaGraphInstantiateWithFlags(&x, g, cudaGraphInstantiateFlagAutoFreeOnLaunch));
  cudaError_t first = cudaGraphLaunch(x, 0), again_auto = cudaGraphLaunch(x, 0);
  printf("auto free: %s %s\n", cudaGetErrorName(first), cudaGetErrorName(again_auto));
  CHECK(cudaFree(ap.dptr));
  return 0;
}

int main() {
  if (by_nodes() || by_capture() || unfreed()) return 1;
  return 0;
}
