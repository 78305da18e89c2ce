// NumPy's .npy format (version 1.0 and 2.0 headers; little-endian, C order), where array data for kernels usually
// lives: a launch buffer {"npy": "a.npy"} and `ptxcheck run --output-npy DIR`. Element types map to PTX types:
// <i1..<i8 s8..s64, <u1..<u8 u8..u64, <f2 f16, <f4 f32, <f8 f64 (numpy has no bfloat16).
#pragma once

#include "semantics/ir/types.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace ptx::interp {

struct NpyArray {
  ir::ScalarType type = ir::ScalarType::u8;
  std::vector<std::uint64_t> shape;
  std::vector<std::uint8_t> bytes;  // little-endian elements, C order
};
// False and `error` ("FILE: ...") for a file that is not a little-endian, C-order .npy of a supported type.
bool read_npy(const std::string& path, NpyArray& out, std::string& error);
// A one-dimensional array of `type` (bytes as the interpreter holds them; a trailing partial element is dropped);
// false and `error` when the file cannot be written or numpy has no such type (bf16).
bool write_npy(const std::string& path, ir::ScalarType type, const std::vector<std::uint8_t>& bytes, std::string& error);

}  // namespace ptx::interp
