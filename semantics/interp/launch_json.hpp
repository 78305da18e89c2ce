// The JSON form of a launch and of its result, as `ptxcheck run --launch` reads and prints them:
//   {"kernel": "add", "grid": [1,1,1], "block": [64,1,1], "dynamic_shared_bytes": 1024,
//    "buffers": {"in": {"bytes_le_hex": "0100"}, "out": {"zero_bytes": 8}, "x": {"type": "f32", "values": [1.5]}},
//    "params": [{"buffer": "in"}, {"buffer": "out"}, {"u32": 7}]}
#pragma once

#include "semantics/interp/launch.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace ptx::interp {

// Both return false and set `error` on malformed input.
// `base_dir`: where {"npy": FILE} buffers are looked for (the launch file's folder; empty: the working one).
bool launch_from_json(const nlohmann::json& j, Launch& out, std::string& error, const std::string& base_dir = "");
// Reads a launch file; on failure `error` is a complete message ("FILE: error: ...").
bool read_launch_file(const std::string& path, Launch& out, std::string& error);
// A scalar parameter: "u32:7", "s64:-1", "f32:1.5", "f64:2", or {"u32": 7} in JSON; "buffer:NAME".
bool param_from_text(std::string_view text, ParamValue& out, std::string& error);
bool param_from_json(const nlohmann::json& j, ParamValue& out, std::string& error);

// Buffers the launch gave typed come back as {"type", "values"} (and "bytes_le_hex" too with `hex`), the others
// as {"bytes_le_hex"}.
nlohmann::json result_to_json(const RunResult& r, const ir::Module& m, const Launch& launch, bool hex = false);

std::string bytes_to_hex(const std::vector<std::uint8_t>& bytes);
bool hex_to_bytes(std::string_view hex, std::vector<std::uint8_t>& out);

}  // namespace ptx::interp
