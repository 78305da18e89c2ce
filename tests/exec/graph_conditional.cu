// expect-exit: 0
// expect-stdout: while: launch 1 ran 5 times, counter 0; launch 2 ran 3 times, counter 0
// expect-stdout: captured body: 1 node
// expect-stdout: while with value 0 at launch: ran 0 times
// expect-stdout: if/else: flag 1 -> 10, flag 0 -> 30, flag 7 -> 40
// expect-stdout: switch: 0 -> 100, 1 -> 300, 2 -> 600, 7 -> 600, 3 -> 600
// expect-stdout: nested if in while: 5 iterations, 3 even
// expect-stdout: node type 13
// expect-stdout: while of size 2: cudaErrorInvalidValue
// expect-stdout: if of size 3: cudaErrorInvalidValue
// expect-stdout: switch of size 0: cudaErrorInvalidValue
// expect-stdout: handle flags 2: cudaErrorInvalidValue
// measured on an H200 (tests/hardware/h200/exec.txt, and a probe of the same calls for the lines after it stopped):
// expect-stdout: handle of another graph: cudaErrorInvalidValue
// expect-stdout: second instantiation: cudaErrorNotSupported
// expect-stdout: as a child graph: cudaErrorNotSupported
// expect-stdout: clone refused: 1
// expect-stdout: a second node of one handle: cudaErrorInvalidValue
// expect-stdout: host node in a body: cudaErrorInvalidValue
// expect-stdout: unknown handle: cudaErrorIllegalAddress
// expect-stderr: which no cudaGraphConditionalHandleCreate gave
// Conditional graph nodes (cudaConditionalNodeParams in driver_types.h; the Programming Guide's "Conditional Graph
// Nodes"), values set by kernels with the device-side cudaGraphSetConditional. Expected values by hand:
// - WHILE checks before the first run and after each: a body that decrements a counter from 5 and sets the value
//   to (counter != 0) runs 5 times; relaunched from 3 it runs 3 times (cudaGraphCondAssignDefault gives the value
//   1 again at the launch). A handle whose default is 0 runs its body 0 times.
// - IF with an else body (size 2): value 1 adds 10, value 0 adds 20 (0 + 10, + 20, + 10 = 10, 30, 40; any nonzero
//   value is "true").
// - SWITCH of 3 bodies adding 100, 200, 300: values 0, 1, 2 -> 100, 300, 600; 7 and 3 (>= size) run none.
// - An IF inside a WHILE body: the counter 5 is decremented to 4, 3, 2, 1, 0 (5 iterations), the IF's value is
//   (counter even): 4, 2, 0 -> 3.
// - Errors the Runtime API states: sizes other than 1 for WHILE, 1 or 2 for IF, > 0 for SWITCH; handle flags
//   other than 0 or cudaGraphCondAssignDefault; a graph with conditional nodes "cannot be used in a child node",
//   has "only one instantiation ... at any point in time", "cannot be cloned"; a body may hold only kernel,
//   empty, child graph, memset, memcpy and conditional nodes. The codes are an H200's: cudaErrorNotSupported for
//   the child graph and the second instantiation, cudaErrorInvalidValue for a second node of one handle (which
//   the API does not state).
// - A handle of another graph is refused. (On an H200 handles are numbered per graph: the first handle of another
//   graph passes for this graph's first one, so the foreign handle here is its graph's second.)
// - A kernel setting a handle no cudaGraphConditionalHandleCreate gave faults: an illegal address on an H200.
#include "check_call.cuh"

#include <cstdio>

