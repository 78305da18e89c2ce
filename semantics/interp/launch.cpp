// See launch.hpp: which launch shapes a kernel can be launched with.
#include "semantics/interp/launch.hpp"

namespace ptx::interp {
namespace {
std::string dims_text(const Dims& d) { return std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]); }
std::uint64_t product(const Dims& d) { return std::uint64_t(d[0]) * d[1] * d[2]; }
}  // namespace

std::optional<Dims> block_directive(const ir::Function& kernel, std::string_view name) {
  auto it = kernel.performance.find(std::string(name));
  if (it == kernel.performance.end()) return std::nullopt;
  Dims d{1, 1, 1};
  for (std::size_t i = 0; i < 3 && i < it->second.size(); ++i) d[i] = static_cast<std::uint32_t>(it->second[i]);
  return d;
}

std::string launch_shape_error(const std::optional<Dims>& block, const std::optional<Dims>& grid, const ir::Function* kernel) {
  static const char* axis = "xyz";
  for (int i = 0; i < 3; ++i) {
    if (block && ((*block)[i] == 0 || (*block)[i] > max_ntid[i]))
      return "block " + dims_text(*block) + ": %ntid." + axis[i] + " is 1 to " + std::to_string(max_ntid[i]) + " (ISA 10.2)";
    if (grid && ((*grid)[i] == 0 || (*grid)[i] > max_nctaid[i]))
      return "grid " + dims_text(*grid) + ": %nctaid." + axis[i] + " is 1 to " + std::to_string(max_nctaid[i]) + " (ISA 10.7)";
  }
  if (!block) return {};
  if (product(*block) > max_threads_per_cta)
    return "block " + dims_text(*block) + ": " + std::to_string(product(*block)) + " threads, a CTA has at most " + std::to_string(max_threads_per_cta);
  if (!kernel) return {};
  if (auto req = block_directive(*kernel, "reqntid"); req && *req != *block)
    return "block " + dims_text(*block) + ": kernel " + ir::kernel_title(kernel->name) + " requires .reqntid " + dims_text(*req) + " (ISA 11.4.3)";
  if (auto max = block_directive(*kernel, "maxntid"); max && product(*block) > product(*max))
    return "block " + dims_text(*block) + ": kernel " + ir::kernel_title(kernel->name) + " allows at most " + std::to_string(product(*max)) +
           " threads per CTA (.maxntid " + dims_text(*max) + ", ISA 11.4.2)";
  return {};
}

ClusterShape cluster_shape(const std::optional<Dims>& cluster, const ir::Function* kernel) {
  if (cluster) return {*cluster, true};
  if (kernel)
    if (auto req = block_directive(*kernel, "reqnctapercluster")) return {*req, true};
  return {};
}

std::string cluster_shape_error(const Dims& grid, const std::optional<Dims>& cluster, const ir::Function* kernel) {
  if (kernel) {
    const auto req = block_directive(*kernel, "reqnctapercluster");
    if (req && cluster && *req != *cluster)
      return "cluster " + dims_text(*cluster) + ": kernel " + ir::kernel_title(kernel->name) + " requires .reqnctapercluster " + dims_text(*req) + " (ISA 11.7.1)";
    if (!req && !cluster && kernel->performance.count("explicitcluster"))
      return "kernel " + ir::kernel_title(kernel->name) + " must be launched with an explicit cluster (.explicitcluster, ISA 11.7.2); give \"cluster\"";
  }
  const ClusterShape shape = cluster_shape(cluster, kernel);
  const Dims& c = shape.dims;
  for (int i = 0; i < 3; ++i)
    if (c[i] == 0) return "cluster " + dims_text(c) + ": dimensions must be positive";
  if (product(c) > max_cluster_ctas)
    return "cluster " + dims_text(c) + ": " + std::to_string(product(c)) + " CTAs, a cluster has at most " + std::to_string(max_cluster_ctas) +
           " (" + std::to_string(max_cluster_ctas_portable) + " portably)";
  if (kernel)
    if (auto it = kernel->performance.find("maxclusterrank"); it != kernel->performance.end() && !it->second.empty() && product(c) > it->second[0])
      return "cluster " + dims_text(c) + ": kernel " + ir::kernel_title(kernel->name) + " allows at most " + std::to_string(it->second[0]) +
             " CTAs per cluster (.maxclusterrank, ISA 11.7.3)";
  for (int i = 0; i < 3; ++i)
    if (grid[i] % c[i])
      return "grid " + dims_text(grid) + " is not a whole number of clusters " + dims_text(c) + " (ISA 2.2.2: the grid is made of clusters)";
  return {};
}

}  // namespace ptx::interp
