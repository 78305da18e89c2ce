// expect: race-free  launch: --blockDim=256 --gridDim=4
// Path compression (Indigo): only atomics touch `parent`, so any two accesses are morally strong when they
// overlap completely, which natural alignment (ISA 6.4.1) guarantees even for the loop's havocked indices.
__global__ void k(int* parent, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i >= n) return;
  int v = i;
  while (v > atomicOr(&parent[v], 0)) v = atomicOr(&parent[v], 0);
  atomicExch(&parent[i], v);
}
