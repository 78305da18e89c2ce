// Hardware probe: what the real CUDA runtime returns where tests/exec programs' expectations differed on an H200.
// Run on the H200 on 2026-11-30 (11:28 UTC); its output is tests/hardware/h200/probes-runtime.txt, and the runtime
// changes of that session (docs/exec.md) follow it.
#include <cstdio>
#include <cstdlib>

#define P(...) std::printf(__VA_ARGS__)
#define N(e) cudaGetErrorName(e)

__global__ void empty_kernel() {}
__global__ void add(int* out, int k) { *out += k; }
__global__ void set_from(unsigned v, cudaGraphConditionalHandle h) { cudaGraphSetConditional(h, v); }
void nothing(void*) {}

cudaError_t add_cond(cudaGraph_t g, cudaGraphConditionalHandle h, cudaGraphConditionalNodeType type, unsigned size, cudaGraph_t* bodies,
                     cudaGraphNode_t* node) {
  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeConditional;
  p.conditional.handle = h;
  p.conditional.type = type;
  p.conditional.size = size;
  cudaError_t e = cudaGraphAddNode(node, g, nullptr, nullptr, 0, &p);
  for (unsigned i = 0; e == cudaSuccess && i < size; ++i) bodies[i] = p.conditional.phGraph_out[i];
  return e;
}

void conditional() {
  cudaGraph_t g, other, bodies[3];
  cudaGraphNode_t node;
  cudaGraphConditionalHandle h, foreign;
  cudaGraphCreate(&g, 0);
  cudaGraphCreate(&other, 0);
  cudaGraphConditionalHandleCreate(&h, g, 0, 0);
  cudaGraphConditionalHandleCreate(&foreign, other, 0, 0);
  P("cond: fresh h add: %s\n", N(add_cond(g, h, cudaGraphCondTypeIf, 1, bodies, &node)));
  P("cond: h again in a second node: %s\n", N(add_cond(g, h, cudaGraphCondTypeIf, 1, bodies, &node)));
  cudaGetLastError();
  cudaGraph_t g2;
  cudaGraphCreate(&g2, 0);
  cudaGraphConditionalHandle h2, f2;
  cudaGraphConditionalHandleCreate(&h2, g2, 0, 0);
  cudaGraphConditionalHandleCreate(&f2, other, 0, 0);
  P("cond: while size 2: %s\n", N(add_cond(g2, h2, cudaGraphCondTypeWhile, 2, bodies, &node)));
  cudaGetLastError();
  P("cond: after a failed add, h2: %s\n", N(add_cond(g2, h2, cudaGraphCondTypeIf, 1, bodies, &node)));
  cudaGetLastError();
  cudaGraph_t g3;
  cudaGraphCreate(&g3, 0);
  cudaGraphNode_t fnode;
  P("cond: foreign handle in a fresh graph: %s\n", N(add_cond(g3, f2, cudaGraphCondTypeIf, 1, bodies, &fnode)));
  cudaGetLastError();
  cudaGraphExec_t ex;
  P("cond: instantiate graph with foreign-handle node: %s\n", N(cudaGraphInstantiate(&ex, g3, 0)));
  cudaGetLastError();
  cudaGraph_t g4;
  cudaGraphCreate(&g4, 0);
  cudaGraphConditionalHandle h4;
  cudaGraphConditionalHandleCreate(&h4, g4, 0, 0);
  P("cond: g4 add: %s\n", N(add_cond(g4, h4, cudaGraphCondTypeIf, 1, bodies, &node)));
  cudaHostNodeParams hp = {nothing, nullptr};
  P("cond: host node added to body: %s\n", N(cudaGraphAddHostNode(&node, bodies[0], nullptr, 0, &hp)));
  cudaGetLastError();
  P("cond: instantiate with host node in body: %s\n", N(cudaGraphInstantiate(&ex, g4, 0)));
  cudaGetLastError();
}

