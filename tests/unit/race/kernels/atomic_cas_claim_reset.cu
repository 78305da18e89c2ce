// expect: race  launch: --blockDim=256 --gridDim=4
// As atomic_cas_claim.cu, but the claimer gives v back (atomicExch(&visited[v], 0)): a later thread's CAS can
// return 0 again, and the two writes of parent[v] are not ordered (no fence: the exchange is no release, ISA 8.8).
__global__ void k(const int* edge_target, int* visited, int* parent, int edges) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < edges) {
    int v = edge_target[e];
    if (atomicCAS(&visited[v], 0, 1) == 0) {
      parent[v] = e;
      atomicExch(&visited[v], 0);
    }
  }
}
