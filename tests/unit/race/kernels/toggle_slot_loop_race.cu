// expect: race  launch: --blockDim=64 --gridDim=2
// As toggle_slot_loop.cu, but the slot alternates between 0 and 2 (`slot = 2 - slot`, an involution too): in odd
// iterations thread t writes out[2t + 2], thread t+1's slot 0.
__global__ void k(int* out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int slot = 0;
  for (int i = 0; i < n; ++i) {
    out[2 * t + slot] = i;
    slot = 2 - slot;
  }
}
