// The texture unit's arithmetic (internal to semantics/interp): element decoding per read mode, the addressing
// modes and the point / linear filtering of the CUDA Programming Guide's "Texture Fetching" appendix, which the
// PTX ISA (9.7.10.3) leaves to the texture's description.
#pragma once

#include "semantics/interp/texture.hpp"

#include <array>
#include <cstdint>

namespace ptx::interp::texfilter {

// One element's channels after the read mode: `f` when the fetch returns floats (float formats, and 8/16-bit
// integers read as cudaReadModeNormalizedFloat), else `i` (the integer, sign- or zero-extended to 32 bits). A
// channel the format lacks reads 0, the fourth (alpha) 1 (the interpreter's choice, as OpenGL; the guide is silent).
struct Channels {
  std::array<float, 4> f{0, 0, 0, 1};
  std::array<std::uint32_t, 4> i{0, 0, 0, 1};
};

// Whether fetches of this format under this read mode return floats.
bool returns_float(const ChannelFormat& f, bool normalized_float);
// Decodes the element at `p` (format.bytes() bytes, x channel first). Normalized float (8/16-bit integers only):
// unsigned u / (2^n - 1); signed s / (2^(n-1) - 1), the most negative value -1.0 (CUDA Handbook, Table 10.1).
Channels decode(const ChannelFormat& format, const std::uint8_t* p, bool normalized_float);

// Addressing of texel index `i` in a dimension of `n` elements: clamp to [0, n-1]; wrap i mod n; mirror with
// period 2n; border: `outside` set when i is out of range. Wrap and mirror apply to normalized coordinates only
// (Programming Guide: "only supported for normalized texture coordinates"); with unnormalized ones they clamp.
std::int64_t address(std::int64_t i, std::uint64_t n, AddressMode m, bool normalized, bool& outside);

// Linear filtering in one dimension (Programming Guide, Texture Fetching, Linear Filtering): xB = x - 0.5,
// i = floor(xB), alpha = frac(xB) "stored in 9-bit fixed point format with 8 bits of fractional value": alpha is
// rounded to a multiple of 1/256, to nearest with ties up (the guide does not say how; measured on an H200:
// tests/hardware/probes/texture_filter.cu, docs/hardware.md).
struct Footprint {
  std::int64_t i = 0;
  double alpha = 0;  // a multiple of 1/256 in [0, 1]
};
Footprint linear_footprint(double x);
double quantize_weight(double frac);

// The weight of each of the 2^dims texels of a linear footprint, corner bit k set for i+1 in dimension k. One
// dimension: 1 - alpha, alpha. Two: the guide's (1-a)(1-b), a(1-b), (1-a)b, ab with the product ab rounded to
// 1/256 (ties up) and the others completing it, so the four sum to 1: w11 = round(ab), w10 = a - w11,
// w01 = b - w11, w00 = 1 - a - b + w11 (what an H200 computes, bit for bit, on 1,089 probed positions and on
// tests/exec/texture_sample.cu; the exact products differed in 512 of them). Three: the exact products (not
// measured: the interpreter's choice).
std::array<double, 8> corner_weights(const std::array<Footprint, 3>& fp, unsigned dims);

}  // namespace ptx::interp::texfilter