__global__ void count_down(int* counter, int* iterations, cudaGraphConditionalHandle h) {
  *counter -= 1;
  *iterations += 1;
  cudaGraphSetConditional(h, *counter != 0);
}
__global__ void count_down_even(int* counter, int* iterations, cudaGraphConditionalHandle loop, cudaGraphConditionalHandle even) {
  *counter -= 1;
  *iterations += 1;
  cudaGraphSetConditional(loop, *counter != 0);
  cudaGraphSetConditional(even, *counter % 2 == 0);
}
__global__ void set_from(const unsigned* value, cudaGraphConditionalHandle h) { cudaGraphSetConditional(h, *value); }
__global__ void add(int* out, int k) { *out += k; }
void nothing(void*) {}

struct Device {
  int* counter;
  int* iterations;
  int* out;
  unsigned* value;
};

// A kernel node of one thread in `g` after `deps`, through the generic cudaGraphAddNode.
cudaError_t add_kernel(cudaGraph_t g, cudaGraphNode_t* deps, int ndeps, void* func, void** args, cudaGraphNode_t* node) {
  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeKernel;
  p.kernel.func = func;
  p.kernel.gridDim = dim3(1);
  p.kernel.blockDim = dim3(1);
  p.kernel.kernelParams = args;
  return cudaGraphAddNode(node, g, deps, nullptr, ndeps, &p);
}
cudaError_t add_conditional(cudaGraph_t g, cudaGraphNode_t* deps, int ndeps, cudaGraphConditionalHandle h, cudaGraphConditionalNodeType type,
                            unsigned size, cudaGraph_t* bodies, cudaGraphNode_t* node) {
  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeConditional;
  p.conditional.handle = h;
  p.conditional.type = type;
  p.conditional.size = size;
  cudaError_t e = cudaGraphAddNode(node, g, deps, nullptr, ndeps, &p);
  for (unsigned i = 0; e == cudaSuccess && i < size; ++i) bodies[i] = p.conditional.phGraph_out[i];
  return e;
}
int get(const int* d) {
  int v = 0;
  cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost);
  return v;
}
void put(int* d, int v) { cudaMemcpy(d, &v, sizeof v, cudaMemcpyHostToDevice); }

int while_loop(Device& d) {
  cudaGraph_t g, body;
  cudaGraphCreate(&g, 0);
  cudaGraphConditionalHandle h;
  CHECK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
  cudaGraphNode_t loop, dec;
  CHECK(add_conditional(g, nullptr, 0, h, cudaGraphCondTypeWhile, 1, &body, &loop));
  // The body by stream capture into it, as the Programming Guide's WHILE example does.
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaStreamBeginCaptureToGraph(s, body, nullptr, nullptr, 0, cudaStreamCaptureModeRelaxed));
  count_down<<<1, 1, 0, s>>>(d.counter, d.iterations, h);
  CHECK(cudaStreamEndCapture(s, nullptr));
  size_t body_nodes = 0;
  CHECK(cudaGraphGetNodes(body, nullptr, &body_nodes));
  std::printf("captured body: %zu node\n", body_nodes);
  cudaGraphNodeType type;
  CHECK(cudaGraphNodeGetType(loop, &type));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  int runs[2], left[2];
  const int start[2] = {5, 3};
  for (int launch = 0; launch < 2; ++launch) {
    put(d.counter, start[launch]);
    put(d.iterations, 0);
    CHECK(cudaGraphLaunch(exec, 0));
    CHECK(cudaDeviceSynchronize());
    runs[launch] = get(d.iterations);
    left[launch] = get(d.counter);
  }
  std::printf("while: launch 1 ran %d times, counter %d; launch 2 ran %d times, counter %d\n", runs[0], left[0], runs[1], left[1]);
  std::printf("node type %d\n", (int)type);
  cudaGraphNode_t extra;
  cudaGraphExec_t second;
  std::printf("second instantiation: %s\n", cudaGetErrorName(cudaGraphInstantiate(&second, g, 0)));
  cudaGraph_t parent, clone;
  cudaGraphCreate(&parent, 0);
  std::printf("as a child graph: %s\n", cudaGetErrorName(cudaGraphAddChildGraphNode(&extra, parent, nullptr, 0, g)));
  std::printf("clone refused: %d\n", cudaGraphClone(&clone, g) != cudaSuccess);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(g);
  cudaGraphDestroy(parent);

  // A handle whose default is 0: the WHILE body never runs.
  cudaGraphCreate(&g, 0);
  CHECK(cudaGraphConditionalHandleCreate(&h, g, 0, cudaGraphCondAssignDefault));
  CHECK(add_conditional(g, nullptr, 0, h, cudaGraphCondTypeWhile, 1, &body, &loop));
  void* args[] = {&d.counter, &d.iterations, &h};
  CHECK(add_kernel(body, nullptr, 0, (void*)count_down, args, &dec));
  put(d.counter, 5);
  put(d.iterations, 0);
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaDeviceSynchronize());
  std::printf("while with value 0 at launch: ran %d times\n", get(d.iterations));
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(g);
  return 0;
}

