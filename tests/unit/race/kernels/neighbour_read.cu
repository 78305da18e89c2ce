// expect: race  launch: --blockDim=64 --gridDim=1
// Thread t writes a[t+1] while thread t+1 reads a[t+1].
__global__ void k(int* a) { a[threadIdx.x + 1] = a[threadIdx.x]; }
