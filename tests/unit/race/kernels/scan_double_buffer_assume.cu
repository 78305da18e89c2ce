// expect: race-free  launch: --blockDim=64 --gridDim=1  options: --assume='arg3 == blockDim.x'
// scan_double_buffer.cu under the precondition n == blockDim.x (`--assume`, assume.hpp), as its host code launches it:
// race free. The buffer indices pout and pin toggle (`pout = 1 - pout`) and the offset doubles, closed forms of
// the iteration (encode.cpp recurrence), the same in both threads of a barrier interval.
__global__ void k(float* g_odata, const float* g_idata, int n) {
  extern __shared__ float temp[];
  int thid = threadIdx.x;
  int pout = 0, pin = 1;
  temp[pout * n + thid] = (thid > 0) ? g_idata[thid - 1] : 0;
  __syncthreads();
  for (int offset = 1; offset < n; offset *= 2) {
    pout = 1 - pout;
    pin = 1 - pout;
    if (thid >= offset) temp[pout * n + thid] = temp[pin * n + thid] + temp[pin * n + thid - offset];
    else temp[pout * n + thid] = temp[pin * n + thid];
    __syncthreads();
  }
  g_odata[thid] = temp[pout * n + thid];
}
