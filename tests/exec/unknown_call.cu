// expect-exit: 0
// expect-stdout: node: cudaErrorNotSupported
// expect-stderr: cudaGraphAddMemFreeNode is not implemented
// A runtime call ptxcheck does not implement fails loudly, with its name, and returns an error.
#include <cstdio>

int main() {
  cudaGraph_t graph;
  cudaGraphCreate(&graph, 0);
  cudaGraphNode_t node;
  cudaError_t e = cudaGraphAddMemFreeNode(&node, graph, nullptr, 0, nullptr);  // a memory node: not modelled
  std::printf("node: %s\n", cudaGetErrorName(e));
  return 0;
}
