// A CuTe GEMM tutorial's own kernels and host launch code, checked against a host GEMM: compiled with
// -DTUTORIAL='"path/to/tutorial.cu"' and -DELEMENT=<A/B/C element type of the tutorial's main>; the tutorial's
// main() is renamed away and this one calls its gemm(transA, transB, m, n, k, alpha, A, ldA, B, ldB, beta, C, ldC)
// for the NT and TN layouts its main() offers (-DHARNESS_TN_ONLY where the tutorial implements TN alone).
//
// Inputs are -1, 0 or 1 and k is 256, so every product and every partial sum is an integer of at most 256 in
// magnitude, exactly representable in half precision too: the result is the same for any order of
// accumulation and any rounding mode, and is compared exactly.
#define main cute_tutorial_main
#include TUTORIAL
#undef main

#include <cstdio>
#include <vector>

namespace {
using Element = ELEMENT;

// C(i, j) = sum_l A(i, l) * B(j, l) with the strides of the tutorial's gemm_nt / gemm_tn.
int check_layout(char transA, char transB, int m, int n, int k) {
  std::vector<float> a(m * k), b(n * k);
  for (int i = 0; i < m * k; ++i) a[i] = float((i * 7 + 3) % 3 - 1);
  for (int i = 0; i < n * k; ++i) b[i] = float((i * 5 + 1) % 3 - 1);
  thrust::host_vector<Element> ha(m * k), hb(n * k), hc(m * n, Element(-1.0f));
  for (int i = 0; i < m * k; ++i) ha[i] = Element(a[i]);
  for (int i = 0; i < n * k; ++i) hb[i] = Element(b[i]);
  thrust::device_vector<Element> da = ha, db = hb, dc = hc;
  const int ldA = transA == 'N' ? m : k, ldB = transB == 'N' ? k : n, ldC = m;
  gemm(transA, transB, m, n, k, Element(1.0f), da.data().get(), ldA, db.data().get(), ldB, Element(0.0f), dc.data().get(), ldC);
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) {
    std::printf("%c%c: %s\n", transA, transB, cudaGetErrorName(e));
    return e == cudaErrorNotSupported ? 3 : 1;
  }
  hc = dc;
  int wrong = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float expect = 0;
      for (int l = 0; l < k; ++l)
        expect += (transA == 'N' ? a[i + l * ldA] : a[i * ldA + l]) * (transB == 'T' ? b[j + l * ldB] : b[j * ldB + l]);
      const float got = float(hc[i + j * ldC]);
      if (got != expect && wrong++ < 5) std::printf("%c%c: C(%d,%d) = %g, host %g\n", transA, transB, i, j, got, expect);
    }
  std::printf("%c%c %dx%dx%d: %s\n", transA, transB, m, n, k, wrong ? "FAIL" : "PASS");
  return wrong ? 1 : 0;
}
}  // namespace

int main() {
#ifdef HARNESS_TN_ONLY
  const int nt = 0;
#else
  const int nt = check_layout('N', 'T', 256, 128, 256);
#endif
  const int tn = check_layout('T', 'N', 256, 128, 256);
  return nt ? nt : tn;
}
