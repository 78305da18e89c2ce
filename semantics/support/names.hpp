// How reports name what the PTX names by its mangled symbols: kernels and variables by their CUDA (C++) names
// (abi::__cxa_demangle), kernel parameters as the source's arguments, and an address by its element index.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ptxcheck::names {

// The toolchain's demangling of a mangled symbol (`_Z1bPi` -> `b(int*)`, `_ZZ1kPiE1s` -> `k(int*)::s`); the
// symbol itself when it is not mangled (a C name) or does not demangle.
std::string demangle(std::string_view symbol);
// Where the parameter list of a demangled function name starts: the '(' matching its final ')', which template
// arguments before it may contain too (`k<main::{lambda(int)#1}>(int*, ...)`); npos when there is none.
std::size_t parameter_list_start(const std::string& cxx);

// The C++ name a kernel's mangled PTX symbol stands for, as a user writes it: `_Z1bPi` -> `b(int*)`,
// `_Z1kIiEvPi` -> `k<int>(int*)` (a template instance's mangled `void` return type left out); the symbol itself
// if it is not mangled.
std::string kernel_cxx_name(std::string_view symbol);
// The C++ parameter types of a kernel's mangled PTX symbol, in order (`_Z1kPKiPi` -> `int const*`, `int*`); empty
// when the symbol is not mangled or has no parameters.
std::vector<std::string> kernel_cxx_parameter_types(std::string_view symbol);
// How reports and errors name a kernel: `b(int*) (PTX _Z1bPi)`, or the PTX name alone when it is not mangled.
std::string kernel_title(std::string_view symbol);

// A variable's C++ name for display: the demangled name without function parameter lists or return types, so a
// local static `_ZZ9block_sumPKiPiE1s` (`block_sum(int const*, int*)::s`) is `block_sum::s`, `_ZZ1kIiEvPT_E1s`
// is `k<int>::s`, `_ZN2ns1xE` is `ns::x`; a C name stays as it is.
std::string variable_cxx_name(std::string_view symbol);
// How messages name a variable: `ns::counter (_ZN2ns7counterE)`, or the symbol alone when it is not mangled.
std::string variable_title(std::string_view symbol);
// The name of a kernel's function part without namespaces, template arguments or parameters, as the source's
// declaration spells it (`_ZN2ns5scaleIfEEvPT_` -> `scale`).
std::string kernel_base_name(std::string_view symbol);

// A C++ type without its top-level cv-qualifiers as the demangler writes them (`int const` -> `int`).
std::string without_qualifiers(std::string type);
// The pointee of a pointer type (`int const*` -> `int`), or empty when `type` is no pointer.
std::string pointee_type(const std::string& type);
// The size of a scalar or CUDA vector type by its C++ name (`int` 4, `double` 8, `float4` 16, `__half` 2); 0 when
// unknown (a struct, a class, a template).
unsigned cxx_type_bytes(const std::string& type);

// `[16]` for byte offset 64 into elements of 4 bytes; `[16], byte 2` inside an element; ` byte 64` when the
// element size is unknown (0); empty for offset 0 of a scalar (`array` false).
std::string element_text(std::int64_t offset, unsigned element_bytes, bool array);
// `argument 2 (out)` for the second parameter named `out` in the source, `argument 2` when the name is unknown.
std::string argument_name(std::size_t one_based, std::string_view source_name);
// The PTX name of an address: `SYMBOL+OFFSET` (`SYMBOL-8` below it).
std::string ptx_address(std::string_view symbol, std::int64_t offset);

// The parameter names of the `__global__` function `base_name` in CUDA source text, in order (an unnamed parameter
// is ""), from its first definition or declaration with `count` parameters and a name; empty when none is found.
std::vector<std::string> cuda_parameter_names(std::string_view source, std::string_view base_name, std::size_t count);

}  // namespace ptxcheck::names
