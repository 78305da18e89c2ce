// expect: race  launch: --blockDim=64 --gridDim=2
// __all_sync is true in every lane or in none (ISA 9.7.13.9): when every lane's flag is set, all of them write
// out[0].
__global__ void k(const int* flags, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (__all_sync(0xffffffffu, flags[i] != 0)) out[0] = i;
}
