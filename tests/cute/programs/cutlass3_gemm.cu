// A CUTLASS 3 GEMM as a library user writes it (NVIDIA CUTLASS, ../shared/corpus/cutlass/include): the mainloop and
// epilogue from CollectiveBuilder, run through GemmUniversalAdapter, D = A * B + C checked exactly against a host
// GEMM (small integer inputs: every sum is exact in f32). Not one of the CuTe tutorials: the kernels CUTLASS builds
// for users, which tests/cute/cute.sh runs under ptxcheck exec --racecheck. The variant is a macro
// (tests/cute/tutorials.txt, `program:NAME` -> -DVARIANT_NAME):
//   SM90            f16, automatic schedules: TMA multicast of B across a 1x2 cluster, mbarrier pipelines,
//                   warp-specialized wgmma, the default epilogue
//   SM100           f16, automatic schedules on sm_100a: 2-SM tcgen05.mma over a 2x1 cluster, Tensor Memory, a TMA
//                   epilogue with the 128B swizzle's 32-byte atomicity
//   PINGPONG        f16, two consumer warpgroups taking turns (KernelTmaWarpSpecializedPingpong), TMA epilogue
//   FP8_STREAMK     e4m3, cooperative schedule with the stream-K tile scheduler (K split across CTAs, partial tiles
//                   reduced through a workspace), TMA epilogue
//   BF16_MN_MAJOR   bf16 A column-major and B row-major (MN-major wgmma operands), bf16 C and D
//   TF32_MN_MAJOR   f32 inputs as tf32 on sm_100a, A column-major and B row-major: 1-SM tcgen05.mma .kind::tf32
//                   with transposed operands, so shared-memory descriptors in the 128B swizzle's 32B atomicity mode
#include <cstdio>
#include <type_traits>
#include <vector>

#include "cute/tensor.hpp"
#include "cutlass/cutlass.h"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/kernel/gemm_universal.hpp"
#include "cutlass/gemm/kernel/tile_scheduler.hpp"
#include "cutlass/util/packed_stride.hpp"
#include "run_cutlass.cuh"

using namespace cute;

#if defined(VARIANT_SM90)
#define GEMM_CLUSTER Shape<_1, _2, _1>
#elif defined(VARIANT_SM100)
#define GEMM_ARCH cutlass::arch::Sm100
#define GEMM_TILE Shape<_256, _128, _64>  // a 2-SM MMA tile: 128 rows in each CTA of the pair
#define GEMM_CLUSTER Shape<_2, _1, _1>
#elif defined(VARIANT_PINGPONG)
#define GEMM_TILE Shape<_64, _128, _64>
#define GEMM_MAINLOOP cutlass::gemm::KernelTmaWarpSpecializedPingpong
#define GEMM_EPILOGUE cutlass::epilogue::TmaWarpSpecialized
#elif defined(VARIANT_FP8_STREAMK)
#define GEMM_AB cutlass::float_e4m3_t
#define GEMM_TILE Shape<_128, _128, _128>
#define GEMM_MAINLOOP cutlass::gemm::KernelTmaWarpSpecializedCooperative
#define GEMM_EPILOGUE cutlass::epilogue::TmaWarpSpecializedCooperative
#define GEMM_SCHEDULER cutlass::gemm::StreamKScheduler
#define GEMM_M 128
#define GEMM_N 128
#define GEMM_K 512
#elif defined(VARIANT_BF16_MN_MAJOR)
#define GEMM_AB cutlass::bfloat16_t
#define GEMM_C cutlass::bfloat16_t
#define GEMM_LAYOUT_A cutlass::layout::ColumnMajor
#define GEMM_LAYOUT_B cutlass::layout::RowMajor
#elif defined(VARIANT_TF32_MN_MAJOR)
#define GEMM_ARCH cutlass::arch::Sm100
#define GEMM_AB float
#define GEMM_LAYOUT_A cutlass::layout::ColumnMajor
#define GEMM_LAYOUT_B cutlass::layout::RowMajor
#define GEMM_TILE Shape<_128, _128, _32>
#else
#error "name a variant: -DVARIANT_SM90, _SM100, _PINGPONG, _FP8_STREAMK, _BF16_MN_MAJOR or _TF32_MN_MAJOR"
#endif
// What a variant does not name: f16 A and B, f32 C and D, A row-major and B column-major (both K-major), a 128x128x64
// tile on one CTA, automatic schedules, 256x256x128.
#ifndef GEMM_ARCH
#define GEMM_ARCH cutlass::arch::Sm90
#endif
#ifndef GEMM_AB
#define GEMM_AB cutlass::half_t
#endif
#ifndef GEMM_C
#define GEMM_C float
#endif
#ifndef GEMM_LAYOUT_A
#define GEMM_LAYOUT_A cutlass::layout::RowMajor
#define GEMM_LAYOUT_B cutlass::layout::ColumnMajor
#endif
#ifndef GEMM_TILE
#define GEMM_TILE Shape<_128, _128, _64>
#endif
#ifndef GEMM_CLUSTER
#define GEMM_CLUSTER Shape<_1, _1, _1>
#endif
#ifndef GEMM_MAINLOOP
#define GEMM_MAINLOOP cutlass::gemm::collective::KernelScheduleAuto
#endif
#ifndef GEMM_EPILOGUE
#define GEMM_EPILOGUE cutlass::epilogue::collective::EpilogueScheduleAuto
#endif
#ifndef GEMM_SCHEDULER
#define GEMM_SCHEDULER void
#endif
#ifndef GEMM_M
#define GEMM_M 256
#define GEMM_N 256
#define GEMM_K 128
#endif

