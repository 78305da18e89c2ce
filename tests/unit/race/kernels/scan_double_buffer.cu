// expect: race  launch: --blockDim=64 --gridDim=1
// The double-buffered Hillis-Steele scan (GPU Gems 3, 39.2.1) for n elements, n a kernel argument: with n below the
// block size the two halves of temp overlap and threads of one barrier interval write what others read. The same
// kernel under the precondition n == blockDim.x is scan_double_buffer_assume.cu.
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
