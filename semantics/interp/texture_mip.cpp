// Mipmap level selection (texture_mip.hpp).
#include "semantics/interp/texture_mip.hpp"

#include <algorithm>
#include <cmath>

namespace ptx::interp::texfilter {

std::uint64_t level_extent(std::uint64_t n, unsigned level) {
  if (n == 0) return 0;
  return level >= 64 ? 1 : std::max<std::uint64_t>(1, n >> level);
}

double lod_from_gradients(const std::array<double, 3>& ddx, const std::array<double, 3>& ddy, const std::array<std::uint64_t, 3>& n,
                          unsigned dims, bool normalized) {
  double lx = 0, ly = 0;
  for (unsigned k = 0; k < dims && k < 3; ++k) {
    const double scale = normalized ? static_cast<double>(std::max<std::uint64_t>(n[k], 1)) : 1.0;
    lx += (ddx[k] * scale) * (ddx[k] * scale);
    ly += (ddy[k] * scale) * (ddy[k] * scale);
  }
  const double rho = std::sqrt(std::max(lx, ly));
  return rho > 0 ? std::log2(rho) : -HUGE_VAL;
}

LevelChoice choose_levels(double lambda, const Sampler& s, unsigned levels) {
  if (std::isnan(lambda)) lambda = 0;
  const double top = levels ? static_cast<double>(levels - 1) : 0.0;
  double l = lambda + s.mip_bias;
  l = std::clamp(l, static_cast<double>(s.mip_min), std::max<double>(s.mip_min, s.mip_max));
  l = std::clamp(l, 0.0, top);
  if (!s.mip_linear) {
    const auto near = static_cast<unsigned>(std::min(std::floor(l + 0.5), top));
    return {near, near, 0};
  }
  const auto lo = static_cast<unsigned>(std::floor(l));
  const double w = l - std::floor(l);
  return {lo, w > 0 ? std::min<unsigned>(lo + 1, levels - 1) : lo, w};
}

}  // namespace ptx::interp::texfilter
