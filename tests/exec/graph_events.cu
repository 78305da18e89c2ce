// expect-exit: 0
// expect-stdout: before any launch: cudaErrorInvalidResourceHandle
// expect-stdout: record nodes after their dependencies: graph time equals stream time 1, positive 1
// expect-stdout: record node: type 7, event is stop 1, wrong kind cudaErrorInvalidValue, no event cudaErrorInvalidValue
// expect-stdout: exec set event: fresh recorded cudaSuccess, same time 1, graph node still stop 1
// expect-stdout: graph set event: node gives other 1, old exec records other: cudaErrorInvalidResourceHandle
// expect-stdout: wait node: type 6, event is ready 1, set to other 1, wrong kind cudaErrorInvalidValue, no event cudaErrorInvalidValue
// expect-stdout: wait node then kernel: 256 of 256 = 15
// expect-stdout: cudaGraphAddNode: wait type 6 record type 7, exec set wait event cudaSuccess
// expect-stdout: captured: 4 nodes, types 0 7 6 0, chain 1, events 1
// expect-stdout: captured graph: recorded before launch cudaErrorInvalidResourceHandle, after cudaSuccess, 256 of 256 = 18
// measured on an H200 (tests/hardware/h200/exec.txt):
// expect-stdout: outside a capture: record external cudaErrorIllegalState, wait external cudaErrorIllegalState, flags 2 cudaErrorInvalidValue cudaErrorInvalidValue
// expect-stdout: update: cudaSuccess, records the new graph's event 1, not the old one's cudaErrorInvalidResourceHandle
// expect-stdout: in a conditional body: wait node cudaErrorInvalidValue, record node cudaErrorInvalidValue
// Event record and event wait nodes (CUDA Runtime API, "Graph Management"), expected values from those pages:
// - cudaGraphAddEventRecordNode: "Each launch of the graph will record event to capture execution of the node's
//   dependencies". A stop record node added first, as a root, and only later made to depend on a kernel (which
//   depends on a start record node) records after the kernel: cudaEventElapsedTime(start, stop) is the kernel's
//   time, the same as when the kernel is timed by events in a stream, and positive. Before any launch the events
//   were never recorded: cudaEventElapsedTime is cudaErrorInvalidResourceHandle ("If cudaEventRecord() has not
//   been called on either event").
// - Get/SetEvent return and change the node's event; a node of another kind, or a null event, is
//   cudaErrorInvalidValue. cudaGraphExecEventRecordNodeSetEvent changes later launches of that exec only ("hNode
//   is also not modified"); changing the graph's node does not change an exec made before.
// - cudaGraphAddEventWaitNode: "The graph node will wait for all work captured in event": a kernel after a wait on
//   an event recorded after a fill (5) in another stream adds 10 to the filled values: 15.
// - Capture: cudaEventRecordWithFlags(cudaEventRecordExternal) and cudaStreamWaitEvent(cudaEventWaitExternal) are
//   "captured in the graph as an external event node": kernel, record, wait, kernel (+1, +2 on 15: 18), each
//   depending on the one before. Outside a capture both flags are invalid (driver API, CU_EVENT_RECORD_EXTERNAL and
//   CU_EVENT_WAIT_EXTERNAL: "This flag is invalid when used outside of capture": cudaErrorIllegalState on an
//   H200), and an unknown flag is cudaErrorInvalidValue.
// - cudaGraphExecUpdate: "event record: Unrestricted" — the exec records the new graph's event.
// - Event nodes "may not be used in loops or conditionals": instantiating a graph whose conditional body holds
//   one is cudaErrorInvalidValue.
#include "check_call.cuh"

__global__ void add(int* a, int k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += k;
}
__global__ void fill(int* a, int v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = v;
}

const int n = 256;
int* d;
int size = n;
int k1 = 1;

