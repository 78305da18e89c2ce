// expect: race-free  launch: --blockDim=256 --gridDim=1
// Pointers chosen by a condition (`selp`): `from` and `to` are always different arguments, which the engine assumes
// do not overlap, so thread t's read of from[t] and thread u's write of to[u] never meet.
__global__ void k(char* a, char* b, char c) {
  char* from = c ? a : b;
  char* to = c ? b : a;
  to[threadIdx.x] = from[threadIdx.x];
}
