// expect: race  launch: --blockDim=256 --gridDim=4
// The CAS writes a value from the input, which may be 0 itself: the location may still hold 0 after a claim (the
// claim rule needs a new value that is provably not the compared one), so a second thread's CAS, reading what the
// first wrote, returns 0 too and both write parent[v].
__global__ void k(const int* edge_target, const int* label, int* visited, int* parent, int edges) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < edges) {
    int v = edge_target[e];
    if (atomicCAS(&visited[v], 0, label[e]) == 0) parent[v] = e;
  }
}
