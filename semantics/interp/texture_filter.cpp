// The texture unit's arithmetic: element decoding, addressing modes, the 9-bit linear-filter weights.
#include "semantics/interp/texture_filter.hpp"

#include "semantics/domain/concrete.hpp"

#include <bit>
#include <cmath>
#include <cstring>

namespace ptx::interp::texfilter {

bool returns_float(const ChannelFormat& f, bool normalized_float) {
  if (f.is_float()) return true;
  return normalized_float && f.bits[0] <= 16;
}

namespace {
std::uint32_t read_bits(const std::uint8_t* p, unsigned bit, unsigned n) {
  std::uint64_t v = 0;
  std::memcpy(&v, p + bit / 8, (n + 7) / 8);
  return static_cast<std::uint32_t>(n == 32 ? v & 0xffffffffu : v & ((std::uint64_t(1) << n) - 1));
}

// CUDA Handbook Table 10.1 (texture floating-point promotion), computed in f32 as its listing does.
float promote(std::uint32_t raw, unsigned bits, bool is_signed) {
  if (!is_signed) return static_cast<float>(raw) / static_cast<float>((std::uint64_t(1) << bits) - 1);
  const std::uint32_t sign = 1u << (bits - 1);
  if (raw == sign) return -1.0f;
  const std::int32_t s = static_cast<std::int32_t>(raw ^ sign) - static_cast<std::int32_t>(sign);
  return static_cast<float>(s) / static_cast<float>(sign - 1);
}
}  // namespace

Channels decode(const ChannelFormat& format, const std::uint8_t* p, bool normalized_float) {
  Channels c;
  unsigned bit = 0;
  for (unsigned k = 0; k < format.channels(); ++k) {
    const unsigned n = format.bits[k];
    const std::uint32_t raw = read_bits(p, bit, n);
    bit += n;
    if (format.is_float()) {
      c.f[k] = n == 16 ? static_cast<float>(domain::fp_to_double(domain::FpFormat::f16, raw)) : std::bit_cast<float>(raw);
    } else if (normalized_float && n <= 16) {
      c.f[k] = promote(raw, n, format.is_signed());
    } else {
      const bool neg = format.is_signed() && n < 32 && (raw >> (n - 1)) & 1;
      c.i[k] = neg ? raw | ~((1u << n) - 1) : raw;
    }
  }
  return c;
}

std::int64_t address(std::int64_t i, std::uint64_t n, AddressMode m, bool normalized, bool& outside) {
  const auto N = static_cast<std::int64_t>(n);
  if (!normalized && (m == AddressMode::wrap || m == AddressMode::mirror)) m = AddressMode::clamp;
  switch (m) {
    case AddressMode::wrap: return ((i % N) + N) % N;
    case AddressMode::mirror: {
      const std::int64_t j = ((i % (2 * N)) + 2 * N) % (2 * N);
      return j < N ? j : 2 * N - 1 - j;
    }
    case AddressMode::border:
      if (i < 0 || i >= N) outside = true;
      return i;
    case AddressMode::clamp: break;
  }
  return i < 0 ? 0 : i >= N ? N - 1 : i;
}

double quantize_weight(double frac) { return std::floor(frac * 256.0 + 0.5) / 256.0; }

std::array<double, 8> corner_weights(const std::array<Footprint, 3>& fp, unsigned dims) {
  std::array<double, 8> w{};
  if (dims == 2) {
    const double a = fp[0].alpha * 256, b = fp[1].alpha * 256, ab = std::floor(a * b / 256 + 0.5);
    w = {256 - a - b + ab, a - ab, b - ab, ab};
    for (double& x : w) x /= 256;
    return w;
  }
  for (unsigned corner = 0; corner < (1u << dims); ++corner) {
    w[corner] = 1;
    for (unsigned k = 0; k < dims; ++k) w[corner] *= (corner >> k) & 1 ? fp[k].alpha : 1 - fp[k].alpha;
  }
  return w;
}

Footprint linear_footprint(double x) {
  const double xb = x - 0.5;
  const double fl = std::floor(xb);
  return {static_cast<std::int64_t>(fl), quantize_weight(xb - fl)};
}

}  // namespace ptx::interp::texfilter
