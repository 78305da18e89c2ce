// Which cluster a CTA belongs to, as a number: for observers of a run (checker/race) that need to know whether two
// threads share a cluster (ISA 8.5 .cluster scope).
#pragma once

#include <array>
#include <cstdint>

namespace ptx::interp {

// The linear id of CTA `ctaid`'s cluster in a grid of clusters of shape `cluster` (ISA 10.12: %clusterid = %ctaid /
// the cluster's shape per dimension), x fastest.
inline std::uint64_t cluster_linear_id(const std::array<std::uint32_t, 3>& ctaid, const std::array<std::uint32_t, 3>& grid,
                                       const std::array<std::uint32_t, 3>& cluster) {
  std::array<std::uint64_t, 3> id{}, n{};
  for (int i = 0; i < 3; ++i) id[i] = ctaid[i] / cluster[i], n[i] = grid[i] / cluster[i];
  return id[0] + n[0] * (id[1] + n[1] * id[2]);
}

}  // namespace ptx::interp
