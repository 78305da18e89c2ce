// expect-exit: 0
// expect-stdout: graph: 8 nodes, 2 roots, 8 edges, types host 1 child 1
// expect-stdout: launch 1: a 512 of 512, c 512 of 512, host node ran 1
// expect-stdout: launch 2 (clone): a 512 of 512, c 512 of 512, host node ran 2
// expect-stdout: missing edge removed: cudaErrorInvalidValue
// expect-stdout: cycle refused: 1
// A graph built node by node (CUDA Runtime API, "Graph Management"): a memset, 1D and 3D memcpy, kernel, host,
// child graph and empty nodes with their dependencies. The kernel node `twice` is added before the memset it
// must follow and ordered after it by cudaGraphAddDependencies, so running nodes in insertion order would give a
// wrong result: a[i] = 2 * 7 + 3 * b[i]. Counts are from the calls below; values from the host's computation.
#include <cstdio>

__global__ void twice(int* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= 2;
}
__global__ void axpy(int* a, const int* b, int k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += k * b[i];
}
__global__ void increment(int* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] += 1;
}
void count_call(void* counter) { ++*static_cast<int*>(counter); }

int main() {
  const int n = 512;
  static int ha[n], hb[n], hc[n];
  for (int i = 0; i < n; ++i) hb[i] = i - 100;
  int *da, *db, *dc;
  cudaMalloc(&da, sizeof ha);
  cudaMalloc(&db, sizeof hb);
  cudaMalloc(&dc, sizeof hc);
  int host_calls = 0, k = 3, size = n;

  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaGraphNode_t twice_node, set_node, copy_b, axpy_node, host_node, copy_out, child_node, done;
  void* twice_args[] = {&da, &size};
  cudaKernelNodeParams kp = {};
  kp.func = (void*)twice;
  kp.gridDim = dim3(n / 128);
  kp.blockDim = dim3(128);
  kp.kernelParams = twice_args;
  cudaGraphAddKernelNode(&twice_node, g, nullptr, 0, &kp);
  cudaMemsetParams mp = {};
  mp.dst = da;
  mp.value = 7;
  mp.elementSize = 4;
  mp.width = n;
  mp.height = 1;
  cudaGraphAddMemsetNode(&set_node, g, nullptr, 0, &mp);
  cudaGraphAddDependencies(g, &set_node, &twice_node, nullptr, 1);  // twice runs after the memset
  cudaGraphAddMemcpyNode1D(&copy_b, g, nullptr, 0, db, hb, sizeof hb, cudaMemcpyHostToDevice);
  void* axpy_args[] = {&da, &db, &k, &size};
  kp.func = (void*)axpy;
  kp.kernelParams = axpy_args;
  cudaGraphNode_t axpy_deps[] = {twice_node, copy_b};
  cudaGraphAddKernelNode(&axpy_node, g, axpy_deps, 2, &kp);
  k = 1000;  // the node keeps the 3 it was given
  cudaHostNodeParams hp = {count_call, &host_calls};
  cudaGraphAddHostNode(&host_node, g, &axpy_node, 1, &hp);
  cudaMemcpy3DParms cp = {};
  cp.srcPtr = make_cudaPitchedPtr(da, sizeof ha, n, 1);
  cp.dstPtr = make_cudaPitchedPtr(ha, sizeof ha, n, 1);
  cp.extent = make_cudaExtent(sizeof ha, 1, 1);
  cp.kind = cudaMemcpyDeviceToHost;
  cudaGraphAddMemcpyNode(&copy_out, g, &axpy_node, 1, &cp);

  // The child: zero c, then increment it, then copy it out.
  cudaGraph_t child;
  cudaGraphCreate(&child, 0);
  cudaGraphNode_t zero, inc, out;
  mp.dst = dc;
  mp.value = 0;
  cudaGraphAddMemsetNode(&zero, child, nullptr, 0, &mp);
  void* inc_args[] = {&dc, &size};
  kp.func = (void*)increment;
  kp.kernelParams = inc_args;
  cudaGraphAddKernelNode(&inc, child, &zero, 1, &kp);
  cudaGraphAddMemcpyNode1D(&out, child, &inc, 1, hc, dc, sizeof hc, cudaMemcpyDeviceToHost);
  cudaGraphAddChildGraphNode(&child_node, g, &host_node, 1, child);
  cudaGraphNode_t ends[] = {child_node, copy_out};
  cudaGraphAddEmptyNode(&done, g, ends, 2);

  size_t nodes = 0, roots = 0, edges = 0;
  cudaGraphGetNodes(g, nullptr, &nodes);
  cudaGraphGetRootNodes(g, nullptr, &roots);
  cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &edges);
  cudaGraphNodeType host_type, child_type;
  cudaGraphNodeGetType(host_node, &host_type);
  cudaGraphNodeGetType(child_node, &child_type);
  // 8 nodes; roots set and copy_b; edges set->twice, twice->axpy, copy_b->axpy, axpy->host, axpy->copy_out,
  // host->child, child->done, copy_out->done.
  printf("graph: %zu nodes, %zu roots, %zu edges, types host %d child %d\n", nodes, roots, edges,
         host_type == cudaGraphNodeTypeHost, child_type == cudaGraphNodeTypeGraph);

  auto check = [&](const char* what) {
    int a_ok = 0, c_ok = 0;
    for (int i = 0; i < n; ++i) a_ok += ha[i] == 2 * 7 + 3 * hb[i], c_ok += hc[i] == 1;
    printf("%s: a %d of %d, c %d of %d, host node ran %d\n", what, a_ok, n, c_ok, n, host_calls);
  };
  cudaGraphExec_t exec;
  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) return 1;
  cudaGraphLaunch(exec, 0);
  cudaDeviceSynchronize();
  check("launch 1");
  cudaGraph_t copy;
  cudaGraphClone(&copy, g);
  cudaGraphExec_t exec2;
  if (cudaGraphInstantiate(&exec2, copy, 0) != cudaSuccess) return 1;
  for (int i = 0; i < n; ++i) ha[i] = hc[i] = -1;
  cudaGraphLaunch(exec2, 0);
  cudaDeviceSynchronize();
  check("launch 2 (clone)");

  printf("missing edge removed: %s\n", cudaGetErrorName(cudaGraphRemoveDependencies(g, &copy_b, &set_node, nullptr, 1)));
  cudaGetLastError();
  cudaGraphExec_t cyclic;
  cudaError_t added = cudaGraphAddDependencies(g, &done, &set_node, nullptr, 1);  // done -> set -> ... -> done
  printf("cycle refused: %d\n", added != cudaSuccess || cudaGraphInstantiate(&cyclic, g, 0) != cudaSuccess);
  return 0;
}
