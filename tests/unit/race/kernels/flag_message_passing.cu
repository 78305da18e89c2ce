// expect: race  launch: --blockDim=32 --gridDim=2
// Message passing between two CTAs: CTA 0 writes data, fences and sets the flag; CTA 1 waits for the flag, fences
// and reads data. The fences order the two when the flag CTA 1 reads is CTA 0's write (ISA 8.9.4 item 4), but memory
// is an input: with the flag already set at launch CTA 1 need not wait, and its read races with the write (8.7.1).
// The symbolic engine finds the pair possible (fences between); the replay that starts with the words the witness's
// loads read (the flag at 1) and runs CTA 1 first shows the race.
__global__ void k(int* data, volatile int* flag, int* out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) { data[0] = 42; __threadfence(); *flag = 1; }
  if (blockIdx.x == 1 && threadIdx.x == 0) { while (*flag != 1) {} __threadfence(); out[0] = data[0]; }
}
