// expect: race-free  launch: --blockDim=64 --gridDim=1  options: --assume='arg3 == 2 * blockDim.x'
// blelloch_scan.cu under n == 2 * blockDim.x. The up-sweep's `d >>= 1` and `offset *= 2` and the down-sweep's
// `offset >>= 1` are shifts in closed form of the iteration (encode.cpp recurrence), and thread 0's write of
// temp[n - 1] after the up-sweep is ordered after every thread's first writes: a thread past that loop in the first
// barrier interval never entered it (check.cpp reached_from_loop), which n >= 2 rules out.
__global__ void k(float* g_odata, const float* g_idata, int n) {
  extern __shared__ float temp[];
  int thid = threadIdx.x;
  int offset = 1;
  temp[2 * thid] = g_idata[2 * thid];
  temp[2 * thid + 1] = g_idata[2 * thid + 1];
  for (int d = n >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (thid < d) {
      int ai = offset * (2 * thid + 1) - 1;
      int bi = offset * (2 * thid + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  if (thid == 0) temp[n - 1] = 0;
  for (int d = 1; d < n; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (thid < d) {
      int ai = offset * (2 * thid + 1) - 1;
      int bi = offset * (2 * thid + 2) - 1;
      float t = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += t;
    }
  }
  __syncthreads();
  g_odata[2 * thid] = temp[2 * thid];
  g_odata[2 * thid + 1] = temp[2 * thid + 1];
}
