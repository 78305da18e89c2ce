// expect: race-free  launch: --blockDim=64 --gridDim=2
// Each thread alternates between its own two slots: `slot = 1 - slot` is an involution, so at the header of
// iteration k the slot is 0 (k even) or 1 (k odd), never another thread's (encode.cpp recurrence; a havocked slot
// was any 32-bit value: a false race).
__global__ void k(int* out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int slot = 0;
  for (int i = 0; i < n; ++i) {
    out[2 * t + slot] = i;
    slot = 1 - slot;
  }
}
