// expect-exit: 0
// expect-stdout: legacy stream: operation not permitted when stream is capturing
// expect-stdout: capturing: 1, ran during capture: 0
// expect-stdout: nodes: 2
// expect-stdout: after two launches: 10 10 10
// expect-stdout: unjoined fork: wait no error, end cudaErrorStreamCaptureUnjoined, graph null 1
// measured on an H200 (tests/hardware/h200/exec.txt):
// expect-stdout: sync copy: cudaErrorStreamCaptureImplicit, end cudaErrorStreamCaptureInvalidated
// expect-stdout: relaxed: copy operation would make the legacy stream depend on a capturing blocking stream, end operation failed due to a previous error during capture
// expect-stderr: cudaMemcpy would make the legacy stream depend on a capturing blocking stream
// CUDA graphs by stream capture (CUDA Programming Guide, "CUDA Graphs"): work issued to a capturing stream is
// recorded, not run; a kernel node keeps the argument values of the capture; each launch of the instantiated
// graph runs the nodes in order. The legacy stream cannot capture. A capture forked into another stream must be
// joined back before it ends (cudaErrorStreamCaptureUnjoined). A synchronous copy runs on the legacy stream, which
// waits for every blocking stream: while a blocking stream captures, it would depend on captured work, so it fails
// with cudaErrorStreamCaptureImplicit and invalidates the capture, in the global mode and in the relaxed one alike
// (the H200's answer; the API reference's "potentially unsafe" calls, cudaThreadExchangeStreamCaptureMode, are
// another rule, which the relaxed mode lifts: allocations and device synchronization).
#include <cstdio>

__global__ void add(int* d, int k) { d[threadIdx.x] += k; }

int main() {
  int *d, h[32] = {0};
  cudaMalloc(&d, sizeof h);
  cudaMemset(d, 0, sizeof h);
  cudaGraph_t graph;
  printf("legacy stream: %s\n", cudaGetErrorString(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal)));

  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaStreamCaptureStatus status;
  cudaStreamIsCapturing(s, &status);
  int k = 5;
  add<<<1, 32, 0, s>>>(d, k);
  k = 100;  // the node launches with the 5 captured above
  cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s);
  cudaStreamEndCapture(s, &graph);
  printf("capturing: %d, ran during capture: %d\n", status == cudaStreamCaptureStatusActive, h[0]);
  size_t nodes = 0;
  cudaGraphGetNodes(graph, nullptr, &nodes);
  printf("nodes: %zu\n", nodes);

  cudaGraphExec_t exec;
  if (cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess) return 1;
  cudaGraphLaunch(exec, s);
  cudaGraphLaunch(exec, s);
  cudaStreamSynchronize(s);
  printf("after two launches: %d %d %d\n", h[0], h[17], h[31]);

  cudaStream_t other;
  cudaStreamCreate(&other);
  cudaEvent_t e;
  cudaEventCreate(&e);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaEventRecord(e, s);
  cudaError_t fork = cudaStreamWaitEvent(other, e, 0);
  add<<<1, 32, 0, other>>>(d, 1);  // work in the forked stream that s never waits for
  cudaGraph_t broken = graph;
  cudaError_t end = cudaStreamEndCapture(s, &broken);
  printf("unjoined fork: wait %s, end %s, graph null %d\n", cudaGetErrorString(fork), cudaGetErrorName(end), broken == nullptr);

  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaError_t copy = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  end = cudaStreamEndCapture(s, &broken);
  printf("sync copy: %s, end %s\n", cudaGetErrorName(copy), cudaGetErrorName(end));
  cudaGetLastError();

  cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
  copy = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaGraph_t relaxed;
  end = cudaStreamEndCapture(s, &relaxed);
  printf("relaxed: copy %s, end %s\n", cudaGetErrorString(copy), cudaGetErrorString(end));
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  return 0;
}
