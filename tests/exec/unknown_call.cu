// expect-exit: 0
// expect-stdout: graph: cudaErrorNotSupported
// expect-stderr: cudaGraphCreate is not implemented
// A runtime call ptxcheck does not implement fails loudly, with its name, and returns an error.
#include <cstdio>

int main() {
  cudaGraph_t graph;
  cudaError_t e = cudaGraphCreate(&graph, 0);
  std::printf("graph: %s\n", cudaGetErrorName(e));
  return 0;
}
