// A CUTLASS 3 GEMM as a library user writes it (NVIDIA CUTLASS, ../shared/corpus/cutlass/include): the mainloop and
// epilogue from CollectiveBuilder with automatic schedules, run through GemmUniversalAdapter, D = A * B + C checked
// exactly against a host GEMM (small integer inputs: every sum is exact in f32). Built for sm_90a (Hopper: TMA
// multicast across a 1x2 cluster, mbarrier pipelines, warp-specialized wgmma) or, with -DPROGRAM_SM100, for sm_100a
// (Blackwell: 2-SM tcgen05.mma over a 2x1 cluster, Tensor Memory, a TMA epilogue with the 128B swizzle's 32-byte
// atomicity). Not one of the CuTe tutorials: the kernels CUTLASS builds for users, which tests/cute/cute.sh runs
// under ptxcheck exec --racecheck.
#include <cstdio>
#include <vector>

#include "cute/tensor.hpp"
#include "cutlass/cutlass.h"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/kernel/gemm_universal.hpp"
#include "cutlass/util/packed_stride.hpp"

using namespace cute;

#ifdef PROGRAM_SM100
using Arch = cutlass::arch::Sm100;
using TileShape = Shape<_256, _128, _64>;  // a 2-SM MMA tile: 128 rows in each CTA of the pair
using ClusterShape = Shape<_2, _1, _1>;
constexpr int M = 256, N = 256, K = 128;
#else
using Arch = cutlass::arch::Sm90;
using TileShape = Shape<_128, _128, _64>;
using ClusterShape = Shape<_1, _2, _1>;  // B tiles multicast to both CTAs of the cluster
constexpr int M = 128, N = 256, K = 128;
#endif

using ElementA = cutlass::half_t;  // row-major (K-major)
using ElementB = cutlass::half_t;  // column-major (K-major)
using ElementC = float;            // column-major
using LayoutA = cutlass::layout::RowMajor;
using LayoutB = cutlass::layout::ColumnMajor;
using LayoutC = cutlass::layout::ColumnMajor;
constexpr int kAlignAB = 8, kAlignC = 4;

using CollectiveEpilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
    Arch, cutlass::arch::OpClassTensorOp, TileShape, ClusterShape, cutlass::epilogue::collective::EpilogueTileAuto, float,
    float, ElementC, LayoutC, kAlignC, ElementC, LayoutC, kAlignC, cutlass::epilogue::collective::EpilogueScheduleAuto>::CollectiveOp;
using CollectiveMainloop = typename cutlass::gemm::collective::CollectiveBuilder<
    Arch, cutlass::arch::OpClassTensorOp, ElementA, LayoutA, kAlignAB, ElementB, LayoutB, kAlignAB, float, TileShape, ClusterShape,
    cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(sizeof(typename CollectiveEpilogue::SharedStorage))>,
    cutlass::gemm::collective::KernelScheduleAuto>::CollectiveOp;
using GemmKernel = cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int, int>, CollectiveMainloop, CollectiveEpilogue>;
using Gemm = cutlass::gemm::device::GemmUniversalAdapter<GemmKernel>;

template <class T>
T* to_device(const std::vector<T>& host) {
  T* p = nullptr;
  cudaMalloc(&p, host.size() * sizeof(T));
  cudaMemcpy(p, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  return p;
}

int main() {
  std::vector<ElementA> A(M * K);
  std::vector<ElementB> B(K * N);
  std::vector<float> C(M * N), D(M * N), want(M * N);
  for (int i = 0; i < M * K; ++i) A[i] = ElementA(float((i * 7) % 5) - 2.f);
  for (int i = 0; i < K * N; ++i) B[i] = ElementB(float((i * 3) % 7) - 3.f);
  for (int i = 0; i < M * N; ++i) C[i] = float(i % 3);
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      float acc = 0;
      for (int k = 0; k < K; ++k) acc += float(A[m * K + k]) * float(B[n * K + k]);
      want[m + n * M] = acc + C[m + n * M];  // alpha = beta = 1
    }
  ElementA* dA = to_device(A);
  ElementB* dB = to_device(B);
  float* dC = to_device(C);
  float* dD = to_device(D);
  using Kernel = typename Gemm::GemmKernel;
  auto sA = cutlass::make_cute_packed_stride(typename Kernel::StrideA{}, {M, K, 1});
  auto sB = cutlass::make_cute_packed_stride(typename Kernel::StrideB{}, {N, K, 1});
  auto sC = cutlass::make_cute_packed_stride(typename Kernel::StrideC{}, {M, N, 1});
  auto sD = cutlass::make_cute_packed_stride(typename Kernel::StrideD{}, {M, N, 1});
  cutlass::KernelHardwareInfo hw;
  hw.device_id = 0;
  hw.sm_count = cutlass::KernelHardwareInfo::query_device_multiprocessor_count(0);
  typename Gemm::Arguments args{cutlass::gemm::GemmUniversalMode::kGemm, {M, N, K, 1}, {dA, sA, dB, sB}, {{1.f, 1.f}, dC, sC, dD, sD}, hw};
  Gemm gemm;
  void* workspace = nullptr;
  if (const size_t bytes = Gemm::get_workspace_size(args)) cudaMalloc(&workspace, bytes);
  if (gemm.can_implement(args) != cutlass::Status::kSuccess || gemm.initialize(args, workspace) != cutlass::Status::kSuccess) {
    std::printf("cutlass3_gemm: FAIL to set up the GEMM\n");
    return 1;
  }
  const cutlass::Status run = gemm.run();
  const cudaError_t sync = cudaDeviceSynchronize();
  if (run != cutlass::Status::kSuccess || sync != cudaSuccess) {
    std::printf("cutlass3_gemm: FAIL run %d, %s\n", int(run), cudaGetErrorString(sync));
    return 1;
  }
  cudaMemcpy(D.data(), dD, D.size() * sizeof(float), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < M * N; ++i)
    if (D[i] != want[i] && wrong++ < 5) std::printf("D[%d] = %g, expected %g\n", i, D[i], want[i]);
  std::printf("cutlass3_gemm %dx%dx%d: %s (%d of %d elements wrong)\n", M, N, K, wrong ? "FAIL" : "PASS", wrong, M * N);
  return wrong != 0;
}
