// expect: race-free  launch: --blockDim=256 --gridDim=2
// CuTe's elect_one_sync() (cute/arch/util.hpp's inline PTX): elect.sync (ISA 9.7.13.14) makes one lane of each
// warp the leader, so each warp's word of per_warp has one writer; after __syncthreads every thread reads one.
__device__ __forceinline__ unsigned elect_one_sync() {
  unsigned pred = 0, laneid = 0;
  asm volatile(
      "{\n .reg .b32 %%rx;\n .reg .pred %%px;\n elect.sync %%rx|%%px, %2;\n @%%px mov.s32 %1, 1;\n mov.s32 %0, %%rx;\n}\n"
      : "+r"(laneid), "+r"(pred)
      : "r"(0xFFFFFFFFu));
  return pred;
}

__global__ void leaders(int* out) {
  __shared__ int per_warp[8];
  const int warp = threadIdx.x / 32;
  if (elect_one_sync()) per_warp[warp] = warp * 10 + blockIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = per_warp[threadIdx.x % 8];
}
