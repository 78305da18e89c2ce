// Scope inclusion (memmodel/graph/base_graph.hpp) against ISA 8.5 Table 21 and 2.2.2, each expectation from the
// text: .cta is the threads of the same CTA, .cluster those of the same cluster, .gpu those of the same device;
// a launch without cluster dimensions is an implicit cluster of one CTA ("default dimension 1x1x1"); a CTA of a
// cluster is named by its identifier within the cluster.
#include "memmodel/graph/base_graph.hpp"

#include <doctest/doctest.h>

using namespace ptxcheck::mm;

namespace {
// 0, 1: two CTAs of cluster 0; 2: CTA 0 of cluster 1 (another CTA than thread 0's); 3: a thread of thread 0's CTA;
// 4: cluster 0 of another device.
const std::vector<ThreadPlace> kClustered{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 0}, {0, 0, 1}};
// Implicit clusters: 0, 1 in CTAs 0 and 1, 2 in CTA 0.
const std::vector<ThreadPlace> kImplicit{{0, -1, 0}, {1, -1, 0}, {0, -1, 0}};
}  // namespace

TEST_CASE(".cta includes the same CTA only, whatever cluster numbering says") {
  CHECK(scope_includes(Scope::cta, kClustered, 0, 3));
  CHECK_FALSE(scope_includes(Scope::cta, kClustered, 0, 1));  // another CTA of the same cluster
  CHECK_FALSE(scope_includes(Scope::cta, kClustered, 0, 2));  // CTA 0 of another cluster is another CTA
  CHECK(scope_includes(Scope::cta, kImplicit, 0, 2));
  CHECK_FALSE(scope_includes(Scope::cta, kImplicit, 0, 1));
}

TEST_CASE(".cluster includes the CTAs of the cluster, not another cluster's or device's") {
  CHECK(scope_includes(Scope::cluster, kClustered, 0, 1));
  CHECK(scope_includes(Scope::cluster, kClustered, 1, 0));
  CHECK(scope_includes(Scope::cluster, kClustered, 0, 3));
  CHECK_FALSE(scope_includes(Scope::cluster, kClustered, 0, 2));
  CHECK_FALSE(scope_includes(Scope::cluster, kClustered, 0, 4));  // cluster 0 of another GPU
}

TEST_CASE("an implicit cluster is one CTA") {
  CHECK(scope_includes(Scope::cluster, kImplicit, 0, 2));
  CHECK_FALSE(scope_includes(Scope::cluster, kImplicit, 0, 1));
}

TEST_CASE("each scope includes the narrower ones (cta within cluster within gpu within sys)") {
  for (const auto* places : {&kClustered, &kImplicit}) {
    const int n = static_cast<int>(places->size());
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) {
        if (scope_includes(Scope::cta, *places, a, b)) CHECK(scope_includes(Scope::cluster, *places, a, b));
        if (scope_includes(Scope::cluster, *places, a, b)) CHECK(scope_includes(Scope::gpu, *places, a, b));
        CHECK(scope_includes(Scope::sys, *places, a, b));
        CHECK(scope_includes(Scope::cluster, *places, a, b) == scope_includes(Scope::cluster, *places, b, a));
      }
  }
  CHECK_FALSE(scope_includes(Scope::sys, kClustered, -1, 0));  // the initial writes' "thread"
}
