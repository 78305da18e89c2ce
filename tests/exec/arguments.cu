// nvcc: -DSCALE=3 -std=c++17
// args: first second
// expect-exit: 5
// expect-stdout: argv: first second
// expect-stdout: scaled: 3 6 9
// nvcc flags before `--` reach nvcc, the arguments after it reach the program, and its exit code is kept.
#include <cstdio>

__global__ void scale(int* v) { v[threadIdx.x] = SCALE * (threadIdx.x + 1); }

int main(int argc, char** argv) {
  std::printf("argv:");
  for (int i = 1; i < argc; ++i) std::printf(" %s", argv[i]);
  std::printf("\n");
  int* d;
  int h[3];
  cudaMalloc(&d, sizeof h);
  scale<<<1, 3>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("scaled: %d %d %d\n", h[0], h[1], h[2]);
  return 5;
}
