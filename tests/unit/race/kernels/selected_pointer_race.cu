// expect: race  launch: --blockDim=256 --gridDim=1
// With c set, `to` is `a`: thread t writes a[t], which thread t-1 reads as a[(t-1) + 1], a race.
__global__ void k(char* a, char* b, char c) {
  char* to = c ? a : b;
  to[threadIdx.x] = a[threadIdx.x + 1];
}
