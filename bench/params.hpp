// Kernel parameters of the benchmarks' launches, named by what they are (a buffer's address or a scalar), so that
// no benchmark spells out ParamValue's fields by position.
#pragma once

#include "semantics/interp/launch.hpp"

#include <cstdint>
#include <string>
#include <utility>

namespace ptxcheck::bench {

inline ptx::interp::ParamValue buffer_param(std::string name) {
  ptx::interp::ParamValue v;
  v.buffer = std::move(name);
  return v;
}

inline ptx::interp::ParamValue scalar_param(ptx::ir::ScalarType type, std::uint64_t bits) {
  ptx::interp::ParamValue v;
  v.type = type;
  v.bits = bits;
  return v;
}

}  // namespace ptxcheck::bench
