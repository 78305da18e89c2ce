// Mipmap level selection for fetches of mipmapped textures (ISA 9.7.10.3 tex.level / tex.grad; the CUDA runtime's
// cudaTextureDesc mipmap fields). The arithmetic only: texture.cpp samples the levels chosen.
#pragma once

#include "semantics/interp/texture.hpp"

#include <array>
#include <cstdint>

namespace ptx::interp::texfilter {

// Level l of a mipmapped array of extent n: max(1, floor(n / 2^l)) per dimension (0 stays 0: no such dimension).
std::uint64_t level_extent(std::uint64_t n, unsigned level);

// The level of detail from the gradients (tex.grad): lambda = log2(max(|ddx|, |ddy|)), each gradient scaled by
// the level-0 size of its dimension when coordinates are normalized (OpenGL 4.6, 8.14.1, isotropic). Zero
// gradients give -infinity (the finest level after clamping).
double lod_from_gradients(const std::array<double, 3>& ddx, const std::array<double, 3>& ddy, const std::array<std::uint64_t, 3>& n,
                          unsigned dims, bool normalized);

// The level(s) a fetch reads: lambda + bias, clamped to [min clamp, max clamp] and to the levels there are;
// point mipmap filtering reads the nearest level (round half up), linear reads `lo` and `lo + 1` weighted
// (1 - w, w). `hi` == `lo` when one level is read.
struct LevelChoice {
  unsigned lo = 0, hi = 0;
  double w = 0;
};
LevelChoice choose_levels(double lambda, const Sampler& s, unsigned levels);

}  // namespace ptx::interp::texfilter