void exec_set_params() {
  int* d;
  cudaMalloc(&d, 4);
  cudaGraph_t g, other;
  cudaGraphCreate(&g, 0);
  cudaGraphCreate(&other, 0);
  cudaGraphNode_t k, e, fk, fe;
  int one = 1;
  void* args[] = {&d, &one};
  cudaKernelNodeParams kp = {};
  kp.func = (void*)add;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(1);
  kp.kernelParams = args;
  cudaGraphAddKernelNode(&k, g, nullptr, 0, &kp);
  cudaGraphAddEmptyNode(&e, g, &k, 1);
  cudaGraphAddKernelNode(&fk, other, nullptr, 0, &kp);
  cudaGraphAddEmptyNode(&fe, other, nullptr, 0);
  cudaGraphExec_t ex;
  cudaGraphInstantiate(&ex, g, 0);
  cudaGraphNodeParams empty = {};
  empty.type = cudaGraphNodeTypeEmpty;
  cudaGraphNodeParams kern = {};
  kern.type = cudaGraphNodeTypeKernel;
  kern.kernel.func = (void*)add;
  kern.kernel.gridDim = dim3(1);
  kern.kernel.blockDim = dim3(1);
  kern.kernel.kernelParams = args;
  P("execset: foreign empty node, empty params: %s\n", N(cudaGraphExecNodeSetParams(ex, fe, &empty)));
  cudaGetLastError();
  P("execset: own empty node, empty params: %s\n", N(cudaGraphExecNodeSetParams(ex, e, &empty)));
  cudaGetLastError();
  P("execset: foreign kernel node, kernel params: %s\n", N(cudaGraphExecNodeSetParams(ex, fk, &kern)));
  cudaGetLastError();
  P("execset: own kernel node, empty params: %s\n", N(cudaGraphExecNodeSetParams(ex, k, &empty)));
  cudaGetLastError();
  P("execset: foreign kernel node, kernel node call: %s\n", N(cudaGraphExecKernelNodeSetParams(ex, fk, &kp)));
  cudaGetLastError();
}

void edge_moved() {
  cudaGraph_t a, b;
  cudaGraphCreate(&a, 0);
  cudaGraphCreate(&b, 0);
  cudaGraphNode_t a0, a1, a2, b0, b1, b2;
  cudaGraphAddEmptyNode(&a0, a, nullptr, 0);
  cudaGraphAddEmptyNode(&a1, a, &a0, 1);
  cudaGraphAddEmptyNode(&a2, a, &a1, 1);
  cudaGraphAddEmptyNode(&b0, b, nullptr, 0);
  cudaGraphAddEmptyNode(&b1, b, &b0, 1);
  cudaGraphAddEmptyNode(&b2, b, &b0, 1);  // b2 after b0, not b1
  cudaGraphExec_t ex;
  cudaGraphInstantiate(&ex, a, 0);
  cudaGraphExecUpdateResultInfo info;
  cudaError_t e = cudaGraphExecUpdate(ex, b, &info);
  P("edge: %s result %d node b2 %d b1 %d a2 %d null %d; from null %d b0 %d b1 %d a0 %d a1 %d\n", N(e), info.result, info.errorNode == b2,
    info.errorNode == b1, info.errorNode == a2, info.errorNode == nullptr, info.errorFromNode == nullptr, info.errorFromNode == b0,
    info.errorFromNode == b1, info.errorFromNode == a0, info.errorFromNode == a1);
  cudaGetLastError();
}

void host_register() {
  int* h = static_cast<int*>(std::malloc(4096 * 4));
  P("hostreg: register %s\n", N(cudaHostRegister(h, 4096 * 4, 0)));
  cudaError_t e1 = cudaHostUnregister(h + 1);
  cudaError_t last = cudaGetLastError();
  P("hostreg: unregister h+1 %s (last %s)\n", N(e1), N(last));
  cudaError_t e2 = cudaHostUnregister(h);
  P("hostreg: then unregister h %s\n", N(e2));
  cudaGetLastError();
  int* h2 = static_cast<int*>(std::malloc(4096 * 4));
  P("hostreg: unregister never-registered %s\n", N(cudaHostUnregister(h2)));
  cudaGetLastError();
  cudaHostRegister(h2, 4096 * 4, 0);
  P("hostreg: unregister h2+1024 (next page) %s\n", N(cudaHostUnregister(h2 + 1024)));
  cudaGetLastError();
  P("hostreg: then unregister h2 %s\n", N(cudaHostUnregister(h2)));
  cudaGetLastError();
}

void mipmap() {
  cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
  cudaMipmappedArray_t m;
  P("mip: alloc %s\n", N(cudaMallocMipmappedArray(&m, &f, make_cudaExtent(16, 8, 0), 5, 0)));
  cudaArray_t l1;
  cudaGetMipmappedArrayLevel(&l1, m, 1);
  cudaError_t e = cudaFreeArray(l1);
  P("mip: cudaFreeArray(level 1) %s, last %s\n", N(e), N(cudaGetLastError()));
  P("mip: free the mipmapped array %s\n", N(cudaFreeMipmappedArray(m)));
  cudaGetLastError();
}

void occupancy() {
  int reserved = -1, smem_sm = -1, optin = -1;
  cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, 0);
  cudaDeviceGetAttribute(&smem_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0);
  cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
  P("occ: reserved %d per SM %d optin %d\n", reserved, smem_sm, optin);
  const int blocks[] = {1, 2, 3, 4, 5, 7, 8, 9, 16, 32};
  for (int b : blocks) {
    size_t s = 0;
    cudaError_t e = cudaOccupancyAvailableDynamicSMemPerBlock(&s, (const void*)empty_kernel, b, 128);
    P("occ: %d blocks of 128: %zu %s\n", b, s, N(e));
  }
  size_t s = 0;
  cudaError_t e = cudaOccupancyAvailableDynamicSMemPerBlock(&s, (const void*)empty_kernel, 8, 1024);
  P("occ: 8 blocks of 1024: %zu %s\n", s, N(e));
  e = cudaOccupancyAvailableDynamicSMemPerBlock(&s, (const void*)empty_kernel, 2, 1024);
  P("occ: 2 blocks of 1024: %zu %s\n", s, N(e));
  cudaGetLastError();
}

