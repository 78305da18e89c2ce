// sust.p's conversion to the surface sample format (surface_format.hpp).
#include "semantics/interp/surface_format.hpp"

#include "semantics/domain/concrete.hpp"

#include <algorithm>
#include <cstring>

namespace ptx::interp {

namespace {
std::uint64_t convert(const ChannelFormat& f, unsigned bits, std::uint32_t v) {
  if (f.is_float()) {
    if (bits == 32) return v;
    return domain::Concrete::f2f(domain::FpFormat::f32, domain::FpFormat::f16, domain::Rnd::rn, domain::Concrete::lit(32, v)).u64() & 0xffff;
  }
  if (bits == 32) return v;
  if (f.is_signed()) {
    const std::int64_t lo = -(std::int64_t(1) << (bits - 1)), hi = (std::int64_t(1) << (bits - 1)) - 1;
    const std::int64_t s = std::clamp<std::int64_t>(static_cast<std::int32_t>(v), lo, hi);
    return static_cast<std::uint64_t>(s) & ((std::uint64_t(1) << bits) - 1);
  }
  return std::min<std::uint64_t>(v, (std::uint64_t(1) << bits) - 1);
}
}  // namespace

void encode_sample(const ChannelFormat& f, const std::vector<std::uint32_t>& src, std::uint8_t* out) {
  unsigned byte = 0;
  for (unsigned k = 0; k < f.channels(); ++k) {
    const unsigned bits = f.bits[k];
    if (k < src.size()) {
      const std::uint64_t v = convert(f, bits, src[k]);
      std::memcpy(out + byte, &v, bits / 8);  // little-endian: the low bytes
    }
    byte += bits / 8;
  }
}

}  // namespace ptx::interp
