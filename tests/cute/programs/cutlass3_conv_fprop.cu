// A CUTLASS 3 convolution as a library user writes it (NVIDIA CUTLASS, ../shared/corpus/cutlass/include): 2-D
// forward propagation as an implicit GEMM from the conv CollectiveBuilder, run through ConvUniversalAdapter. The
// mainloop loads activation tiles with im2col TMA copies (cp.async.bulk.tensor .im2col, ISA 5.5.4, 9.7.9.25.5.2)
// and filter tiles with tiled ones. NHWC activation 1x10x10x64, KRSC filters 128x3x3x64, padding 1, stride 1;
// out = conv(act, flt) + src, checked exactly against a host loop (small integer inputs). Variants
// (tests/cute/tutorials.txt, program:NAME -> -DVARIANT_NAME): SM90 (wgmma), SM100 (tcgen05.mma on one SM).
#include <cstdio>
#include <vector>

// clang-format off
// First: CUTLASS's sm100 conv collective names cutlass::KernelHardwareInfo without including its header.
#include "cutlass/kernel_hardware_info.hpp"
// clang-format on
#include "cute/tensor.hpp"
#include "cutlass/conv/collective/collective_builder.hpp"
#include "cutlass/conv/convnd_problem_shape.hpp"
#include "cutlass/conv/device/conv_universal_adapter.hpp"
#include "cutlass/conv/dispatch_policy.hpp"
#include "cutlass/conv/kernel/conv_universal.hpp"
#include "cutlass/cutlass.h"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "run_cutlass.cuh"

using namespace cute;

#if defined(VARIANT_SM90)
using Arch = cutlass::arch::Sm90;
#elif defined(VARIANT_SM100)
using Arch = cutlass::arch::Sm100;
#else
#error "name a variant: -DVARIANT_SM90 or -DVARIANT_SM100"
#endif

constexpr cutlass::conv::Operator kOp = cutlass::conv::Operator::kFprop;
using Elem = cutlass::half_t;
using TileShape = Shape<_128, _128, Shape<_64>>;
using ClusterShape = Shape<_1, _1, _1>;
using CollectiveEpilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
    Arch, cutlass::arch::OpClassTensorOp, TileShape, ClusterShape, cutlass::epilogue::collective::EpilogueTileAuto, float, float,
    float, cutlass::layout::TensorNHWC, 4, float, cutlass::layout::TensorNHWC, 4,
    cutlass::epilogue::collective::EpilogueScheduleAuto>::CollectiveOp;
using CollectiveMainloop = typename cutlass::conv::collective::CollectiveBuilder<
    Arch, cutlass::arch::OpClassTensorOp, kOp, Elem, cutlass::layout::TensorNHWC, 8, Elem, cutlass::layout::TensorNHWC, 8, float,
    TileShape, ClusterShape,
    cutlass::conv::collective::StageCountAutoCarveout<static_cast<int>(sizeof(typename CollectiveEpilogue::SharedStorage))>,
    cutlass::conv::collective::KernelScheduleAuto>::CollectiveOp;
using ProblemShape = cutlass::conv::ConvProblemShape<kOp, CollectiveMainloop::DispatchPolicy::NumSpatialDimensions>;
using ConvKernel = cutlass::conv::kernel::ConvUniversal<ProblemShape, CollectiveMainloop, CollectiveEpilogue>;
using Conv = cutlass::conv::device::ConvUniversalAdapter<ConvKernel>;

int main() {
  // NHWC activation 1 x 10 x 10 x 64, filters 128 x 3 x 3 x 64, padding 1, stride 1: output 1 x 10 x 10 x 128
  const int N = 1, H = 10, W = 10, C = 64, K = 128, R = 3, S = 3, P = 10, Q = 10;
  std::vector<Elem> act(N * H * W * C), flt(K * R * S * C);
  std::vector<float> out(N * P * Q * K), src(N * P * Q * K), want(N * P * Q * K);
  for (size_t i = 0; i < act.size(); ++i) act[i] = Elem(float((i * 7) % 5) - 2.f);
  for (size_t i = 0; i < flt.size(); ++i) flt[i] = Elem(float((i * 3) % 7) - 3.f);
  for (size_t i = 0; i < src.size(); ++i) src[i] = float(i % 3);
  for (int p = 0; p < P; ++p)
    for (int q = 0; q < Q; ++q)
      for (int k = 0; k < K; ++k) {
        float acc = 0;
        for (int r = 0; r < R; ++r)
          for (int s = 0; s < S; ++s) {
            const int h = p + r - 1, w = q + s - 1;
            if (h < 0 || h >= H || w < 0 || w >= W) continue;
            for (int c = 0; c < C; ++c) acc += float(act[(h * W + w) * C + c]) * float(flt[((k * R + r) * S + s) * C + c]);
          }
        want[(p * Q + q) * K + k] = acc + src[(p * Q + q) * K + k];
      }
  auto dA = to_device(act);
  auto dB = to_device(flt);
  auto dC = to_device(src);
  auto dD = to_device(out);
  ProblemShape shape(cutlass::conv::Mode::kCrossCorrelation, {N, H, W, C}, {K, R, S, C}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, 1);
  using StrideC = typename ConvKernel::StrideC;
  using StrideD = typename ConvKernel::StrideD;
  StrideC sC{};
  StrideD sD{};
  cute::get<0>(sC) = cute::make_tuple(int64_t(K), int64_t(Q * K), int64_t(P * Q * K));  // (q, p, n) of NPQK, packed
  cute::get<0>(sD) = cute::get<0>(sC);
  typename Conv::Arguments args{shape, {dA, dB}, {{1.f, 1.f}, dC, sC, dD, sD}};
  if (!run_operator<Conv>(args, "cutlass3_conv_fprop")) return 1;
  cudaMemcpy(out.data(), dD, out.size() * 4, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (size_t i = 0; i < out.size(); ++i)
    if (out[i] != want[i] && wrong++ < 5) std::printf("out[%zu]=%g want %g\n", i, out[i], want[i]);
  std::printf("cutlass3_conv_fprop: %s (%d elements wrong)\n", wrong ? "FAIL" : "PASS", wrong);
  return wrong != 0;
}
