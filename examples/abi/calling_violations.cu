// The source calling_violations.ptx claims to come from: 2.3 of the interoperability guide passes `c` as a
// 32-bit integer and `Small` (3 bytes, 1-aligned) as `.param .align 1 .b8 s[3]`; that PTX does neither.
#include <cstdio>
struct Small { char a, b, c; };
__device__ __noinline__ int f(char c, Small s) { return c + s.a; }
__global__ void k(int* out) { out[0] = f(1, Small{1, 2, 3}); printf("%d\n", out[0]); }