// A kernel sets the value from *d.value, then the conditional node of `type` with `size` bodies; body i adds
// adds[i] to *d.out (cudaGraphAddKernelNode, the CUDA 12 form). Launched once per value in `values`.
int select(Device& d, cudaGraphConditionalNodeType type, unsigned size, const int* adds, const unsigned* values, int count, int* outs) {
  cudaGraph_t g, bodies[3];
  cudaGraphCreate(&g, 0);
  cudaGraphConditionalHandle h;
  CHECK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
  cudaGraphNode_t setter, cond, node;
  void* set_args[] = {&d.value, &h};
  CHECK(add_kernel(g, nullptr, 0, (void*)set_from, set_args, &setter));
  CHECK(add_conditional(g, &setter, 1, h, type, size, bodies, &cond));
  int k[3];
  void* add_args[3][2];
  for (unsigned i = 0; i < size; ++i) {
    k[i] = adds[i];
    add_args[i][0] = &d.out;
    add_args[i][1] = &k[i];
    cudaKernelNodeParams kp = {};
    kp.func = (void*)add;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(1);
    kp.kernelParams = add_args[i];
    CHECK(cudaGraphAddKernelNode(&node, bodies[i], nullptr, 0, &kp));
  }
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  put(d.out, 0);
  for (int i = 0; i < count; ++i) {
    CHECK(cudaMemcpy(d.value, &values[i], sizeof(unsigned), cudaMemcpyHostToDevice));
    CHECK(cudaGraphLaunch(exec, 0));
    CHECK(cudaDeviceSynchronize());
    outs[i] = get(d.out);
  }
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(g);
  return 0;
}

int nested(Device& d) {
  cudaGraph_t g, body, if_body;
  cudaGraphCreate(&g, 0);
  cudaGraphConditionalHandle loop_h, even_h;
  CHECK(cudaGraphConditionalHandleCreate(&loop_h, g, 1, cudaGraphCondAssignDefault));
  CHECK(cudaGraphConditionalHandleCreate(&even_h, g, 0, cudaGraphCondAssignDefault));
  cudaGraphNode_t loop, dec, branch, inc;
  CHECK(add_conditional(g, nullptr, 0, loop_h, cudaGraphCondTypeWhile, 1, &body, &loop));
  void* dec_args[] = {&d.counter, &d.iterations, &loop_h, &even_h};
  CHECK(add_kernel(body, nullptr, 0, (void*)count_down_even, dec_args, &dec));
  CHECK(add_conditional(body, &dec, 1, even_h, cudaGraphCondTypeIf, 1, &if_body, &branch));
  int one = 1;
  void* add_args[] = {&d.out, &one};
  CHECK(add_kernel(if_body, nullptr, 0, (void*)add, add_args, &inc));
  put(d.counter, 5);
  put(d.iterations, 0);
  put(d.out, 0);
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, g, 0));
  CHECK(cudaGraphLaunch(exec, 0));
  CHECK(cudaDeviceSynchronize());
  std::printf("nested if in while: %d iterations, %d even\n", get(d.iterations), get(d.out));
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(g);
  return 0;
}

