// expect: race-free  launch: --blockDim=64 --gridDim=2
// Two warps fill a 16x16 tile of halves, a barrier, then warp 0 loads it as four 8x8 matrices with ldmatrix
// (each lane gives one row's address, ISA 9.7.14.5.15) and multiplies with mma.sync; every lane stores its own
// four results.
#include <cuda_fp16.h>
__global__ void tile(const half* a, float* c) {
  __shared__ __align__(16) half sa[16 * 16];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) sa[i] = a[blockIdx.x * 256 + i];
  __syncthreads();
  if (threadIdx.x >= 32) return;
  unsigned r0, r1, r2, r3;
  unsigned row = (unsigned)__cvta_generic_to_shared(&sa[(threadIdx.x % 16) * 16 + (threadIdx.x / 16) * 8]);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(row));
  float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(r0), "r"(r1), "r"(r2), "r"(r3), "r"(r0), "r"(r1));
  float* out = c + blockIdx.x * 128 + threadIdx.x * 4;
  out[0] = d0;
  out[1] = d1;
  out[2] = d2;
  out[3] = d3;
}
