// ptx-interoperability chapter 3: the prototypes of the system calls vprintf, malloc, free and __assertfail,
// which the PTX declares (`.extern .func`, no body) and the driver implements.
#include "checker/abi/calling_rules.hpp"

#include <fmt/format.h>

namespace ptxcheck::abi::calling {
namespace {
using ptx::ir::ScalarType;
using ptx::ir::Variable;

// t1 (pointers, by .address_size) and t2 (size_t) are .b32 or .b64; status is `.s32`; __assertfail's line is
// an int, which 2.3 passes as a 32-bit integer.
enum class Slot : std::uint8_t { pointer, size, status, line };
struct SysParam {
  const char* name;
  Slot slot;
};
struct SysCall {
  const char* name;
  std::vector<SysParam> returns, params;
};
const std::vector<SysCall>& system_calls() {
  static const std::vector<SysCall> calls = {
      {"vprintf", {{"status", Slot::status}}, {{"format", Slot::pointer}, {"valist", Slot::pointer}}},
      {"malloc", {{"ptr", Slot::pointer}}, {{"size", Slot::size}}},
      {"free", {}, {{"ptr", Slot::pointer}}},
      {"__assertfail", {},
       {{"message", Slot::pointer}, {"file", Slot::pointer}, {"line", Slot::line}, {"function", Slot::pointer},
        {"charSize", Slot::size}}},
  };
  return calls;
}

// The PTX type the chapter gives the slot, and whether `t` is it (.b is the chapter's form; .u for pointers and
// size_t is 2.3's, .s32/.u32 for the line number too).
std::string wanted(Slot s, unsigned address_bits) {
  switch (s) {
    case Slot::pointer: return fmt::format("t1, .b{0} for {0}-bit addresses", address_bits);
    case Slot::size: return fmt::format("t2, size_t: .b{0} (size_t taken as {0} bits, the address size)", address_bits);
    case Slot::status: return ".s32";
    default: return "an int, a 32-bit integer (2.3)";
  }
}
bool fits(Slot s, const Variable& v, unsigned address_bits) {
  const ScalarType t = v.type.scalar;
  if (v.type.vector != 1 || v.count != 1) return false;
  const unsigned bits = ptx::ir::scalar_bits(t);
  switch (s) {
    case Slot::pointer: case Slot::size:
      return bits == address_bits && (ptx::ir::is_bit_type(t) || ptx::ir::is_unsigned_int(t));
    case Slot::status: return t == ScalarType::s32 || t == ScalarType::b32;
    default: return bits == 32 && ptx::ir::is_integer(t);
  }
}

void check_one(Context& c, const ptx::ir::Function& fn, const SysCall& sys) {
  const unsigned address_bits = c.module.address_size;
  if (fn.has_body || !fn.is_extern)
    c.add(fn.ptx_line, fn.name, "syscall-extern", "3", fn.name,
          fmt::format("{} is a system call: the PTX gives its prototype as `.extern .func` and the driver its "
                      "definition (chapter 3)", fn.name));
  auto list = [&](const std::vector<Variable>& have, const std::vector<SysParam>& want, const char* what) {
    if (have.size() != want.size()) {
      c.add(fn.ptx_line, fn.name, "syscall-prototype", "3", fn.name,
            fmt::format("{} declares {} {}, chapter 3's prototype has {}", fn.name, have.size(), what, want.size()));
      return;
    }
    for (std::size_t i = 0; i < want.size(); ++i)
      if (!fits(want[i].slot, have[i], address_bits))
        c.add(have[i].ptx_line, have[i].name, "syscall-prototype", "3", fn.name,
              fmt::format("{} of {} is `{}`: chapter 3 gives it the type {}", want[i].name, fn.name,
                          declaration(c, have[i]), wanted(want[i].slot, address_bits)));
  };
  list(fn.returns, sys.returns, "return values");
  list(fn.params, sys.params, "parameters");
}
}  // namespace

void check_system_calls(Context& c) {
  for (const auto& sys : system_calls())
    if (const auto* fn = c.module.find_function(sys.name)) check_one(c, *fn, sys);
}

}  // namespace ptxcheck::abi::calling