cudaError_t add_kernel(cudaGraph_t g, const cudaGraphNode_t* deps, size_t count, int* k, cudaGraphNode_t* out) {
  static void* args[3];
  args[0] = &d;
  args[1] = k;
  args[2] = &size;
  cudaKernelNodeParams kp = {};
  kp.func = (void*)add;
  kp.gridDim = dim3(n / 128);
  kp.blockDim = dim3(128);
  kp.kernelParams = args;
  return cudaGraphAddKernelNode(out, g, deps, count, &kp);
}
int count_equal(int value) {
  static int h[n];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int ok = 0;
  for (int i = 0; i < n; ++i) ok += h[i] == value;
  return ok;
}
// The time the kernel takes when events in a stream bracket it.
int stream_time(float& ms) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  CHECK(cudaEventRecord(a, 0));
  add<<<n / 128, 128>>>(d, 1, n);
  CHECK(cudaEventRecord(b, 0));
  CHECK(cudaEventSynchronize(b));
  CHECK(cudaEventElapsedTime(&ms, a, b));
  return 0;
}

int record_nodes() {
  cudaEvent_t start, stop, fresh, other;
  for (cudaEvent_t* ev : {&start, &stop, &fresh, &other}) CHECK(cudaEventCreate(ev));
  cudaGraph_t g;
  cudaGraphNode_t stop_node, start_node, kernel;
  CHECK(cudaGraphCreate(&g, 0));
  CHECK(cudaGraphAddEventRecordNode(&stop_node, g, nullptr, 0, stop));
  CHECK(cudaGraphAddEventRecordNode(&start_node, g, nullptr, 0, start));
  CHECK(add_kernel(g, &start_node, 1, &k1, &kernel));
  CHECK(cudaGraphAddDependencies(g, &kernel, &stop_node, nullptr, 1));
  float ms = 0, reference = 0;
  printf("before any launch: %s\n", cudaGetErrorName(cudaEventElapsedTime(&ms, start, stop)));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaEventSynchronize(stop));
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  if (stream_time(reference)) return 1;
  printf("record nodes after their dependencies: graph time equals stream time %d, positive %d\n", ms == reference, ms > 0);

  cudaGraphNodeType type;
  cudaEvent_t got = nullptr;
  CHECK(cudaGraphNodeGetType(stop_node, &type));
  CHECK(cudaGraphEventRecordNodeGetEvent(stop_node, &got));
  printf("record node: type %d, event is stop %d, wrong kind %s, no event %s\n", (int)type, got == stop,
         cudaGetErrorName(cudaGraphEventRecordNodeGetEvent(kernel, &got)), cudaGetErrorName(cudaGraphEventRecordNodeSetEvent(stop_node, nullptr)));

  CHECK(cudaGraphExecEventRecordNodeSetEvent(exec, stop_node, fresh));
  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaDeviceSynchronize());
  cudaError_t fresh_recorded = cudaEventElapsedTime(&ms, start, fresh);
  CHECK(cudaGraphEventRecordNodeGetEvent(stop_node, &got));
  printf("exec set event: fresh recorded %s, same time %d, graph node still stop %d\n", cudaGetErrorName(fresh_recorded), ms == reference,
         got == stop);

  CHECK(cudaGraphEventRecordNodeSetEvent(stop_node, other));
  CHECK(cudaGraphEventRecordNodeGetEvent(stop_node, &got));
  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaDeviceSynchronize());
  printf("graph set event: node gives other %d, old exec records other: %s\n", got == other,
         cudaGetErrorName(cudaEventElapsedTime(&ms, other, other)));
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(g);
  return 0;
}

