// nvcc: -arch=sm_100a
// exec-flags: --racecheck
// expect-exit: 0
// expect-stdout: persistent: PASS
// expect-stderr: racecheck_cluster_launch_control.cu:24
// expect-stderr: racecheck_cluster_launch_control.cu:37
// expect-stderr: racecheck: 2 launches, 1 distinct races, 0 barrier divergences
// A persistent kernel in the style of CUTLASS's Blackwell tile schedulers: each CTA processes its tile, then asks
// clusterlaunchcontrol.try_cancel (ISA 9.7.13.17) for a cluster that has not started, waits on the mbarrier for the
// response, decodes it with query_cancel (9.7.13.18) and processes the canceled CTA's tile, until a request fails.
// Every tile is processed exactly once whichever CTAs ran (more CTAs than the interpreter keeps resident, so some
// requests succeed). The first launch fences its load of the response before the next request (9.7.13.17's
// example: "Fence generic->async"): race free. The second loads the response before its mbarrier wait (line 67):
// the one race --racecheck reports, the response's async-proxy write against that load (at the lines nvcc gives
// the two inline asm statements: the request's, 23-24, and the load's, 34-37).
#include <cstdio>
#include <cstdint>

__device__ inline unsigned smem(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

__device__ inline void try_cancel(const void* resp, std::uint64_t* bar) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 16;" ::"r"(smem(bar)) : "memory");
  asm volatile("clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [%0], [%1];" ::"r"(smem(resp)),
               "r"(smem(bar)) : "memory");
}
__device__ inline void wait(std::uint64_t* bar, unsigned parity) {
  asm volatile("{\n .reg .pred p;\n W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n @!p bra W;\n}" ::"r"(smem(bar)), "r"(parity)
               : "memory");
}
// The response's ld.shared.b128 and query_cancel; -1 when the request failed, else the canceled CTA's ctaid.x.
__device__ inline int next_tile(const void* resp) {
  unsigned ok, x;
  asm volatile(
      "{\n .reg .pred p;\n .reg .b128 h;\n ld.shared.b128 h, [%2];\n"
      " clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 p, h;\n selp.u32 %0, 1, 0, p;\n mov.u32 %1, 0;\n"
      " @p clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128 %1, h;\n}"
      : "=r"(ok), "=r"(x) : "r"(smem(resp)) : "memory");
  return ok ? int(x) : -1;
}

__global__ void persistent(int* count) {
  __shared__ alignas(16) int resp[4];
  __shared__ std::uint64_t bar;
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(&bar)) : "memory");
  __syncthreads();
  unsigned parity = 0;
  for (int tile = blockIdx.x; tile >= 0;) {
    atomicAdd(&count[tile * 32 + threadIdx.x], 1);
    if (threadIdx.x == 0) try_cancel(resp, &bar);
    wait(&bar, parity);
    parity ^= 1;
    tile = next_tile(resp);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");  // before thread 0's next request rewrites it
    __syncthreads();
  }
}

__global__ void early_read(int* count) {
  __shared__ alignas(16) int resp[4];
  __shared__ std::uint64_t bar;
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(&bar)) : "memory");
  __syncthreads();
  unsigned parity = 0;
  for (int tile = blockIdx.x; tile >= 0;) {
    atomicAdd(&count[tile * 32 + threadIdx.x], 1);
    if (threadIdx.x == 0) try_cancel(resp, &bar);
    tile = next_tile(resp);  // before the wait
    wait(&bar, parity);
    parity ^= 1;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
  }
}

int main() {
  constexpr int ctas = 24, n = ctas * 32;
  int* count;
  cudaMalloc(&count, n * sizeof(int));
  bool ok = true;
  for (int k = 0; k < 2; ++k) {
    cudaMemset(count, 0, n * sizeof(int));
    if (k == 0) persistent<<<ctas, 32>>>(count);
    else early_read<<<ctas, 32>>>(count);
    int h[n];
    cudaMemcpy(h, count, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; ++i)
      if (h[i] != 1) {
        std::printf("%s: element %d processed %d times\n", k ? "early_read" : "persistent", i, h[i]);
        ok = false;
        break;
      }
  }
  std::printf("persistent: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
