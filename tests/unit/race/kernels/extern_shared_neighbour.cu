// expect: race  launch: --blockDim=64 --gridDim=1
// Dynamic shared memory (`extern __shared__`, an unsized .shared array): thread t+1 writes s[t+1] while thread t
// reads it, no barrier between. The replay gives the launch dynamic shared memory, so the race is confirmed.
__global__ void k(int* out) {
  extern __shared__ int s[];
  s[threadIdx.x] = threadIdx.x;
  out[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
}
