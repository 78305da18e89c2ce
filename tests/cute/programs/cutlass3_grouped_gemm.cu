// A CUTLASS 3 grouped GEMM (ptr-array, NVIDIA CUTLASS's example 57 shape of use): three problems of different
// sizes in one launch, each D_g = A_g * B_g + C_g through per-group pointers and strides on the device; the kernel
// rewrites its TMA descriptors per group in shared memory (tensormap.replace, tensormap.cp_fenceproxy, ISA 9.7.9.26,
// 9.7.13.16) and its epilogue elects one lane to issue each TMA store. Checked exactly against host GEMMs (small
// integer inputs). Variants (tests/cute/tutorials.txt, program:NAME -> -DVARIANT_NAME): SM90 (cooperative wgmma,
// one CTA a cluster), SM100 (tcgen05.mma on one SM, sm_100a).
#include <cstdio>
#include <vector>

#include "cute/tensor.hpp"
#include "cutlass/cutlass.h"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/group_array_problem_shape.hpp"
#include "cutlass/gemm/kernel/gemm_universal.hpp"
#include "cutlass/util/packed_stride.hpp"
#include "run_cutlass.cuh"

using namespace cute;

#if defined(VARIANT_SM90)
using Arch = cutlass::arch::Sm90;
using MainloopSchedule = cutlass::gemm::KernelPtrArrayTmaWarpSpecializedCooperative;
using EpilogueSchedule = cutlass::epilogue::PtrArrayTmaWarpSpecializedCooperative;
#elif defined(VARIANT_SM100)
using Arch = cutlass::arch::Sm100;
using MainloopSchedule = cutlass::gemm::KernelPtrArrayTmaWarpSpecialized1SmSm100;
using EpilogueSchedule = cutlass::epilogue::PtrArrayTmaWarpSpecialized1Sm;
#else
#error "name a variant: -DVARIANT_SM90 or -DVARIANT_SM100"
#endif

using ProblemShape = cutlass::gemm::GroupProblemShape<Shape<int, int, int>>;
using ElementA = cutlass::half_t;
using ElementB = cutlass::half_t;
using ElementC = float;
using LayoutA = cutlass::layout::RowMajor;
using LayoutB = cutlass::layout::ColumnMajor;
using LayoutC = cutlass::layout::ColumnMajor;
using TileShape = Shape<_128, _128, _64>;
using ClusterShape = Shape<_1, _1, _1>;
using CollectiveEpilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
    Arch, cutlass::arch::OpClassTensorOp, TileShape, ClusterShape, cutlass::epilogue::collective::EpilogueTileAuto, float, float,
    ElementC, LayoutC*, 4, ElementC, LayoutC*, 4, EpilogueSchedule,
    cutlass::epilogue::fusion::LinearCombination<ElementC, float>>::CollectiveOp;
using CollectiveMainloop = typename cutlass::gemm::collective::CollectiveBuilder<
    Arch, cutlass::arch::OpClassTensorOp, ElementA, LayoutA*, 8, ElementB, LayoutB*, 8, float, TileShape, ClusterShape,
    cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(sizeof(typename CollectiveEpilogue::SharedStorage))>,
    MainloopSchedule>::CollectiveOp;
using GemmKernel = cutlass::gemm::kernel::GemmUniversal<ProblemShape, CollectiveMainloop, CollectiveEpilogue>;
using Gemm = cutlass::gemm::device::GemmUniversalAdapter<GemmKernel>;
using StrideA = typename Gemm::GemmKernel::InternalStrideA;
using StrideB = typename Gemm::GemmKernel::InternalStrideB;
using StrideC = typename Gemm::GemmKernel::InternalStrideC;
using StrideD = typename Gemm::GemmKernel::InternalStrideD;
int main() {
  const int G = 3;
  const int dims[G][3] = {{128, 128, 64}, {256, 128, 128}, {128, 256, 192}};
  std::vector<typename ProblemShape::UnderlyingProblemShape> shapes;
  std::vector<const ElementA*> pA;
  std::vector<const ElementB*> pB;
  std::vector<const ElementC*> pC;
  std::vector<ElementC*> pD;
  std::vector<StrideA> sA;
  std::vector<StrideB> sB;
  std::vector<StrideC> sC;
  std::vector<StrideD> sD;
  std::vector<std::vector<float>> want(G);
  std::vector<ElementC*> outs;
  for (int g = 0; g < G; ++g) {
    const int M = dims[g][0], N = dims[g][1], K = dims[g][2];
    shapes.push_back({M, N, K});
    std::vector<ElementA> A(M * K);
    std::vector<ElementB> B(K * N);
    std::vector<float> C(M * N), D(M * N);
    for (int i = 0; i < M * K; ++i) A[i] = ElementA(float((i * 7 + g) % 5) - 2.f);
    for (int i = 0; i < K * N; ++i) B[i] = ElementB(float((i * 3 + g) % 7) - 3.f);
    for (int i = 0; i < M * N; ++i) C[i] = float((i + g) % 3);
    want[g].resize(M * N);
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) {
        float a = 0;
        for (int k = 0; k < K; ++k) a += float(A[m * K + k]) * float(B[n * K + k]);
        want[g][m + n * M] = a + C[m + n * M];
      }
    pA.push_back(to_device(A));
    pB.push_back(to_device(B));
    pC.push_back(to_device(C));
    outs.push_back(to_device(D));
    pD.push_back(outs.back());
    sA.push_back(cutlass::make_cute_packed_stride(StrideA{}, {M, K, 1}));
    sB.push_back(cutlass::make_cute_packed_stride(StrideB{}, {N, K, 1}));
    sC.push_back(cutlass::make_cute_packed_stride(StrideC{}, {M, N, 1}));
    sD.push_back(cutlass::make_cute_packed_stride(StrideD{}, {M, N, 1}));
  }
  auto d_shapes = to_device(shapes);
  auto dpA = to_device(pA);
  auto dpB = to_device(pB);
  auto dpC = to_device(pC);
  auto dpD = to_device(pD);
  auto dsA = to_device(sA);
  auto dsB = to_device(sB);
  auto dsC = to_device(sC);
  auto dsD = to_device(sD);
  cutlass::KernelHardwareInfo hw;
  hw.device_id = 0;
  hw.sm_count = cutlass::KernelHardwareInfo::query_device_multiprocessor_count(0);
  typename Gemm::Arguments args{cutlass::gemm::GemmUniversalMode::kGrouped,
                                {G, d_shapes, shapes.data()},
                                {dpA, dsA, dpB, dsB},
                                {{}, dpC, dsC, dpD, dsD},
                                hw};
  args.epilogue.thread.alpha = 1.f;
  args.epilogue.thread.beta = 1.f;
  if (!run_operator<Gemm>(args, "cutlass3_grouped_gemm")) return 1;
  int wrong = 0;
  for (int g = 0; g < G; ++g) {
    std::vector<float> D(want[g].size());
    cudaMemcpy(D.data(), outs[g], D.size() * 4, cudaMemcpyDeviceToHost);
    for (size_t i = 0; i < D.size(); ++i)
      if (D[i] != want[g][i] && wrong++ < 5) std::printf("group %d D[%zu]=%g want %g\n", g, i, D[i], want[g][i]);
  }
  std::printf("cutlass3_grouped_gemm: %s (%d elements wrong)\n", wrong ? "FAIL" : "PASS", wrong);
  return wrong != 0;
}
