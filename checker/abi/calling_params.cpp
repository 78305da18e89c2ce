// ptx-interoperability 2.3 (and the sizes and alignments of 1.1-1.2) on one `.func` parameter or return value:
// the .param space, the PTX types the table allows, aggregates as aligned byte arrays, native vectors per 1.2.
#include "checker/abi/calling_rules.hpp"

#include <fmt/format.h>

#include <bit>

namespace ptxcheck::abi::calling {
namespace {
using ptx::ir::ScalarType;
using ptx::ir::Variable;

// 2.3's table, as PTX types: integral 32/64 bits (.u/.s), pointers (.u32/.u64), floating point (.f32/.f64),
// handles (.b64). A .b type of the same width is accepted as the untyped form of these (1.1: "untyped word").
bool table_type(ScalarType t) {
  switch (t) {
    case ScalarType::u32: case ScalarType::s32: case ScalarType::b32: case ScalarType::u64: case ScalarType::s64:
    case ScalarType::b64: case ScalarType::f32: case ScalarType::f64:
      return true;
    default: return false;
  }
}
bool half_float(ScalarType t) {
  return t == ScalarType::f16 || t == ScalarType::bf16 || t == ScalarType::f16x2 || t == ScalarType::bf16x2;
}
// 1.1's table of fundamental types (.b/.s/.u 8-64, .f16, .f32, .f64): the element types of a native vector (1.2).
bool fundamental(ScalarType t) {
  return (ptx::ir::is_integer(t) && ptx::ir::scalar_bits(t) >= 8 && ptx::ir::scalar_bits(t) <= 64) ||
         t == ScalarType::f16 || t == ScalarType::f32 || t == ScalarType::f64;
}

void check_scalar(Context& c, const ptx::ir::Function& fn, const Variable& v, const std::string& what) {
  const ScalarType t = v.type.scalar;
  const std::string decl = declaration(c, v);
  if (table_type(t)) return;
  if (ptx::ir::is_integer(t) && ptx::ir::scalar_bits(t) < 32) {
    c.add(v.ptx_line, v.name, "small-integer", "2.3", fn.name,
          fmt::format("{} of {} is `{}`: integral values of 8 to 32 bits are passed and returned as .u32 or .s32, "
                      "zero or sign extended (2.3, note A)", what, fn.name, decl));
  } else if (half_float(t)) {
    c.add(v.ptx_line, v.name, "half-float", "2.3", fn.name,
          fmt::format("{} of {} is `{}`: 16-bit floating-point types are only used for storage and cannot be "
                      "parameters or return values (2.3, note C)", what, fn.name, decl));
  } else {
    c.add(v.ptx_line, v.name, "param-type", "2.3", fn.name,
          fmt::format("{} of {} is `{}`: 2.3's table has no source type passed as {}", what, fn.name, decl,
                      ptx::ir::scalar_type_name(t)));
  }
}

// 1.2: vectors of 1-4 elements for types of at most four bytes, 1-2 otherwise; odd n aligned as the element,
// even n on n * alignof(element).
void check_vector(Context& c, const ptx::ir::Function& fn, const Variable& v, const std::string& what) {
  const ScalarType t = v.type.scalar;
  const unsigned n = v.type.vector, elem = ptx::ir::scalar_bits(t) / 8;
  const std::string decl = declaration(c, v);
  if (!fundamental(t)) {
    c.add(v.ptx_line, v.name, "param-type", "1.2", fn.name,
          fmt::format("{} of {} is `{}`: native vectors (1.2) are of the fundamental types of 1.1, not {}", what,
                      fn.name, decl, ptx::ir::scalar_type_name(t)));
    return;
  }
  const unsigned max_n = elem <= 4 ? 4 : 2;
  if (n > max_n) {
    c.add(v.ptx_line, v.name, "vector-elements", "1.2", fn.name,
          fmt::format("{} of {} is `{}`: a native vector of {}-byte elements has at most {} elements (1.2)", what,
                      fn.name, decl, elem, max_n));
    return;
  }
  const unsigned want = n % 2 ? elem : n * elem;
  if (v.align && v.align != want)
    c.add(v.ptx_line, v.name, "vector-align", "1.2", fn.name,
          fmt::format("{} of {} is `{}`: a native vector of {} {} elements is aligned on {} bytes (1.2), not {}", what,
                      fn.name, decl, n, ptx::ir::scalar_type_name(t), want, v.align));
}

// 2.3: `.param .align A .b8 name[size]`, A in 1..128 a power of two (note D), size a multiple of A (1.2 tail padding).
void check_aggregate(Context& c, const ptx::ir::Function& fn, const Variable& v, const std::string& what) {
  const std::string decl = declaration(c, v);
  if (v.type.scalar != ScalarType::b8 || v.type.vector != 1) {
    c.add(v.ptx_line, v.name, "aggregate-form", "2.3", fn.name,
          fmt::format("{} of {} is `{}`: aggregates and unions are passed as `.align A .b8 name[size]` (2.3)", what,
                      fn.name, decl));
    return;
  }
  if (v.align == 0) {
    c.add(v.ptx_line, v.name, "aggregate-align", "2.3", fn.name,
          fmt::format("{} of {} is `{}`: an aggregate parameter states its alignment, `.align A .b8 name[size]` (2.3)",
                      what, fn.name, decl));
  } else if (v.align > 128 || !std::has_single_bit(v.align)) {
    c.add(v.ptx_line, v.name, "aggregate-align", "2.3", fn.name,
          fmt::format("{} of {} is `{}`: the alignment must be 1, 2, 4, 8, 16, 32, 64 or 128 bytes (2.3, note D)",
                      what, fn.name, decl));
  }
  if (v.count == 0) {
    c.add(v.ptx_line, v.name, "aggregate-size", "2.3", fn.name,
          fmt::format("{} of {} is `{}`: size is the aggregate-or-union size in bytes (2.3); an unsized array has none",
                      what, fn.name, decl));
  } else if (v.align && v.count % v.align != 0) {
    c.add(v.ptx_line, v.name, "aggregate-size", "1.2", fn.name,
          fmt::format("{} of {} is `{}`: the size of an aggregate or union is a multiple of its alignment (1.2, "
                      "tail padding), {} is not a multiple of {}", what, fn.name, decl, v.count, v.align));
  }
}
}  // namespace

void check_declaration(Context& c, const ptx::ir::Function& fn, const Variable& v, const std::string& what) {
  if (v.space != ptx::ir::StateSpace::param) {
    c.add(v.ptx_line, v.name, "param-space", "2.3", fn.name,
          fmt::format("{} of {} is `{}`: all parameters and return values of a device function use the parameter "
                      "state space (.param) (2.3)", what, fn.name, declaration(c, v)));
    return;
  }
  if (is_array(c, v)) check_aggregate(c, fn, v, what);
  else if (v.type.vector > 1) check_vector(c, fn, v, what);
  else check_scalar(c, fn, v, what);
}

}  // namespace ptxcheck::abi::calling
