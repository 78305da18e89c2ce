// Device functions nvcc keeps as `.func` (noinline) with the argument kinds of ptx-interoperability 2.3:
// char/short/bool, half and bfloat16, structs, native vectors, pointers; and the chapter-3 system calls.
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

struct Small { char a, b, c; };
struct Mixed { double d; int i; };
struct __align__(32) Wide { int x[3]; };

__device__ __noinline__ int ints(char c, unsigned char uc, short s, unsigned short us, bool b) { return c + uc + s + us + b; }
__device__ __noinline__ char narrow(int x) { return static_cast<char>(x); }
__device__ __noinline__ __half halves(__half h, __nv_bfloat16 b) { return __hadd(h, __float2half(__bfloat162float(b))); }
__device__ __noinline__ Small structs(Small s, Mixed m, Wide w) { s.a += m.i + w.x[1]; return s; }
__device__ __noinline__ float4 vectors(float4 v, double2 d, int3 i, char4 c, short2 s) { v.x += d.y + i.z + c.w + s.y; return v; }
__device__ __noinline__ long long wide(long long a, unsigned long long b, double c, float f, int* p) { return a + b + c + f + *p; }

__global__ void kernel(int* out, __half* h, float4* v, char4* c4) {
  Small s{1, 2, 3};
  Mixed m{1.0, 2};
  Wide w{{1, 2, 3}};
  out[0] = ints(out[1], out[2], out[3], out[4], out[5] != 0);
  out[1] = narrow(out[0]);
  h[0] = halves(h[1], __float2bfloat16(1.0f));
  out[2] = structs(s, m, w).a;
  v[0] = vectors(v[1], make_double2(1, 2), make_int3(1, 2, 3), c4[0], make_short2(1, 2));
  out[3] = static_cast<int>(wide(out[4], out[5], 1.0, 2.0f, out));
  printf("out[0] = %d\n", out[0]);
  int* p = static_cast<int*>(malloc(16));
  p[0] = out[6];
  out[7] = p[0];
  free(p);
  assert(out[8] != 42);
}
