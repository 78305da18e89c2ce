// CHECK(call): a CUDA runtime call that must succeed; otherwise the test program says which and exits 1.
#pragma once
#include <cstdio>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e = (call);                                                    \
    if (e != cudaSuccess) {                                                    \
      std::printf("%s failed: %s\n", #call, cudaGetErrorString(e));            \
      return 1;                                                                \
    }                                                                          \
  } while (0)
