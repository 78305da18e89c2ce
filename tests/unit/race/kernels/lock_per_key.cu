// expect: race-free  launch: --blockDim=32 --gridDim=4
// One lock per bucket, taken and given back in every iteration of a loop: the lock's address is the iteration's
// key, and the critical sections of one bucket's lock are ordered (ISA 8.8, 8.9.4 item 4). Different buckets'
// counts are different words.
__global__ void k(int* counts, int* locks, const int* keys, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = t; j < n; j += gridDim.x * blockDim.x) {
    int b = keys[j] & 255;
    while (atomicCAS(&locks[b], 0, 1) != 0) {}
    __threadfence();
    counts[b] = counts[b] + 1;
    __threadfence();
    atomicExch(&locks[b], 0);
  }
}
