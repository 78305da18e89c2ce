// expect: race-free  launch: --blockDim=256 --gridDim=4
// Grid-stride loop with a gather (the Indigo pull pattern): nvcc keeps i in a 64-bit copy and rebuilds it with
// cvt.u32.u64 before adding the stride, so i is an induction variable only through that round trip.
__global__ void k(const int* index, const int* list, int* out, const int* in, int n) {
  for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < n; i += gridDim.x * blockDim.x) {
    int beg = index[i];
    if (beg < index[i + 1]) out[i] += in[list[beg]];
  }
}
