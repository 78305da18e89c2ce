// expect: race 3 4   (an atomic and a plain write of one location are not morally strong)
__global__ void k(int* counter) {
  atomicAdd(counter, 1);
  if (blockIdx.x == 1 && threadIdx.x == 0) counter[0] = 0;
}