int wait_nodes() {
  cudaEvent_t ready, other;
  cudaStream_t s1, s2;
  CHECK(cudaEventCreate(&ready));
  CHECK(cudaEventCreate(&other));
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaStreamCreate(&s2));
  cudaGraph_t g;
  cudaGraphNode_t wait, kernel;
  int k10 = 10;
  CHECK(cudaGraphCreate(&g, 0));
  CHECK(cudaGraphAddEventWaitNode(&wait, g, nullptr, 0, ready));
  CHECK(add_kernel(g, &wait, 1, &k10, &kernel));
  cudaGraphNodeType type;
  cudaEvent_t got = nullptr, got2 = nullptr;
  CHECK(cudaGraphNodeGetType(wait, &type));
  CHECK(cudaGraphEventWaitNodeGetEvent(wait, &got));
  CHECK(cudaGraphEventWaitNodeSetEvent(wait, other));
  CHECK(cudaGraphEventWaitNodeGetEvent(wait, &got2));
  cudaGraphNode_t null_wait;
  printf("wait node: type %d, event is ready %d, set to other %d, wrong kind %s, no event %s\n", (int)type, got == ready, got2 == other,
         cudaGetErrorName(cudaGraphEventWaitNodeGetEvent(kernel, &got)),
         cudaGetErrorName(cudaGraphAddEventWaitNode(&null_wait, g, nullptr, 0, nullptr)));
  CHECK(cudaGraphEventWaitNodeSetEvent(wait, ready));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  fill<<<n / 128, 128, 0, s1>>>(d, 5, n);
  CHECK(cudaEventRecord(ready, s1));
  CHECK(cudaGraphLaunch(exec, s2));
  CHECK(cudaStreamSynchronize(s2));
  printf("wait node then kernel: %d of %d = 15\n", count_equal(15), n);

  cudaGraphNodeParams p = {};
  cudaGraphNode_t generic_wait, generic_record;
  p.type = cudaGraphNodeTypeWaitEvent;
  p.eventWait.event = ready;
  CHECK(cudaGraphAddNode(&generic_wait, g, nullptr, nullptr, 0, &p));
  p = {};
  p.type = cudaGraphNodeTypeEventRecord;
  p.eventRecord.event = other;
  CHECK(cudaGraphAddNode(&generic_record, g, &generic_wait, nullptr, 1, &p));
  cudaGraphNodeType t1, t2;
  CHECK(cudaGraphNodeGetType(generic_wait, &t1));
  CHECK(cudaGraphNodeGetType(generic_record, &t2));
  printf("cudaGraphAddNode: wait type %d record type %d, exec set wait event %s\n", (int)t1, (int)t2,
         cudaGetErrorName(cudaGraphExecEventWaitNodeSetEvent(exec, wait, other)));
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(g);
  return 0;
}

int captured() {
  cudaStream_t s;
  cudaEvent_t recorded, waited;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaEventCreate(&recorded));
  CHECK(cudaEventCreate(&waited));
  cudaGraph_t g;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  add<<<n / 128, 128, 0, s>>>(d, 1, n);
  CHECK(cudaEventRecordWithFlags(recorded, s, cudaEventRecordExternal));
  CHECK(cudaStreamWaitEvent(s, waited, cudaEventWaitExternal));
  add<<<n / 128, 128, 0, s>>>(d, 2, n);
  CHECK(cudaStreamEndCapture(s, &g));
  cudaGraphNode_t nodes[8];
  size_t count = 8;
  CHECK(cudaGraphGetNodes(g, nodes, &count));
  int types[4] = {-1, -1, -1, -1}, chain = count == 4;
  for (size_t i = 0; i < count && i < 4; ++i) {
    cudaGraphNodeType t;
    CHECK(cudaGraphNodeGetType(nodes[i], &t));
    types[i] = t;
    cudaGraphNode_t dep = nullptr;
    size_t ndeps = 1;
    CHECK(cudaGraphNodeGetDependencies(nodes[i], &dep, nullptr, &ndeps));
    chain &= i == 0 ? ndeps == 0 : ndeps == 1 && dep == nodes[i - 1];
  }
  cudaEvent_t r = nullptr, w = nullptr;
  if (count == 4) {
    CHECK(cudaGraphEventRecordNodeGetEvent(nodes[1], &r));
    CHECK(cudaGraphEventWaitNodeGetEvent(nodes[2], &w));
  }
  printf("captured: %zu nodes, types %d %d %d %d, chain %d, events %d\n", count, types[0], types[1], types[2], types[3], chain,
         r == recorded && w == waited);
  float ms;
  cudaError_t before = cudaEventElapsedTime(&ms, recorded, recorded);
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  fill<<<n / 128, 128>>>(d, 15, n);
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  cudaError_t after = cudaEventElapsedTime(&ms, recorded, recorded);
  printf("captured graph: recorded before launch %s, after %s, %d of %d = 18\n", cudaGetErrorName(before), cudaGetErrorName(after),
         count_equal(18), n);
  cudaError_t r_ext = cudaEventRecordWithFlags(recorded, s, cudaEventRecordExternal);
  cudaError_t w_ext = cudaStreamWaitEvent(s, waited, cudaEventWaitExternal);
  cudaError_t r2 = cudaEventRecordWithFlags(recorded, s, 2), w2 = cudaStreamWaitEvent(s, waited, 2);
  cudaGetLastError();
  printf("outside a capture: record external %s, wait external %s, flags 2 %s %s\n", cudaGetErrorName(r_ext), cudaGetErrorName(w_ext),
         cudaGetErrorName(r2), cudaGetErrorName(w2));
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(g);
  return 0;
}

