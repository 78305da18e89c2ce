// expect-exit: 0
// expect-stdout: node: cudaErrorNotSupported
// expect-stderr: cudaGraphAddExternalSemaphoresSignalNode is not implemented
// A runtime call ptxcheck does not implement fails loudly, with its name, and returns an error.
#include <cstdio>

int main() {
  cudaGraph_t graph;
  cudaGraphCreate(&graph, 0);
  cudaGraphNode_t node;
  cudaExternalSemaphoreSignalNodeParams params = {};
  cudaError_t e = cudaGraphAddExternalSemaphoresSignalNode(&node, graph, nullptr, 0, &params);  // external semaphores: not modelled
  std::printf("node: %s\n", cudaGetErrorName(e));
  return 0;
}
