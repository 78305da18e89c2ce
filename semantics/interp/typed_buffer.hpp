// Typed buffer contents for launches and results (issue 38): a buffer given as values of a PTX type instead of
// little-endian hex bytes,
//   {"type": "f32", "values": [1.0, 2.5, "nan", "-inf", "0x7fc00001"]}   numbers, IEEE specials, or raw bits
//   {"type": "u32", "fill": 7, "count": 64}                              one value repeated
//   {"type": "f16", "count": 32}                                         zeros
// Types: u8-u64, s8-s64, b8-b64, f16, bf16, f32, f64. Floats are rounded to nearest-even from the JSON number
// (through semantics/ops' cvt, the interpreter's own conversion); integers must fit their type.
#pragma once

#include "semantics/ir/types.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ptx::interp {

// A buffer element type by its PTX name; nullopt for a type a buffer cannot hold.
std::optional<ir::ScalarType> buffer_element_type(const std::string& name);
// The bytes of a typed buffer object (one with "type"); false and `error` on malformed content.
bool typed_buffer_bytes(const nlohmann::json& buffer, std::vector<std::uint8_t>& out, std::string& error);
// One value of `t` from JSON (number, "nan", "inf", "-inf", "0x..." bits), as the type's bits.
bool typed_value_bits(ir::ScalarType t, const nlohmann::json& v, std::uint64_t& bits, std::string& error);
// The buffer's bytes read back as values of `t` (floats as numbers, or "nan"/"inf"/"-inf"); a trailing partial
// element is left out.
nlohmann::json typed_values(ir::ScalarType t, const std::vector<std::uint8_t>& bytes);

}  // namespace ptx::interp