// An exec of a graph recording `a`, updated from the same graph recording `b`.
int update() {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  cudaGraph_t g1, g2;
  cudaGraphNode_t k, r;
  CHECK(cudaGraphCreate(&g1, 0));
  CHECK(cudaGraphCreate(&g2, 0));
  CHECK(add_kernel(g1, nullptr, 0, &k1, &k));
  CHECK(cudaGraphAddEventRecordNode(&r, g1, &k, 1, a));
  CHECK(add_kernel(g2, nullptr, 0, &k1, &k));
  CHECK(cudaGraphAddEventRecordNode(&r, g2, &k, 1, b));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g1, 0));
  cudaGraphExecUpdateResultInfo info;
  cudaError_t e = cudaGraphExecUpdate(exec, g2, &info);
  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaDeviceSynchronize());
  float ms;
  printf("update: %s, records the new graph's event %d, not the old one's %s\n", cudaGetErrorName(e),
         cudaEventElapsedTime(&ms, b, b) == cudaSuccess, cudaGetErrorName(cudaEventElapsedTime(&ms, a, a)));
  return 0;
}

// A graph whose IF body holds one event node of the kind `record` says; the error of instantiating it.
cudaError_t conditional_body(bool record, cudaEvent_t e) {
  cudaGraph_t g;
  cudaGraphConditionalHandle h;
  cudaGraphCreate(&g, 0);
  cudaGraphConditionalHandleCreate(&h, g, 1, 0);
  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeConditional;
  p.conditional.handle = h;
  p.conditional.type = cudaGraphCondTypeIf;
  p.conditional.size = 1;
  cudaGraphNode_t cond, inner;
  if (cudaGraphAddNode(&cond, g, nullptr, nullptr, 0, &p) != cudaSuccess) return cudaErrorUnknown;
  cudaGraph_t body = p.conditional.phGraph_out[0];
  if ((record ? cudaGraphAddEventRecordNode(&inner, body, nullptr, 0, e) : cudaGraphAddEventWaitNode(&inner, body, nullptr, 0, e)) != cudaSuccess)
    return cudaErrorUnknown;
  cudaGraphExec_t exec;
  cudaError_t err = cudaGraphInstantiate(&exec, g, 0);
  cudaGetLastError();
  return err;
}

int main() {
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  if (record_nodes() || wait_nodes() || captured() || update()) return 1;
  cudaEvent_t body_event;
  CHECK(cudaEventCreate(&body_event));
  printf("in a conditional body: wait node %s, record node %s\n", cudaGetErrorName(conditional_body(false, body_event)),
         cudaGetErrorName(conditional_body(true, body_event)));
  return 0;
}
