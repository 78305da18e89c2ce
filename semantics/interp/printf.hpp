// CUDA's device printf: `vprintf(format, args)` (ptx-interoperability guide, system calls) receives the format
// string and a buffer holding the arguments, each at the next offset aligned to its own size (after C's default
// promotions: char/short to int, float to double). The formatting is C's printf, one conversion at a time.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace ptx::interp {

struct PrintfArguments {
  // Reads `size` (4 or 8) little-endian bytes at `offset` of the argument buffer; false when out of bounds.
  std::function<bool(std::uint64_t offset, unsigned size, std::uint64_t& value)> read;
  // The NUL-terminated string at a device address (for %s); nullopt-like empty + false when unreadable.
  std::function<bool(std::uint64_t address, std::string& text)> read_string;
};

// The text printf(format, ...) prints; a conversion whose argument cannot be read prints "<bad argument>".
std::string format_device_printf(std::string_view format, const PrintfArguments& args);

}  // namespace ptx::interp