using ElementAB = GEMM_AB;
using ElementC = GEMM_C;
using LayoutA = GEMM_LAYOUT_A;
using LayoutB = GEMM_LAYOUT_B;
using LayoutC = cutlass::layout::ColumnMajor;
constexpr int M = GEMM_M, N = GEMM_N, K = GEMM_K;
constexpr int kAlignAB = 16 / sizeof(ElementAB), kAlignC = 16 / sizeof(ElementC);
constexpr bool kRowA = std::is_same_v<LayoutA, cutlass::layout::RowMajor>, kColB = std::is_same_v<LayoutB, cutlass::layout::ColumnMajor>;

using CollectiveEpilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
    GEMM_ARCH, cutlass::arch::OpClassTensorOp, GEMM_TILE, GEMM_CLUSTER, cutlass::epilogue::collective::EpilogueTileAuto, float,
    float, ElementC, LayoutC, kAlignC, ElementC, LayoutC, kAlignC, GEMM_EPILOGUE>::CollectiveOp;
using CollectiveMainloop = typename cutlass::gemm::collective::CollectiveBuilder<
    GEMM_ARCH, cutlass::arch::OpClassTensorOp, ElementAB, LayoutA, kAlignAB, ElementAB, LayoutB, kAlignAB, float, GEMM_TILE,
    GEMM_CLUSTER, cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(sizeof(typename CollectiveEpilogue::SharedStorage))>,
    GEMM_MAINLOOP>::CollectiveOp;
using GemmKernel =
    cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int, int>, CollectiveMainloop, CollectiveEpilogue, GEMM_SCHEDULER>;
using Gemm = cutlass::gemm::device::GemmUniversalAdapter<GemmKernel>;

int main() {
  std::vector<ElementAB> A(M * K), B(K * N);
  std::vector<ElementC> C(M * N), D(M * N);
  std::vector<float> want(M * N);
  for (int i = 0; i < M * K; ++i) A[i] = ElementAB(float((i * 7) % 5) - 2.f);
  for (int i = 0; i < K * N; ++i) B[i] = ElementAB(float((i * 3) % 7) - 3.f);
  for (int i = 0; i < M * N; ++i) C[i] = ElementC(float(i % 3));
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      float acc = 0;
      for (int k = 0; k < K; ++k) acc += float(A[kRowA ? m * K + k : m + k * M]) * float(B[kColB ? n * K + k : n + k * N]);
      want[m + n * M] = float(ElementC(acc + float(C[m + n * M])));  // alpha = beta = 1, rounded to D's type
    }
  ElementAB* dA = to_device(A);
  ElementAB* dB = to_device(B);
  ElementC* dC = to_device(C);
  ElementC* dD = to_device(D);
  using Kernel = typename Gemm::GemmKernel;
  auto sA = cutlass::make_cute_packed_stride(typename Kernel::StrideA{}, {M, K, 1});
  auto sB = cutlass::make_cute_packed_stride(typename Kernel::StrideB{}, {N, K, 1});
  auto sC = cutlass::make_cute_packed_stride(typename Kernel::StrideC{}, {M, N, 1});
  auto sD = cutlass::make_cute_packed_stride(typename Kernel::StrideD{}, {M, N, 1});
  cutlass::KernelHardwareInfo hw;
  hw.device_id = 0;
  hw.sm_count = cutlass::KernelHardwareInfo::query_device_multiprocessor_count(0);
  typename Gemm::Arguments args{cutlass::gemm::GemmUniversalMode::kGemm, {M, N, K, 1}, {dA, sA, dB, sB}, {{1.f, 1.f}, dC, sC, dD, sD}, hw};
  if (!run_operator<Gemm>(args, "cutlass3_gemm")) return 1;
  cudaMemcpy(D.data(), dD, D.size() * sizeof(ElementC), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < M * N; ++i)
    if (float(D[i]) != want[i] && wrong++ < 5) std::printf("D[%d] = %g, expected %g\n", i, float(D[i]), want[i]);
  std::printf("cutlass3_gemm %dx%dx%d: %s (%d of %d elements wrong)\n", M, N, K, wrong ? "FAIL" : "PASS", wrong, M * N);
  return wrong != 0;
}