void mempool() {
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  props.maxSize = 8192;
  cudaMemPool_t pool;
  P("pool: create %s\n", N(cudaMemPoolCreate(&pool, &props)));
  cudaStream_t s;
  cudaStreamCreate(&s);
  const size_t sizes[] = {16384, 1 << 20, 2 << 20, 3 << 20, 64 << 20};
  for (size_t z : sizes) {
    void* a = nullptr;
    cudaError_t e = cudaMallocFromPoolAsync(&a, z, pool, s);
    P("pool: %zu from maxSize 8192: %s\n", z, N(e));
    cudaGetLastError();
  }
  cudaStreamSynchronize(s);
  props.maxSize = 4 << 20;
  cudaMemPool_t p4;
  cudaMemPoolCreate(&p4, &props);
  void *a, *b, *c;
  cudaError_t e1 = cudaMallocFromPoolAsync(&a, 3 << 20, p4, s);
  cudaError_t e2 = cudaMallocFromPoolAsync(&b, 3 << 20, p4, s);
  cudaError_t e3 = cudaMallocFromPoolAsync(&c, 64 << 20, p4, s);
  P("pool: maxSize 4 MiB: 3 MiB %s, 3 MiB more %s, 64 MiB %s\n", N(e1), N(e2), N(e3));
  cudaGetLastError();
  cudaStreamSynchronize(s);
  cudaGetLastError();
}

void capture() {
  int *d, hbuf[4];
  cudaMalloc(&d, 16);
  cudaStream_t nb;
  cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking);
  cudaGraph_t g;
  cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal);
  cudaError_t c = cudaMemcpy(hbuf, d, 16, cudaMemcpyDeviceToHost);
  cudaError_t e = cudaStreamEndCapture(nb, &g);
  P("capture: nonblocking global: copy %s end %s\n", N(c), N(e));
  cudaGetLastError();
  cudaStreamBeginCapture(nb, cudaStreamCaptureModeRelaxed);
  c = cudaMemcpy(hbuf, d, 16, cudaMemcpyDeviceToHost);
  e = cudaStreamEndCapture(nb, &g);
  P("capture: nonblocking relaxed: copy %s end %s\n", N(c), N(e));
  cudaGetLastError();
  cudaStream_t bl;
  cudaStreamCreate(&bl);
  cudaStreamBeginCapture(bl, cudaStreamCaptureModeGlobal);
  void* m = nullptr;
  c = cudaMalloc(&m, 16);
  e = cudaStreamEndCapture(bl, &g);
  P("capture: blocking global: malloc %s end %s\n", N(c), N(e));
  cudaGetLastError();
  cudaStreamBeginCapture(bl, cudaStreamCaptureModeGlobal);
  c = cudaMemset(d, 0, 16);
  e = cudaStreamEndCapture(bl, &g);
  P("capture: blocking global: memset %s end %s\n", N(c), N(e));
  cudaGetLastError();
  cudaStreamBeginCapture(bl, cudaStreamCaptureModeRelaxed);
  empty_kernel<<<1, 1>>>();
  c = cudaGetLastError();
  e = cudaStreamEndCapture(bl, &g);
  P("capture: blocking relaxed: launch on the legacy stream %s end %s\n", N(c), N(e));
  cudaGetLastError();
  cudaStreamBeginCapture(bl, cudaStreamCaptureModeGlobal);
  c = cudaDeviceSynchronize();
  e = cudaStreamEndCapture(bl, &g);
  P("capture: blocking global: device sync %s end %s\n", N(c), N(e));
  cudaGetLastError();
}

void event_external() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaEvent_t ev;
  cudaEventCreate(&ev);
  cudaError_t r = cudaEventRecordWithFlags(ev, s, cudaEventRecordExternal);
  cudaError_t w = cudaStreamWaitEvent(s, ev, cudaEventWaitExternal);
  P("event: outside capture record external %s wait external %s\n", N(r), N(w));
  cudaGetLastError();
}

int main() {
  cudaFree(0);
  occupancy();
  host_register();
  mipmap();
  exec_set_params();
  edge_moved();
  mempool();
  capture();
  event_external();
  conditional();
  // last: the unknown handle may fault
  set_from<<<1, 1>>>(1, 12345);
  P("cond: unknown handle from a kernel outside graphs: %s\n", N(cudaDeviceSynchronize()));
  return 0;
}
