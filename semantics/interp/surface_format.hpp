// sust.p's conversion (ISA 9.7.11.2): 32-bit source elements to a surface sample of a CUDA channel format.
#pragma once

#include "semantics/interp/texture.hpp"

#include <cstdint>
#include <vector>

namespace ptx::interp {

// Writes `src` (.f32 bits for float formats, .u32 for unsigned, .s32 for signed; R, G, B, A) into the sample at
// `out`, channel k from src[k]; channels beyond src are left unchanged, elements beyond the channels ignored.
// Floats to 16 bits round to nearest even; integers saturate to the channel's range (the ISA says only
// "converted": the interpreter's choice).
void encode_sample(const ChannelFormat& f, const std::vector<std::uint32_t>& src, std::uint8_t* out);

}  // namespace ptx::interp
