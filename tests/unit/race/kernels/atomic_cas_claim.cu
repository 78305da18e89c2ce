// expect: race-free  launch: --blockDim=256 --gridDim=4
// Breadth-first search's visit: the thread whose atomicCAS(&visited[v], 0, 1) returns 0 claims v and writes its
// parent. Every write to `visited` is such a CAS from 0 to 1, so a location holds 0 at most until the first CAS that
// reads it, and two threads' CASes on one location do not both return 0 (ISA 8.10 Atomicity).
__global__ void k(const int* edge_target, int* visited, int* parent, int edges) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < edges) {
    int v = edge_target[e];
    if (atomicCAS(&visited[v], 0, 1) == 0) parent[v] = e;
  }
}