int refusals() {
  cudaGraph_t g, other, bodies[3];
  cudaGraphCreate(&g, 0);
  cudaGraphCreate(&other, 0);
  cudaGraphConditionalHandle h, first_of_other, foreign;
  CHECK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
  CHECK(cudaGraphConditionalHandleCreate(&first_of_other, other, 0, 0));
  CHECK(cudaGraphConditionalHandleCreate(&foreign, other, 0, 0));
  cudaGraphNode_t node;
  std::printf("while of size 2: %s\n", cudaGetErrorName(add_conditional(g, nullptr, 0, h, cudaGraphCondTypeWhile, 2, bodies, &node)));
  std::printf("if of size 3: %s\n", cudaGetErrorName(add_conditional(g, nullptr, 0, h, cudaGraphCondTypeIf, 3, bodies, &node)));
  std::printf("switch of size 0: %s\n", cudaGetErrorName(add_conditional(g, nullptr, 0, h, cudaGraphCondTypeSwitch, 0, bodies, &node)));
  cudaGraphConditionalHandle unused;
  std::printf("handle flags 2: %s\n", cudaGetErrorName(cudaGraphConditionalHandleCreate(&unused, g, 0, 2)));
  std::printf("handle of another graph: %s\n", cudaGetErrorName(add_conditional(g, nullptr, 0, foreign, cudaGraphCondTypeIf, 1, bodies, &node)));
  cudaGetLastError();
  CHECK(add_conditional(g, nullptr, 0, h, cudaGraphCondTypeIf, 1, bodies, &node));
  cudaGraph_t spare_bodies[1];
  cudaGraphNode_t second;
  std::printf("a second node of one handle: %s\n", cudaGetErrorName(add_conditional(g, nullptr, 0, h, cudaGraphCondTypeIf, 1, spare_bodies, &second)));
  cudaGetLastError();
  cudaHostNodeParams hp = {nothing, nullptr};
  CHECK(cudaGraphAddHostNode(&node, bodies[0], nullptr, 0, &hp));
  cudaGraphExec_t exec;
  std::printf("host node in a body: %s\n", cudaGetErrorName(cudaGraphInstantiate(&exec, g, 0)));
  cudaGetLastError();
  cudaGraphDestroy(g);
  cudaGraphDestroy(other);
  return 0;
}

int main() {
  Device d;
  CHECK(cudaMalloc(&d.counter, sizeof(int)));
  CHECK(cudaMalloc(&d.iterations, sizeof(int)));
  CHECK(cudaMalloc(&d.out, sizeof(int)));
  CHECK(cudaMalloc(&d.value, sizeof(unsigned)));
  if (while_loop(d)) return 1;
  int outs[5];
  const int if_adds[] = {10, 20};
  const unsigned if_values[] = {1, 0, 7};
  if (select(d, cudaGraphCondTypeIf, 2, if_adds, if_values, 3, outs)) return 1;
  std::printf("if/else: flag 1 -> %d, flag 0 -> %d, flag 7 -> %d\n", outs[0], outs[1], outs[2]);
  const int switch_adds[] = {100, 200, 300};
  const unsigned switch_values[] = {0, 1, 2, 7, 3};
  if (select(d, cudaGraphCondTypeSwitch, 3, switch_adds, switch_values, 5, outs)) return 1;
  std::printf("switch: 0 -> %d, 1 -> %d, 2 -> %d, 7 -> %d, 3 -> %d\n", outs[0], outs[1], outs[2], outs[3], outs[4]);
  if (nested(d)) return 1;
  if (refusals()) return 1;
  // A handle no graph gave, set by a kernel launched outside any graph: last, as the fault is sticky.
  set_from<<<1, 1>>>(d.value, 12345);
  std::printf("unknown handle: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
